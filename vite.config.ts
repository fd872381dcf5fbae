import { defineConfig } from 'vite';
import { chunkGraphPlugin } from './scripts/chunk-graph.js';
import { minifyAgain, minifyTemplates } from './scripts/minify-templates.js';

// The browser files a partner serves: the script-tag entry (the loader, with the messaging elements
// and the core they share), a chunk for each other element, one per language other than English, and
// marked + DOMPurify (one chunk) for answers. Server code (proxy, sandbox) is not in them: test/node/bundle.test.ts fails if a server-side
// library or a node: import reaches them, and test/node/bundle-budget.test.ts holds their weight.
/**
 * The modules only the chunks loaded on demand use: the plan's and prescriptions' elements, the
 * languages other than English, marked and DOMPurify, the console's words for a partner's mistakes,
 * and the device's notifications (only where `push-worker` is set).
 */
const ON_DEMAND =
  /[\\/]elements[\\/](consult-access|prescription-request)[\\/]|[\\/]translations[\\/](ar|de|es|fr|nl|en-access|en-prescription)\.ts$|[\\/]node_modules[\\/](marked|dompurify)[\\/]|[\\/]marked-dompurify\.ts$|[\\/]developer-messages\.ts$|[\\/]push[\\/]device\.ts$/;

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
        // The loader carries the messaging elements and all they share: a page that shows them needs
        // the HTML and this one file, two round trips. The group takes every module into the entry's
        // chunk (the loader's own `import()` of one of them then finds it there) except what is only
        // fetched on demand; without it, each element and the code they share would be chunks the
        // loader asks for once it has arrived: a third round trip.
        codeSplitting: {
          groups: [
            {
              name: 'loader',
              test: (id: string) => !ON_DEMAND.test(id),
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
});
