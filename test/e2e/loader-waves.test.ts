/**
 * End to end: the script-tag loader asks for an element's whole chunk graph at once. The built
 * files are served each 300 ms late, like a far-away server, and a page with `<consult-form>`
 * inside `<consult-session>` loads in Chromium. Every chunk the page needs is asked for before
 * any chunk has arrived: after the page, the loader and one parallel wave, two round trips.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';
import { startScriptTagPortal, type ScriptTagPortal } from '../../scripts/script-tag-portal.js';

const DELAY_MS = 300;
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ask</title>
<script type="module" src="/assets/consult-elements.js"></script></head>
<body><consult-session endpoint="/consult"><consult-form></consult-form></consult-session></body></html>`;

describe('the script-tag loader', () => {
  let portal: ScriptTagPortal;
  let browser: Browser;

  before(async () => {
    portal = await startScriptTagPortal({ '/ask': PAGE }, { assetDelayMs: DELAY_MS });
    browser = await chromium.launch({ executablePath: findChromium(), headless: true, args: CHROMIUM_ARGS });
  });

  after(async () => {
    await browser?.close();
    await portal?.close();
  });

  it('asks for every chunk of the page’s elements in one wave, none after another has arrived', async () => {
    const page = await browser.newPage();
    const asked = new Map<string, number>();
    const arrived = new Map<string, number>();
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/assets/')) asked.set(path, performance.now());
    });
    page.on('requestfinished', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/assets/')) arrived.set(path, performance.now());
    });
    await page.goto(`${portal.url}/ask`);
    await page.locator('consult-form textarea').first().waitFor({ timeout: 20_000 });

    const loader = '/assets/consult-elements.js';
    const chunks = [...asked.keys()].filter((path) => path !== loader);
    for (const name of ['consult-session', 'consult-form', 'consult-thread', 'core']) {
      assert.ok(
        chunks.some((path) => path.startsWith(`/assets/chunks/${name}-`)),
        `${name} was loaded: ${chunks.join(', ')}`,
      );
    }
    // Nothing else comes before the textarea: the markdown renderer and the console's words wait.
    assert.ok(!chunks.some((path) => /marked|purify|developer-messages/.test(path)), chunks.join(', '));
    const firstChunkArrived = Math.min(...chunks.map((path) => arrived.get(path) ?? Infinity));
    const late = chunks.filter((path) => (asked.get(path) ?? Infinity) >= firstChunkArrived);
    assert.deepEqual(late, [], 'no chunk is asked for only after another chunk has arrived');
    // And the wave starts once the loader is here, not a round trip later.
    const loaderArrived = arrived.get(loader) ?? 0;
    for (const path of chunks) {
      assert.ok(
        (asked.get(path) ?? 0) - loaderArrived < DELAY_MS,
        `${path} asked for with the loader's arrival`,
      );
    }
    await page.close();
  });
});
