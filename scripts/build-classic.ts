/**
 * The classic-script build, after `vite build`: `dist/browser/consult-elements.classic.js` (every
 * element and the English strings, one file that needs no `import()`),
 * `consult-elements.classic.markdown.js` (marked and DOMPurify, which the first loads beside itself
 * when it first shows an answer), and one `consult-elements.classic.<code>.js` per other language,
 * each a classic script that registers its strings. Part of `npm run build`; test/node/bundle-budget.test.ts holds their weight.
 */
import { build, type Plugin } from 'vite';
import { fileURLToPath } from 'node:url';
import { LANGUAGES } from '../src/elements/shared/localize.js';
import { minifyAgain, minifyTemplates } from './minify-templates.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const OTHER_LANGUAGES = LANGUAGES.filter((code) => code !== 'en');
const DEFAULT_OUT_DIR = 'dist/browser';

/** In the classic file, a language other than English is whatever its own classic script registers. */
const languagesFromTheirOwnFiles: Plugin = {
  name: 'consult-classic-languages',
  enforce: 'pre',
  resolveId(source, importer) {
    // One file holds every element: its English is one table, all of it registered up front.
    if (source.endsWith('translations/en-core.js') && importer?.endsWith('shared/localize.ts'))
      return `${root}src/elements/translations/en.ts`;
    const code = /translations\/([a-z]{2})\.js$/.exec(source)?.[1];
    if (code && code !== 'en' && importer?.endsWith('shared/localize.ts'))
      return `\0classic-language:${code}`;
    return undefined;
  },
  load(id) {
    const code = /^\0classic-language:([a-z]{2})$/.exec(id)?.[1];
    return code ? `export default { $code: ${JSON.stringify(code)} };` : undefined;
  },
};

/** In the classic file, marked and DOMPurify come from a classic file of their own, with the first answer. */
const markdownFromItsOwnFile: Plugin = {
  name: 'consult-classic-markdown',
  enforce: 'pre',
  resolveId(source, importer) {
    if (source.endsWith('/markdown-libraries.js') && importer?.endsWith('shared/markdown.ts'))
      return `${root}src/classic/markdown-libraries.ts`;
    return undefined;
  },
};

/**
 * In the classic file, the code the script-tag build loads as chunks once it is needed (the form's
 * thread, the live stream's parser) is there from the start: `src/classic/` has a module of the same
 * name for each, which answers it at once.
 */
const UP_FRONT = /\/(load-thread|load-stream-parser)\.js$/;
const loadedUpFront: Plugin = {
  name: 'consult-classic-up-front',
  enforce: 'pre',
  resolveId(source, importer) {
    const name = UP_FRONT.exec(source)?.[1];
    if (name && !importer?.includes('/src/classic/')) return `${root}src/classic/${name}.ts`;
    return undefined;
  },
};

/** The entry of one language's classic script. */
const languageEntry = (code: string): Plugin => ({
  name: 'consult-classic-language-entry',
  // Vite makes a library entry a path under the root.
  resolveId: (source) =>
    source.endsWith('virtual:classic-language') ? '\0virtual:classic-language' : undefined,
  load: (id) =>
    id === '\0virtual:classic-language'
      ? `import translation from ${JSON.stringify(`${root}src/elements/translations/${code}.ts`)};
const page = globalThis;
if (page.ConsultElements) page.ConsultElements.registerTranslation(translation);
else (page.ConsultElementsLanguages ??= []).push(translation);`
      : undefined,
});

async function classic(
  outDir: string,
  entry: string,
  fileName: string,
  plugins: Plugin[],
  name?: string,
): Promise<void> {
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    publicDir: false,
    plugins: [
      ...plugins,
      // The main file runs as the page loads: its functions are compiled as it streams in.
      minifyAgain({ module: false, runsOnLoad: (name) => name === 'consult-elements.classic.js' }),
    ],
    build: {
      outDir,
      emptyOutDir: false,
      sourcemap: outDir === DEFAULT_OUT_DIR,
      target: 'es2022',
      lib: { entry, formats: ['iife'], name: name ?? 'ConsultElementsLanguage', fileName: () => fileName },
      rolldownOptions: { output: { minify: true, comments: false } },
    },
  });
}

/** Writes the classic scripts into `outDir` (default `dist/browser`, beside the module build). */
export async function buildClassic(outDir = DEFAULT_OUT_DIR): Promise<void> {
  await classic(
    outDir,
    'src/classic/classic.ts',
    'consult-elements.classic.js',
    [languagesFromTheirOwnFiles, markdownFromItsOwnFile, loadedUpFront, minifyTemplates()],
    'ConsultElements',
  );
  await classic(
    outDir,
    'src/elements/shared/marked-dompurify.ts',
    'consult-elements.classic.markdown.js',
    [],
    'ConsultElementsMarkdown',
  );
  for (const code of OTHER_LANGUAGES) {
    await classic(outDir, 'virtual:classic-language', `consult-elements.classic.${code}.js`, [
      languageEntry(code),
    ]);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildClassic();
  console.log(
    `classic scripts: consult-elements.classic.js, its markdown file and ${OTHER_LANGUAGES.length} languages`,
  );
}
