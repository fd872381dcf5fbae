/**
 * Writes `src/react/index.ts` (`consult-elements/react`) from custom-elements.json: one React
 * component per element of the registry (src/elements/registry.ts), in its order and named after
 * its class, made with @lit/react, each event an `onConsultSubmitted`-style prop typed with its
 * event class. `npm run generate` runs it; test/node/react.test.ts fails when the file and the
 * manifest disagree.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { ELEMENTS, elementModulePath } from '../src/elements/registry.js';
import { elementsOf, readManifest, type Manifest } from './element-reference.js';

export const WRAPPERS_PATH = new URL('../src/react/index.ts', import.meta.url);

/** `consult-form` → `ConsultForm`: the PascalCase of a tag (an element's class and component name). */
export const componentName = (tag: string) =>
  tag.replace(/(^|-)([a-z])/g, (_, __: string, letter: string) => letter.toUpperCase());

/** `consult-submitted` → `onConsultSubmitted`. */
export const eventProp = (event: string) => `on${componentName(event)}`;

/** The module of an element's class, as src/react/index.ts imports it. */
const modulePath = (tag: string) =>
  elementModulePath(tag)
    .replace(/^src\//, '../')
    .replace(/\.ts$/, '.js');

/** The wrappers as the repository keeps them: formatted by its Prettier settings. */
export async function formattedWrappers(manifest: Manifest): Promise<string> {
  const path = fileURLToPath(WRAPPERS_PATH);
  return format(renderWrappers(manifest), { ...(await resolveConfig(path)), filepath: path });
}

export function renderWrappers(manifest: Manifest): string {
  const elements = elementsOf(manifest);
  const imports: string[] = [];
  const components: string[] = [];
  for (const { tag, className: name } of ELEMENTS) {
    const element = elements.get(tag);
    if (!element) throw new Error(`custom-elements.json has no <${tag}>`);
    imports.push(`import { ${name} as ${name}Element } from '${modulePath(tag)}';`);
    const events = (element.events ?? []).map(
      (event) =>
        `    ${eventProp(event.name)}: '${event.name}' as EventName<GlobalEventHandlersEventMap['${event.name}']>,`,
    );
    const summary = (element.summary ?? '').replace(/\s*\n\s*/g, ' ');
    components.push(`/** \`<${tag}>\`: ${summary} */
export const ${name} = createComponent({
  react: React,
  tagName: '${tag}',
  elementClass: ${name}Element,
  events: {
${events.join('\n')}
  },
});`);
  }
  // 'use client' first: a React Server Component (Next.js's App Router) may import and render these;
  // they then render on the server as tags and run in the browser.
  return `'use client';
// Generated from custom-elements.json by \`npm run generate\` (scripts/react-wrappers.ts): do not edit.
/**
 * React components for the elements (\`consult-elements/react\`), made with @lit/react: attributes
 * and properties are props, and each event is an \`on…\` prop (\`onConsultSubmitted\` for
 * \`consult-submitted\`) that receives the typed event. Importing this module registers every
 * element under its own name. They are client components (\`'use client'\`): a Server Component
 * renders them, and the elements come alive in the browser.
 */
import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
// The event types below come from this module's additions to GlobalEventHandlersEventMap: imported
// here, so that the published type declarations carry them for an app that type-checks its libraries.
import '../elements/shared/events.js';
${imports.join('\n')}

${components.join('\n\n')}

for (const [tag, element] of [
${ELEMENTS.map(({ tag, className }) => `  ['${tag}', ${className}Element],`).join('\n')}
] as const) {
  element.define(tag);
}
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(WRAPPERS_PATH, await formattedWrappers(readManifest()));
  console.log('src/react/index.ts: React components written from custom-elements.json');
}
