/**
 * src/elements/registry.ts is the one list of the elements: every element class in a folder of
 * src/elements/ is in it, under its folder's name, and every element in it is in
 * custom-elements.json, with the same class and module; the script-tag loader's table and the
 * types it declares for the tags are the registry's (the types are checked by tsc, below).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { elementsOf, readManifest } from '../../scripts/element-reference.js';
import { ELEMENTS as LOADERS } from '../../src/define.js';
import { ELEMENTS, ELEMENT_TAGS, elementModulePath, type ElementTag } from '../../src/elements/registry.js';
import type * as NpmEntry from '../../src/index.js';

/** The element the registry names for a tag: the class of its `className` in the npm entry. */
type RegisteredElement<Tag extends ElementTag> = InstanceType<
  (typeof NpmEntry)[Extract<(typeof ELEMENTS)[number], { tag: Tag }>['className']]
>;
/** The tags src/define.ts types otherwise than as the registry's class (on `HTMLElementTagNameMap`). */
type Mistyped = {
  [Tag in ElementTag]: [HTMLElementTagNameMap[Tag]] extends [RegisteredElement<Tag>]
    ? [RegisteredElement<Tag>] extends [HTMLElementTagNameMap[Tag]]
      ? never
      : Tag
    : Tag;
}[ElementTag];
/** Fails to type-check when a tag is typed as another class (or not at all). */
const EVERY_TAG_TYPED_AS_ITS_CLASS: [Mistyped] extends [never] ? true : Mistyped = true;

const root = new URL('../../', import.meta.url);
const source = (path: string) => readFileSync(new URL(path, root), 'utf8');

/** The classes an element extends; the ones among them declared in src/elements/ are not elements. */
const ELEMENT_BASES = new Set([
  'HTMLElement',
  'ReactiveElement',
  'LitElement',
  'ConsultElement',
  'SessionElement',
]);

/** An element may also extend another one. */
const REGISTERED = new Set<string>(ELEMENTS.map(({ className }) => className));

interface Found {
  className: string;
  path: string;
}

/** Every element class declared in a folder of src/elements/ (an element's, or any other). */
function elementClasses(): Found[] {
  const found: Found[] = [];
  for (const folder of readdirSync(new URL('src/elements/', root), { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    for (const file of readdirSync(new URL(`src/elements/${folder.name}/`, root))) {
      if (!file.endsWith('.ts') || file.endsWith('.styles.ts')) continue;
      const path = `src/elements/${folder.name}/${file}`;
      for (const [, className, base] of source(path).matchAll(/\bclass\s+(\w+)\s+extends\s+(\w+)/g)) {
        if ((ELEMENT_BASES.has(base!) || REGISTERED.has(base!)) && !ELEMENT_BASES.has(className!))
          found.push({ className: className!, path });
      }
    }
  }
  return found;
}

describe('the element registry', () => {
  it('has every element class of src/elements/, under its folder’s name', () => {
    const found = elementClasses();
    const unregistered = found
      .filter(({ className, path }) =>
        ELEMENTS.every((entry) => entry.className !== className || elementModulePath(entry.tag) !== path),
      )
      .map(({ className, path }) => `${className} (${path})`);
    assert.deepEqual(unregistered, [], 'element classes missing from src/elements/registry.ts');
    // And the search sees the registered ones, so an empty list above means something.
    for (const { tag, className } of ELEMENTS) {
      assert.ok(
        found.some((item) => item.className === className && item.path === elementModulePath(tag)),
        `<${tag}>: ${elementModulePath(tag)} declares the element class ${className}`,
      );
    }
  });

  it('names each tag once, in lower case with a hyphen', () => {
    assert.equal(new Set(ELEMENT_TAGS).size, ELEMENT_TAGS.length);
    for (const tag of ELEMENT_TAGS) assert.match(tag, /^[a-z][a-z0-9]*(-[a-z0-9]+)+$/);
  });

  it('names only elements custom-elements.json has, with their classes and modules, and no fewer', () => {
    const manifest = readManifest(new URL('custom-elements.json', root));
    const described = elementsOf(manifest);
    const modules = new Map(
      manifest.modules.flatMap((module) =>
        (module.declarations ?? []).filter((item) => item.tagName).map((item) => [item.tagName, module.path]),
      ),
    );
    const missing = ELEMENT_TAGS.filter((tag) => !described.has(tag));
    assert.deepEqual(missing, [], 'elements custom-elements.json lacks (npm run generate)');
    for (const { tag, className } of ELEMENTS) {
      assert.equal(described.get(tag)?.name, className, `<${tag}>'s class`);
      assert.equal(modules.get(tag), elementModulePath(tag), `<${tag}>'s module`);
    }
    const unregistered = [...described.keys()].filter((tag) => !(ELEMENT_TAGS as string[]).includes(tag));
    assert.deepEqual(unregistered, [], 'elements in custom-elements.json that the registry lacks');
  });

  it('is what the script-tag loader registers: each tag loads its class, and is typed as it', async () => {
    assert.deepEqual(Object.keys(LOADERS), [...ELEMENT_TAGS], 'the loader’s table, in the registry’s order');
    for (const { tag, className } of ELEMENTS) {
      const element = await LOADERS[tag]!();
      assert.equal(element.name, className, `<${tag}> loads ${className}`);
    }
    // The types come from the loaders' table, not from a list typed out beside it.
    assert.match(source('src/define.ts'), /interface HTMLElementTagNameMap extends LoadedElements \{\}/);
    assert.equal(EVERY_TAG_TYPED_AS_ITS_CLASS, true, 'HTMLElementTagNameMap (npx tsc)');
  });
});
