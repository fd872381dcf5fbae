/**
 * custom-elements.json is the one source of truth for the elements' public surface: it is current
 * (made again from the JSDoc, it is the same), complete (every registered element, each attribute,
 * property, method, event, slot, part and CSS property described), true to the code (every part
 * and named slot in a template, every CSS property the styles read), and the README's element
 * reference is the one made from it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { promisify } from 'node:util';
import {
  currentReference,
  elementsOf,
  placeholderDescription,
  readManifest,
  renderReference,
  type ElementDeclaration,
} from '../../scripts/element-reference.js';
import { ELEMENTS as LOADERS } from '../../src/define.js';
import { ELEMENT_TAGS, elementModulePath } from '../../src/elements/registry.js';

const root = new URL('../../', import.meta.url);
const manifest = readManifest(new URL('custom-elements.json', root));
const elements = elementsOf(manifest);
const source = (path: string) => readFileSync(new URL(path, root), 'utf8');

/** What every element renders from the shared code: notices, loading and error states. */
const SHARED_TEMPLATES = [
  'src/elements/shared/consult-element.ts',
  'src/elements/shared/error-notice.ts',
  'src/elements/shared/status.ts',
  'src/elements/shared/push-offer.ts',
];

/** Where an element's code is (its class, and the view pieces beside it in its folder) and its styles. */
const elementFiles = (tag: string) => {
  const folder = elementModulePath(tag).replace(/[^/]+$/, '');
  return {
    code: readdirSync(new URL(folder, root))
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.styles.ts'))
      .map((name) => `${folder}${name}`),
    styles: elementModulePath(tag).replace(/\.ts$/, '.styles.ts'),
  };
};

describe('custom-elements.json', () => {
  it('is current: made again from the JSDoc, it is the same', async () => {
    // The analyzer writes under the working directory; node_modules/.cache is never committed.
    const outdir = 'node_modules/.cache/consult-manifest-check';
    await promisify(execFile)('npx', ['cem', 'analyze', '--quiet', '--outdir', outdir], {
      cwd: root,
      timeout: 60_000,
    });
    const fresh = source(`${outdir}/custom-elements.json`);
    rmSync(new URL(outdir, root), { recursive: true, force: true });
    assert.ok(
      fresh === source('custom-elements.json'),
      'custom-elements.json is out of date: run npm run generate',
    );
  });

  it('lists every element of the registry, which the script tag registers, and package.json points to it', () => {
    assert.deepEqual(Object.keys(LOADERS).sort(), [...ELEMENT_TAGS].sort());
    assert.deepEqual([...elements.keys()].sort(), [...ELEMENT_TAGS].sort());
    assert.equal(JSON.parse(source('package.json')).customElements, 'custom-elements.json');
  });

  for (const tag of ELEMENT_TAGS) {
    it(`<${tag}>: everything public has a description`, () => {
      const element = elements.get(tag) as ElementDeclaration;
      assert.ok(element.summary?.trim(), 'a @summary');
      const undescribed = [
        ...(element.attributes ?? []).map((item) => ['attribute', item] as const),
        ...(element.members ?? []).map((item) => [item.kind, item] as const),
        ...(element.events ?? []).map((item) => ['event', item] as const),
        ...(element.slots ?? []).map((item) => ['slot', item] as const),
        ...(element.cssParts ?? []).map((item) => ['part', item] as const),
        ...(element.cssProperties ?? []).map((item) => ['CSS property', item] as const),
      ]
        .filter(([, item]) => !item.description?.trim())
        .map(([kind, item]) => `${kind} ${item.name || '(default)'}`);
      assert.deepEqual(undescribed, []);
    });

    it(`<${tag}>: no description merely repeats the name (such as "lang attribute" or "The form.")`, () => {
      const element = elements.get(tag) as ElementDeclaration;
      const placeholders = [
        ...(element.attributes ?? []).map((item) => ['attribute', item] as const),
        ...(element.members ?? []).map((item) => [item.kind, item] as const),
        ...(element.events ?? []).map((item) => ['event', item] as const),
        ...(element.slots ?? []).map((item) => ['slot', item] as const),
        ...(element.cssParts ?? []).map((item) => ['part', item] as const),
        ...(element.cssProperties ?? []).map((item) => ['CSS property', item] as const),
      ].flatMap(([kind, item]) => {
        // The default slot has no name: its description must still say something.
        const why = placeholderDescription(item.name || 'default slot', item.description);
        return why ? [`${kind} ${item.name || '(default)'}: ${why}`] : [];
      });
      assert.deepEqual(placeholders, []);
    });

    it(`<${tag}>: its parts, slots and CSS properties are the ones the code has`, () => {
      const element = elements.get(tag) as ElementDeclaration;
      const { code, styles } = elementFiles(tag);
      const partsIn = (text: string) =>
        new Set([...text.matchAll(/\bpart="([^"$]+)"/g)].flatMap((m) => (m[1] ?? '').split(/\s+/)));
      const documented = new Set((element.cssParts ?? []).map((part) => part.name));
      // The element's own template, and the shared pieces every element renders (notices, states).
      const own = partsIn(code.map(source).join('\n'));
      const shared = partsIn(SHARED_TEMPLATES.map(source).join('\n'));
      assert.deepEqual(
        [...own].filter((part) => !documented.has(part)),
        [],
        'every part="…" in the template is documented',
      );
      assert.deepEqual(
        [...documented].filter((part) => !own.has(part) && !shared.has(part)),
        [],
        'every documented part is in the template or the shared pieces',
      );
      const template = code.map(source).join('\n');
      const slots = new Set([...template.matchAll(/<slot name="([^"]+)"/g)].map((m) => m[1]));
      const documentedSlots = (element.slots ?? []).map((slot) => slot.name).filter(Boolean);
      assert.deepEqual(
        [...slots].filter((slot) => !documentedSlots.includes(slot ?? '')),
        [],
        'every named slot in the template is documented',
      );
      // A slot may take its name from a value (`<slot name=${kind}>`): the name is still in the code.
      assert.deepEqual(
        documentedSlots.filter((slot) => !template.includes(`"${slot}"`) && !template.includes(`'${slot}'`)),
        [],
        'every documented slot is named in the code',
      );
      const css = source(styles);
      for (const property of element.cssProperties ?? []) {
        assert.ok(css.includes(`var(${property.name}`), `${property.name} is read by the styles`);
      }
    });
  }

  it('is what the README’s element reference says', () => {
    const readme = source('README.md');
    const current = currentReference(readme);
    assert.ok(current !== undefined, 'the README has its element reference markers');
    assert.ok(
      current === renderReference(manifest),
      'the README’s element reference differs from custom-elements.json: run npm run generate',
    );
  });
});
