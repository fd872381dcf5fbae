/**
 * Spaces members see survive the build: the template minifier (scripts/minify-templates.ts, with
 * minify-literals) drops whitespace at the start of a template and between an opening tag and a
 * binding, so "apply to you? (optional)" would read "apply to you?(optional)". No element's
 * template relies on such a space, and the one that used to keeps it once minified.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { minifyHTMLLiterals } from 'minify-literals';

const ELEMENTS = new URL('../../src/elements/', import.meta.url).pathname;
const sources = (readdirSync(ELEMENTS, { recursive: true }) as string[])
  .filter((file) => file.endsWith('.ts'))
  .map((file) => ({ file, code: readFileSync(join(ELEMENTS, file), 'utf8') }));

describe('spaces in the elements’ templates survive minification', () => {
  it('no template starts with a space, or puts one between an opening tag and a binding', () => {
    const fragile = sources.flatMap(({ file, code }) =>
      [...code.matchAll(/html`[ \t]+\S|<[a-z][^>`]*>[ \t]+\$\{/g)].map(
        (match) => `${file}:${code.slice(0, match.index).split('\n').length}: ${match[0]}`,
      ),
    );
    assert.deepEqual(fragile, [], 'put the space between two parts of one template instead');
  });

  it('a survey question’s label keeps the space before "(optional)" once minified', async () => {
    const file = join(ELEMENTS, 'prescription-request/question-view.ts');
    const minified = await minifyHTMLLiterals(readFileSync(file, 'utf8'), { fileName: file });
    assert.ok(minified, 'the minifier changed the file');
    assert.match(minified.code, /\} <span class="optional">/);
  });

  it('the check finds the space a template starts with (the minifier drops it)', async () => {
    const before = 'html`${label}${required ? nothing : html` <span class="optional">${optional}</span>`}`';
    assert.match(before, /html`[ \t]+\S/);
    const minified = await minifyHTMLLiterals(`const a = ${before};`, { fileName: 'a.ts' });
    assert.match(minified!.code, /html`<span class="optional">/, 'the space is gone once minified');
  });
});
