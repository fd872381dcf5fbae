// Browser tests in real Chromium: Web Test Runner driving the system's Chromium through Playwright.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** CHROME_PATH, or the first Chromium or Chrome on the PATH. */
function findChromium() {
  if (process.env.CHROME_PATH) return process.env.CHROME_PATH;
  const names = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of names) {
      const candidate = join(dir, name);
      if (existsSync(candidate)) return candidate;
    }
  }
  const mac = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
  if (existsSync(mac)) return mac;
  throw new Error(
    'No Chromium or Chrome found for the browser tests. Install one (Debian/Ubuntu: `sudo apt-get install chromium`) ' +
      'or set CHROME_PATH to its executable.',
  );
}

export default {
  files: ['test/browser/**/*.test.ts'],
  nodeResolve: { exportConditions: ['browser', 'development'] },
  plugins: [esbuildPlugin({ ts: true, target: 'auto', tsconfig: './tsconfig.json' })],
  concurrency: 2,
  testFramework: { config: { timeout: 10000 } },
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: {
        executablePath: findChromium(),
        headless: true,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      },
    }),
  ],
};
