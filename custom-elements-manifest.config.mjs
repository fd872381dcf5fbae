// `npm run manifest` writes custom-elements.json from the elements' JSDoc: the one source of truth
// for their attributes, properties, methods, events, slots, parts and CSS properties. The README's
// element reference and Storybook's controls are made from it, and test/node/manifest.test.ts
// fails when it is out of date or anything public in it has no description.

/** Only what a partner uses: no private, protected or static members, nothing marked @internal. */
function publicApiOnly() {
  return {
    name: 'public-api-only',
    packageLinkPhase({ customElementsManifest }) {
      for (const module of customElementsManifest.modules) {
        for (const declaration of module.declarations ?? []) {
          if (!declaration.members) continue;
          declaration.members = declaration.members.filter(
            (member) =>
              !member.static &&
              member.privacy !== 'private' &&
              member.privacy !== 'protected' &&
              !member.name.startsWith('#') &&
              !member.name.startsWith('_'),
          );
        }
      }
    },
  };
}

/** Modules in path order: the analyzer reads files in whatever order they come, and the file must not change with it. */
function stableOrder() {
  return {
    name: 'stable-order',
    packageLinkPhase({ customElementsManifest }) {
      customElementsManifest.modules.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    },
  };
}

export default {
  globs: ['src/elements/**/*.ts'],
  // The registry is the list of elements (their tags and classes), not a part of any one's surface.
  exclude: ['src/elements/**/*.styles.ts', 'src/elements/translations/**', 'src/elements/registry.ts'],
  outdir: '.',
  litelement: true,
  dependencies: false,
  // package.json names it already (`customElements`); the analyzer must not rewrite it.
  packagejson: false,
  plugins: [publicApiOnly(), stableOrder()],
};
