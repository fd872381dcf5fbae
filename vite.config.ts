import { defineConfig } from 'vite';
import { minifyTemplates } from './scripts/minify-templates.js';

// The browser files a partner serves: the script-tag entry (a small loader), one chunk per element,
// the shared core, one chunk per language other than English, and marked + DOMPurify for answers.
// Server code (proxy, sandbox) is not in them: test/node/bundle.test.ts fails if a server-side
// library or a node: import reaches them, and test/node/bundle-budget.test.ts holds their weight.
export default defineConfig({
  publicDir: false,
  plugins: [minifyTemplates()],
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
      output: {
        // Library mode leaves ES output unminified for downstream bundlers (vitejs/vite#5451); these
        // files go straight to browsers, so the bundler minifies them.
        minify: true,
        // Chunks load relative to the entry, so the folder can be served from any path.
        chunkFileNames: 'chunks/[name]-[hash].js',
        // One core chunk for what every element shares (Lit, the base class, the session, the
        // client), rather than many small ones that each cost a request and compress worse.
        codeSplitting: {
          groups: [
            {
              name: 'strings',
              test: /src\/(version\.ts|trusted-types-message\.ts|elements\/shared\/localize\.ts|elements\/translations\/en\.ts)/,
            },
            {
              name: 'core',
              test: /node_modules\/(lit|lit-html|lit-element|@lit|eventsource-parser)\/|src\/(client|session|elements\/shared)\//,
            },
          ],
        },
      },
    },
  },
});
