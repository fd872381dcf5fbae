import { defineConfig } from 'vite';
import { chunkGraphPlugin } from './scripts/chunk-graph.js';
import { minifyAgain, minifyTemplates } from './scripts/minify-templates.js';

// The browser files a partner serves: the script-tag entry (a small loader), one chunk per element,
// the shared core, one chunk per language other than English, and marked + DOMPurify (one chunk) for answers.
// Server code (proxy, sandbox) is not in them: test/node/bundle.test.ts fails if a server-side
// library or a node: import reaches them, and test/node/bundle-budget.test.ts holds their weight.
export default defineConfig({
  publicDir: false,
  plugins: [minifyTemplates(), chunkGraphPlugin(), minifyAgain({ module: true })],
  build: {
    outDir: 'dist/browser',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    lib: {
      entry: 'src/define.ts',
      formats: ['es'],
      fileName: () => 'consult-elements.js',
    },
    rolldownOptions: {
      // The loader may gain exports for the chunks that use the modules it carries (the strings).
      preserveEntrySignatures: 'allow-extension',
      output: {
        // Library mode leaves ES output unminified for downstream bundlers (vitejs/vite#5451); these
        // files go straight to browsers, so the bundler minifies them.
        minify: true,
        // `@__PURE__` and other notes are for a bundler downstream; browsers only download them.
        comments: false,
        // Chunks load relative to the entry, so the folder can be served from any path.
        chunkFileNames: 'chunks/[name]-[hash].js',
        // One core chunk for what every element shares (Lit, the base class, the session, the
        // client), rather than many small ones that each cost a request and compress worse. The
        // loader carries the English strings itself and imports nothing, so it starts every chunk
        // of an element at once (scripts/chunk-graph.ts): two round trips after the page.
        codeSplitting: {
          groups: [
            {
              name: 'core',
              // Only what it names: the strings and their localize stay with the loader, which reads
              // them first; marked and DOMPurify are a chunk of their own, loaded with the first answer.
              test: (id: string) =>
                /node_modules\/(lit|lit-html|lit-element|@lit)\/|@oxc-project\+runtime@|src\/(client|session|elements\/shared)\//.test(
                  id,
                ) && !/\/elements\/shared\/(localize|marked-dompurify)\.ts$/.test(id),
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
});
