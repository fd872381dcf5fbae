/**
 * What the docs pages show, made from the same sources as the elements: the manifest for the
 * tables, and the rendered story for "Show code", turned into a snippet that works when pasted.
 */

import { ELEMENT_TAGS } from '../src/elements/registry.js';

interface ManifestPart {
  name: string;
  description?: string;
}
interface ManifestDeclaration {
  cssParts?: ManifestPart[];
  [key: string]: unknown;
}
interface Manifest {
  modules?: { declarations?: ManifestDeclaration[] }[];
  [key: string]: unknown;
}

/**
 * The manifest for Storybook's tables. Storybook keys its rows by name across kinds, so a part
 * named like a slot (`emergency`, `empty`) would hide the slot: parts are listed as `::part(name)`,
 * which is also how a stylesheet names them.
 */
export function manifestForDocs<T extends Manifest>(manifest: T): T {
  const copy = structuredClone(manifest);
  for (const module of copy.modules ?? []) {
    for (const declaration of module.declarations ?? []) {
      declaration.cssParts = declaration.cssParts?.map((part) => ({ ...part, name: `::part(${part.name})` }));
    }
  }
  return copy;
}

/** The table categories that are things to read, not settings to change: no controls for them. */
const READ_ONLY = new Set(['events', 'slots', 'css shadow parts', 'css custom properties', 'methods']);

/** Turns off the controls of events, slots, parts, CSS properties and methods. */
export function withoutReadOnlyControls<A extends Record<string, { table?: { category?: string } }>>(
  argTypes: A,
): A {
  return Object.fromEntries(
    Object.entries(argTypes).map(([name, argType]) => [
      name,
      READ_ONLY.has(argType.table?.category ?? '') ? { ...argType, control: false } : argType,
    ]),
  ) as A;
}

export const LOADER_SCRIPT = '<script type="module" src="/assets/consult-elements.js"></script>';

const LOADER = /\s*<script type="module" src="\/assets\/consult-elements\.js"><\/script>\s*/g;
const USES_AN_ELEMENT = new RegExp(`<(${ELEMENT_TAGS.join('|')})[\\s>]`);

/**
 * "Show code" for a story rendered inside the stories' in-page back end: the loader's script tag,
 * once, and a `<consult-session>` pointed at the proxy, with only the attributes that are set. A
 * story that shows none of the elements (the sandbox's) is its HTML alone.
 *
 * Storybook applies the transform twice, once where the story renders and again on the docs page,
 * so it must give the same snippet for its own output: a snippet transformed again is unchanged.
 */
export function pasteableSnippet(code: string): string {
  const snippet = code
    .replace(/<!--\?lit\$\d+\$-->|<!--\??-->/g, '')
    .replace(LOADER, '\n')
    .replace(/<consult-session\b[^>]*>/, (tag) => {
      const attributes = [...tag.matchAll(/\s([\w-]+)="([^"]*)"/g)]
        .filter(([, name, value]) => value !== '' && name !== 'endpoint')
        .map(([, name, value]) => ` ${name}="${value}"`);
      return `<consult-session endpoint="/consult"${attributes.join('')}>`;
    })
    .trim();
  return USES_AN_ELEMENT.test(snippet) ? `${LOADER_SCRIPT}\n\n${snippet}` : snippet;
}
