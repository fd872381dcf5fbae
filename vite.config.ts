import { defineConfig } from 'vite';
import { chunkGraphPlugin } from './scripts/chunk-graph.js';
import { minifyAgain, minifyTemplates } from './scripts/minify-templates.js';

// The browser files a partner serves: the script-tag entry (the loader, with the session, the question
// form and the core they share), one chunk with the other messaging elements, a chunk for each of
// the plan's and prescriptions' elements, one per language other than English, and marked + DOMPurify
// (one chunk) for answers. Server code (proxy, sandbox) is not in them: test/node/bundle.test.ts fails
// if a server-side library or a node: import reaches them, and test/node/bundle-budget.test.ts holds
// their weight.

/**
 * The other messaging elements, in one chunk: `<consult-thread>`, `<case-history>` and
 * `<navigator-chat>`, with their English, what only they share (answers' markdown, links) and the
 * live stream's parser. One chunk, not three: a page showing one of them mostly shows another, and
 * one file compresses better. The loader asks for it as it finds one of their tags, beside sign-in
 * (what they show needs the member's read after sign-in anyway), and the form when the page is idle
 * after it is registered, for the thread it shows once a question is sent.
 */
const MESSAGING =
  /[\\/]elements[\\/](case-history|consult-thread|navigator-chat)[\\/]|[\\/]shared[\\/](clock|keep-in-place|links|markdown|markdown-libraries|shorten)\.ts$|[\\/]translations[\\/](en-history|en-navigator|en-thread)\.ts$|[\\/]node_modules[\\/]eventsource-parser[\\/]/;

/**
 * The modules only the other chunks loaded on demand use: the plan's and prescriptions' elements
 * with their English, the languages other than English, marked and DOMPurify, the console's words
 * for a partner's mistakes, and the device's notifications (only where `push-worker` is set).
 */
const ON_DEMAND =
  /[\\/]elements[\\/](consult-access|prescription-request)[\\/]|[\\/]translations[\\/](ar|de|es|fr|nl|en-access|en-prescription)\.ts$|[\\/]node_modules[\\/](marked|dompurify)[\\/]|[\\/]marked-dompurify\.ts$|[\\/]developer-messages\.ts$|[\\/]push[\\/]device\.ts$/;

export default defineConfig({
  publicDir: false,
  plugins: [
    minifyTemplates(),
    chunkGraphPlugin(),
    // The loader runs as the page loads: its functions are compiled as it streams in.
    minifyAgain({ module: true, runsOnLoad: (fileName) => fileName === 'consult-elements.js' }),
  ],
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
        // The loader carries the question form, the session and all they share: a page with the form
        // is typeable after the HTML and this one file, two round trips. The group takes every module
        // into the entry's chunk (the loader's own `import()` of one of them then finds it there)
        // except the messaging chunk's and what is only fetched on demand; without it, the form and
        // the code it shares would be chunks the loader asks for once it has arrived: a third round
        // trip. The runtime's helpers stay in the loader (it has the higher priority), so it imports
        // nothing.
        codeSplitting: {
          groups: [
            {
              name: 'loader',
              test: (id: string) => !ON_DEMAND.test(id) && !MESSAGING.test(id),
              includeDependenciesRecursively: false,
              priority: 2,
            },
            {
              name: 'messaging',
              test: (id: string) => MESSAGING.test(id),
              includeDependenciesRecursively: false,
              priority: 1,
            },
          ],
        },
      },
    },
  },
});
