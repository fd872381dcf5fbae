/**
 * Time to typeable: how long after navigation a member can type into `<consult-form>`, against the
 * same page with a plain `<textarea>` instead of the elements. The built browser files, the real
 * proxy and the sandbox run on loopback; Chromium loads each page 12 times, interleaved.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { startProxyServer } from '../src/proxy/node.js';
import { startSandboxServer } from '../src/sandbox/node.js';
import { CHROMIUM_ARGS, findChromium } from '../scripts/find-chromium.mjs';

const RUNS = 12;

const page = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title>${head}</head><body>${body}</body></html>`;

const WITH_ELEMENTS = page(
  '<consult-session endpoint="/consult"><consult-form></consult-form></consult-session>',
  '<script type="module" src="/assets/consult-elements.js"></script>',
);
const WITHOUT_ELEMENTS = page(
  '<form><label>Your question <textarea></textarea></label><button>Send</button></form>',
);

/** performance.now() at the first frame where a textarea that takes input is on the page. */
const typeableAt = () => {
  const form = document.querySelector('consult-form');
  const box = (form?.shadowRoot ?? document).querySelector('textarea');
  return box && !box.disabled && !box.readOnly && box.getBoundingClientRect().height > 0
    ? performance.now()
    : 0;
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

export async function timeToTypeable(): Promise<void> {
  const outDir = mkdtempSync(join(tmpdir(), 'consult-bench-'));
  await build({ configFile: 'vite.config.ts', logLevel: 'silent', build: { outDir, sourcemap: false } });
  const sandbox = await startSandboxServer({ port: 0, professionals: { mode: 'manual' } });
  const proxy = await startProxyServer({
    upstreamUrl: sandbox.url,
    apiKey: sandbox.sandbox.apiKeys[0] ?? 'sandbox-api-key',
    sessionSecret: 'bench-session-secret-0123456789abcdef0123456789abcdef',
    // The bench's member is always signed in, as on a portal page after sign-in.
    authenticate: async () => ({ uniqueId: 'alex' }),
    port: 0,
    logger: () => undefined,
    extend: (app) => {
      // The built files, as a static host serves them.
      app.get('/assets/*', async (c) => {
        const file = c.req.path.slice('/assets/'.length);
        if (!/^[\w-]+(\/[\w.-]+)*\.js$/.test(file)) return c.notFound();
        const body = await readFile(join(outDir, file)).catch(() => undefined);
        return body ? c.body(body, 200, { 'content-type': 'text/javascript' }) : c.notFound();
      });
      app.get('/with-elements', (c) => c.html(WITH_ELEMENTS));
      app.get('/without-elements', (c) => c.html(WITHOUT_ELEMENTS));
    },
  });
  const browser = await chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const times: Record<'with' | 'without', number[]> = { with: [], without: [] };
    for (let run = 0; run < RUNS; run++) {
      for (const kind of ['with', 'without'] as const) {
        // A fresh context each time: nothing cached, as on a member's first visit.
        const context = await browser.newContext();
        const tab = await context.newPage();
        await tab.goto(`${proxy.url}/${kind}-elements`);
        const handle = await tab.waitForFunction(typeableAt, null, { polling: 'raf', timeout: 15_000 });
        times[kind].push((await handle.jsonValue()) as number);
        await context.close();
      }
    }
    const withElements = median(times.with);
    const without = median(times.without);
    console.log('Time to typeable (Chromium, 12 interleaved loads each, medians)');
    console.log(
      `  plain <textarea> page                                    ${without.toFixed(0).padStart(7)} ms`,
    );
    console.log(
      `  <consult-form> in <consult-session>                      ${withElements.toFixed(0).padStart(7)} ms`,
    );
    console.log(`  consult-form / plain textarea: ${(withElements / without).toFixed(2)}×`);
  } finally {
    await browser.close();
    await proxy.close();
    await sandbox.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}
