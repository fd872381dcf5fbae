/**
 * Minification the bundler does not do, for the browser files: `minifyTemplates` minifies the HTML
 * and CSS inside the elements' `html` and `css` templates (whitespace, comments) with
 * minify-literals, as the bundler's minifier leaves template text as it is; `minifyAgain` runs
 * terser over each chunk the bundler has minified, which finds about 1 % more to leave out
 * (test/node/bundle-budget.test.ts holds the weight).
 */
import { minifyHTMLLiterals } from 'minify-literals';
import { minify } from 'terser';
import type { Plugin } from 'vite';

export function minifyTemplates(): Plugin {
  return {
    name: 'consult-minify-templates',
    apply: 'build',
    async transform(code, id) {
      if (!/\/src\/elements\/.+\.ts$/.test(id)) return null;
      const result = await minifyHTMLLiterals(code, { fileName: id });
      return result ? { code: result.code, map: result.map } : null;
    },
  };
}

const SOURCE_MAP_COMMENT = /\n?\/\/# sourceMappingURL=\S+\s*$/;

/** `module`: the chunks are ES modules (their exports keep their names either way). */
export function minifyAgain({ module }: { module: boolean }): Plugin {
  return {
    name: 'consult-minify-again',
    apply: 'build',
    generateBundle: {
      // After every other plugin has written into the chunks (the loader's chunk graph).
      order: 'post',
      async handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk') continue;
          const mapComment = SOURCE_MAP_COMMENT.exec(chunk.code)?.[0] ?? '';
          const mapAsset = bundle[`${chunk.fileName}.map`];
          const result = await minify(chunk.code.replace(SOURCE_MAP_COMMENT, ''), {
            module,
            ecma: 2020,
            compress: { passes: 2 },
            format: { comments: false },
            // The map from the sources to terser's output, through the bundler's.
            ...(chunk.map && {
              sourceMap: { content: JSON.stringify(chunk.map), includeSources: true, asObject: true },
            }),
          });
          if (result.code === undefined) continue;
          chunk.code = result.code + mapComment;
          if (chunk.map && result.map && typeof result.map === 'object') {
            const map = { ...result.map, file: chunk.map.file };
            Object.assign(chunk.map, map);
            if (mapAsset?.type === 'asset') mapAsset.source = JSON.stringify(map);
          }
        }
      },
    },
  };
}
