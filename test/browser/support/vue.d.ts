// Vue's browser build (runtime and template compiler in one ES module, no bundler needed): the
// same API as the package's main entry, whose types it has.
declare module 'vue/dist/vue.esm-browser.js' {
  export * from 'vue';
}
