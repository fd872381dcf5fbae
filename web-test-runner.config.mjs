// Browser tests in real Chromium: Web Test Runner driving the system's Chromium through Playwright.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { buildSync } from 'esbuild';
import { CHROMIUM_ARGS, findChromium } from './scripts/find-chromium.mjs';
import { accessibilityTreePlugin } from './test/browser/support/accessibility-tree.mjs';

/**
 * The in-page demo backend runs the proxy, whose webhook verification (standardwebhooks) is
 * CommonJS. The dev server cannot serve its named exports (modernweb-dev/web#2386), so it gets an
 * ESM build of the package, made by esbuild from a re-export.
 */
function commonJsAsEsm(packages) {
  const prefix = '/__esm__/';
  return {
    name: 'commonjs-as-esm',
    resolveImport({ source }) {
      if (packages[source]) return `${prefix}${source}.js`;
    },
    serve(context) {
      if (!context.path.startsWith(prefix)) return;
      const name = context.path.slice(prefix.length, -'.js'.length);
      const result = buildSync({
        stdin: {
          contents: `export { ${packages[name].join(', ')} } from '${name}';`,
          resolveDir: process.cwd(),
        },
        bundle: true,
        format: 'esm',
        platform: 'browser',
        write: false,
      });
      return { body: result.outputFiles[0].text, type: 'js' };
    },
  };
}

export default {
  files: ['test/browser/**/*.test.ts'],
  nodeResolve: { exportConditions: ['browser', 'development'] },
  plugins: [
    commonJsAsEsm({ standardwebhooks: ['Webhook', 'WebhookVerificationError'] }),
    esbuildPlugin({ ts: true, target: 'auto', tsconfig: './tsconfig.json' }),
    accessibilityTreePlugin(),
  ],
  concurrency: 2,
  testFramework: { config: { timeout: 10000 } },
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: { executablePath: findChromium(), headless: true, args: CHROMIUM_ARGS },
    }),
  ],
};
