// Finds the Chromium or Chrome the browser tests drive: CHROME_PATH, else the first one on the PATH.
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];
const MAC = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';

/** @returns {string} */
export function findChromium() {
  if (process.env.CHROME_PATH) return process.env.CHROME_PATH;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of NAMES) {
      const candidate = join(dir, name);
      if (existsSync(candidate)) return candidate;
    }
  }
  if (existsSync(MAC)) return MAC;
  throw new Error(
    'No Chromium or Chrome found for the browser tests. Install one (Debian/Ubuntu: `sudo apt-get install chromium`) ' +
      'or set CHROME_PATH to its executable.',
  );
}

/** Flags for a headless Chromium on CI machines, root included. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
