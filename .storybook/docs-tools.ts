/**
 * What the docs pages show, made from the same sources as the elements: the manifest for the
 * tables, and the rendered story for "Show code", turned into a snippet that works when pasted.
 */

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

const SCRIPT = '<script type="module" src="/assets/consult-elements.js"></script>';

/**
 * "Show code" for a story rendered inside the stories' in-page back end: the loader's script tag
 * and a `<consult-session>` pointed at the proxy, with only the attributes that are set.
 */
export function pasteableSnippet(code: string): string {
  const snippet = code
    .replace(/<!--\?lit\$\d+\$-->|<!---->/g, '')
    .replace(/<consult-session\b[^>]*>/, (tag) => {
      const attributes = [...tag.matchAll(/\s([\w-]+)="([^"]*)"/g)]
        .filter(([, name, value]) => value !== '' && name !== 'endpoint')
        .map(([, name, value]) => ` ${name}="${value}"`);
      return `<consult-session endpoint="/consult"${attributes.join('')}>`;
    })
    .trim();
  return `${SCRIPT}\n\n${snippet}`;
}
