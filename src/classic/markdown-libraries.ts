/**
 * The markdown renderer's libraries for the classic script: marked and DOMPurify are a classic file
 * of their own, `consult-elements.classic.markdown.js` beside the main one, loaded by a `<script
 * src>` when an answer is first shown (or a thread is idle), so pages that show none never download
 * them. Until it has run, answers show as plain text (src/elements/shared/markdown.ts).
 *
 * Under `require-trusted-types-for 'script'` a script's address must be a TrustedScriptURL. The
 * policy that makes it is DOMPurify's own name, `dompurify`, which pages that show answers already
 * allow (docs/security.md S13): it passes this one address only, and DOMPurify is then given it to
 * use in place of the one it would make, since a policy name is made once.
 */
import type { MarkdownLibraries } from '../elements/shared/markdown-libraries.js';

declare global {
  interface Window {
    /** What consult-elements.classic.markdown.js (src/elements/shared/marked-dompurify.ts) leaves when it has run. */
    ConsultElementsMarkdown?: Omit<MarkdownLibraries, 'trustedTypesPolicy'>;
  }
}

type Policy = NonNullable<MarkdownLibraries['trustedTypesPolicy']>;
interface PolicyFactory {
  createPolicy(
    name: string,
    rules: { createHTML(html: string): string; createScriptURL(url: string): string },
  ): Policy;
}

// Read as this file runs: `document.currentScript` is this file's own tag only then.
const mainScript = globalThis.document?.currentScript as HTMLScriptElement | null | undefined;

/** The markdown file's address: the main script's, `.js` at the end of its path made `.markdown.js`. */
function markdownFileUrl(main: HTMLScriptElement): string {
  const url = new URL(main.src);
  url.pathname = url.pathname.replace(/(\.js)?$/, '.markdown.js');
  return url.href;
}

function trustedTypesPolicy(address: string): Policy | undefined {
  const factory = (window as Window & { trustedTypes?: PolicyFactory }).trustedTypes;
  if (!factory) return undefined;
  try {
    return factory.createPolicy('dompurify', {
      createHTML: (html) => html,
      createScriptURL: (url) => {
        if (url !== address) throw new TypeError(`not the markdown file: ${url}`);
        return url;
      },
    });
  } catch {
    // The page allows no policy of that name (or has made it): the address goes as it is.
    return undefined;
  }
}

export function loadMarkdownLibraries(): Promise<MarkdownLibraries> {
  return new Promise((resolve, reject) => {
    const main = mainScript;
    if (!main?.src) throw new Error('consult-elements.classic.js: its own address is not known');
    const address = markdownFileUrl(main);
    const policy = trustedTypesPolicy(address);
    const script = document.createElement('script');
    // The same trust as the main script: its nonce (for nonce-based policies) and its CORS mode.
    if (main.nonce) script.nonce = main.nonce;
    if (main.crossOrigin !== null) script.crossOrigin = main.crossOrigin;
    script.addEventListener('load', () => {
      const libraries = window.ConsultElementsMarkdown;
      if (libraries) resolve({ ...libraries, ...(policy && { trustedTypesPolicy: policy }) });
      else reject(new Error(`${address} ran but left no libraries`));
    });
    script.addEventListener('error', () => reject(new Error(`${address} did not load`)));
    script.src = (policy ? policy.createScriptURL(address) : address) as string;
    document.head.append(script);
  });
}
