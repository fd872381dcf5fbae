/**
 * Minifies the HTML and CSS inside the elements' `html` and `css` templates (whitespace, comments)
 * for the browser files, with minify-literals: the bundler's minifier leaves template text as it is.
 */
import { minifyHTMLLiterals } from 'minify-literals';
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
