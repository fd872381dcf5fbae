/**
 * Where the markdown renderer's two libraries come from: one chunk of their own
 * (./marked-dompurify.ts), imported on first use. The classic script has no `import()`: its build puts src/classic/markdown-libraries.ts in
 * place of this module, which loads them from a classic file of their own.
 */
import type { Marked } from 'marked';
import type { Config, default as createDOMPurify } from 'dompurify';

export interface MarkdownLibraries {
  Marked: typeof Marked;
  createDOMPurify: typeof createDOMPurify;
  /** The Trusted Types policy DOMPurify uses instead of making its own, when it cannot make one. */
  trustedTypesPolicy?: Config['TRUSTED_TYPES_POLICY'];
}

export async function loadMarkdownLibraries(): Promise<MarkdownLibraries> {
  const { Marked, createDOMPurify } = await import('./marked-dompurify.js');
  return { Marked, createDOMPurify };
}
