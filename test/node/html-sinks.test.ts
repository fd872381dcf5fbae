/**
 * docs/security.md S12: one HTML sink in the whole codebase, the markdown renderer. Any other
 * `unsafeHTML`, `innerHTML`, `outerHTML`, `insertAdjacentHTML`, `document.write`,
 * `createContextualFragment`, `srcdoc`, `setHTMLUnsafe` or Lit's static HTML under src/ or demo/
 * fails this test.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';

const SINKS =
  /\bunsafe(HTML|SVG|MathML|Static)\b|static-html|\binnerHTML\b|\bouterHTML\b|\binsertAdjacentHTML\b|\bdocument\.write(ln)?\b|\bcreateContextualFragment\b|\bsrcdoc\b|\bDOMParser\b|\b(setHTMLUnsafe|parseHTMLUnsafe)\b/;
const THE_RENDERER = 'src/elements/shared/markdown.ts';

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : [join(dir, entry.name)],
    ),
  );
  return nested.flat().filter((file) => /\.(ts|js|mjs)$/.test(file));
}

export function findSinks(files: { path: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    if (path === THE_RENDERER) continue;
    text.split('\n').forEach((line, index) => {
      // Whole comment lines only: cutting at `//` would hide a sink behind a URL in a string.
      if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
      if (SINKS.test(line)) found.push(`${path}:${index + 1}: ${line.trim()}`);
    });
  }
  return found;
}

describe('HTML sinks (S12)', () => {
  it('exist only in the markdown renderer', async () => {
    const files = [...(await sourceFiles('src')), ...(await sourceFiles('demo'))];
    assert.ok(files.includes(THE_RENDERER), 'the renderer is where this test expects it');
    const texts = await Promise.all(
      files.map(async (path) => ({ path: relative('.', path), text: await readFile(path, 'utf8') })),
    );
    assert.deepEqual(findSinks(texts), []);
  });

  it('would catch a sink anywhere else', () => {
    const planted = [
      { path: 'src/elements/x/x.ts', text: "import { unsafeHTML } from 'lit/directives/unsafe-html.js';" },
      { path: 'src/elements/y/y.ts', text: 'div.innerHTML = answer;' },
      { path: 'src/elements/z/z.ts', text: "el.insertAdjacentHTML('beforeend', s);" },
      { path: 'src/elements/u/u.ts', text: "const link = 'https://example.org'; el['innerHTML'] = s;" },
      { path: 'src/elements/v/v.ts', text: "import { unsafeStatic, html } from 'lit/static-html.js';" },
      { path: 'demo/w.ts', text: 'document.body.setHTMLUnsafe(s);' },
      { path: THE_RENDERER, text: 'the renderer itself is allowed: innerHTML' },
    ];
    assert.equal(findSinks(planted).length, 6);
  });
});
