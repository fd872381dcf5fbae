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

/**
 * V8's per-file compile hint: a file that starts with it has all its functions compiled while it
 * streams in, on a background thread, rather than each on the main thread the first time it runs
 * (Chromium 136 and later; other engines read a comment). Only for files whose code runs as the
 * page loads, since it compiles what never runs too.
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * `module`: the chunks are ES modules (their exports keep their names either way). `runsOnLoad`:
 * the files that start with {@link COMPILE_HINT}.
 */
export function minifyAgain({
  module,
  runsOnLoad = () => false,
}: {
  module: boolean;
  runsOnLoad?: (fileName: string) => boolean;
}): Plugin {
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
            format: { comments: false, ...(runsOnLoad(chunk.fileName) && { preamble: COMPILE_HINT }) },
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
