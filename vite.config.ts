import { defineConfig } from 'vite';

// The browser bundle a partner loads with one script tag. Server code (proxy, sandbox) is not in it:
// test/node/bundle.test.ts fails if a server-side library or a node: import reaches it.
export default defineConfig({
  publicDir: false,
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
    // Library mode leaves ES output unminified for downstream bundlers (vitejs/vite#5451); this
    // bundle goes straight to browsers from a script tag, so the bundler minifies it.
    rolldownOptions: { output: { minify: true } },
  },
});
