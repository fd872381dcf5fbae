/**
 * End to end: the script-tag loader asks for an element's whole chunk graph at once. The built
 * files are served each 300 ms late, like a far-away server, and a page with `<consult-form>`
 * inside `<consult-session>` loads in Chromium. Every chunk the page needs is asked for before
 * any chunk has arrived: the page is typeable after three round trips, the HTML counted (HTML →
 * loader → one parallel wave of chunks), and after two with the classic script (HTML → script).
 * Sign-in starts with that wave and typing never waits for it, and the first frame makes none of
 * the browser's Intl formatters (the first one loads ICU data: a long task before the box paints).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';
import { ROUND_TRIPS_IN_PAGE, type RoundTrips } from '../../scripts/round-trips.js';
import { startScriptTagPortal, type ScriptTagPortal } from '../../scripts/script-tag-portal.js';

const DELAY_MS = 300;
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ask</title>
<script type="module" src="/assets/consult-elements.js"></script></head>
<body><consult-session endpoint="/consult"><consult-form></consult-form></consult-session></body></html>`;
const CLASSIC_PAGE = PAGE.replace(
  '<script type="module" src="/assets/consult-elements.js"></script>',
  '<script src="/assets/consult-elements.classic.js" defer></script>',
);

describe('the script-tag loader', () => {
  let portal: ScriptTagPortal;
  let browser: Browser;

  before(async () => {
    portal = await startScriptTagPortal(
      { '/ask': PAGE, '/ask-classic': CLASSIC_PAGE },
      { assetDelayMs: DELAY_MS, classic: true },
    );
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

  /** The page's round trips (scripts/round-trips.ts) at the first frame its question box takes text. */
  async function roundTripsToTypeable(path: string): Promise<RoundTrips> {
    const page = await browser.newPage();
    await page.goto(`${portal.url}${path}`);
    const counted = await page.waitForFunction(
      `(() => {
        const box = document.querySelector('consult-form')?.shadowRoot?.querySelector('textarea');
        if (!box || box.disabled || box.getBoundingClientRect().height === 0) return undefined;
        return ${ROUND_TRIPS_IN_PAGE};
      })()`,
      null,
      { polling: 'raf', timeout: 20_000 },
    );
    const roundTrips = (await counted.jsonValue()) as RoundTrips;
    await page.close();
    return roundTrips;
  }

  it('is typeable after three round trips, the HTML counted (HTML → loader → chunks); the classic script after two', async () => {
    const module = await roundTripsToTypeable('/ask');
    // A ratchet at today's count: one more round trip fails; lower it when the chunks come with the loader.
    assert.ok(module.roundTrips <= 3, `module loader: ${JSON.stringify(module.files)}`);
    assert.deepEqual(
      module.files.filter((file) => file.wave <= 2).map((file) => file.path),
      ['/ask', '/assets/consult-elements.js'],
      'the HTML, then the loader alone',
    );
    const classic = await roundTripsToTypeable('/ask-classic');
    assert.equal(classic.roundTrips, 2, `classic script: ${JSON.stringify(classic.files)}`);
  });

  it('starts sign-in with that wave, and the member can type while it is still on its way', async () => {
    const page = await browser.newPage();
    const arrived: number[] = [];
    page.on('requestfinished', (request) => {
      if (new URL(request.url()).pathname.startsWith('/assets/chunks/')) arrived.push(performance.now());
    });
    // Sign-in is held until the member has typed.
    let askedSignIn = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/consult/session', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      askedSignIn = performance.now();
      await released;
      await route.continue();
    });
    await page.goto(`${portal.url}/ask`);
    const box = page.locator('consult-form textarea').first();
    await box.waitFor({ timeout: 20_000 });
    await box.pressSequentially('A rash on my arm since Tuesday');
    assert.equal(await box.inputValue(), 'A rash on my arm since Tuesday', 'typed before sign-in answered');
    assert.ok(askedSignIn > 0, 'sign-in was asked for');
    assert.ok(
      askedSignIn - Math.max(...arrived) < DELAY_MS,
      'sign-in was asked for as the chunks arrived, not a round trip later',
    );
    release();
    // Signed in, the plan checked: what the member typed is still there.
    await page.waitForResponse((response) => response.url().endsWith('/consult/session'));
    await page.waitForTimeout(300);
    assert.equal(await box.inputValue(), 'A rash on my arm since Tuesday');
    await page.close();
  });

  it('makes no Intl formatter before the question box is on screen', async () => {
    const page = await browser.newPage();
    // Each formatter the page makes, and when; and the frame the box is first there to type in.
    await page.addInitScript(() => {
      const made: string[] = [];
      Object.assign(window, { __formattersMade: made });
      for (const name of [
        'NumberFormat',
        'DateTimeFormat',
        'RelativeTimeFormat',
        'ListFormat',
        'DisplayNames',
        'PluralRules',
      ] as const) {
        const Original = Intl[name] as unknown as new (...args: unknown[]) => object;
        Object.defineProperty(Intl, name, {
          configurable: true,
          value: new Proxy(Original, {
            construct(target, args: unknown[]) {
              made.push(name);
              return new target(...args) as object;
            },
          }),
        });
      }
    });
    await page.goto(`${portal.url}/ask`);
    const madeBeforeTypeable = await page.waitForFunction(
      () => {
        const box = document.querySelector('consult-form')?.shadowRoot?.querySelector('textarea');
        if (!box || box.getBoundingClientRect().height === 0) return undefined;
        return [...(window as unknown as { __formattersMade: string[] }).__formattersMade];
      },
      null,
      { polling: 'raf', timeout: 20_000 },
    );
    const made = (await madeBeforeTypeable.jsonValue()) as string[];
    // PluralRules is cheap (the counter's "questions" needs it); the others load ICU data.
    assert.deepEqual(
      made.filter((name) => name !== 'PluralRules'),
      [],
      `formatters made before the box was typeable: ${made.join(', ')}`,
    );
    // The counter still reads right once shown.
    await page.waitForFunction(() =>
      /1 of 3 questions/.test(document.querySelector('consult-form')?.shadowRoot?.textContent ?? ''),
    );
    await page.close();
  });

  it('registers the elements found together in one moment: the page draws them in one frame', async () => {
    const page = await browser.newPage();
    // One chunk of the wave comes late; the elements wait for it together, none is drawn alone.
    await page.route('**/assets/chunks/consult-thread-*.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    // Plain script: the frames counted from the page's start, and the frame each element was defined in.
    await page.addInitScript(`
      let frame = 0;
      requestAnimationFrame(function count() {
        frame++;
        requestAnimationFrame(count);
      });
      window.__definedInFrame = {};
      for (const tag of ['consult-session', 'consult-form'])
        customElements.whenDefined(tag).then(() => (window.__definedInFrame[tag] = frame));
    `);
    await page.goto(`${portal.url}/ask`);
    await page.locator('consult-form textarea').first().waitFor({ timeout: 20_000 });
    const defined = await page.evaluate(
      () => (window as unknown as { __definedInFrame: Record<string, number> }).__definedInFrame,
    );
    assert.ok(
      defined['consult-session'] !== undefined && defined['consult-form'] !== undefined,
      JSON.stringify(defined),
    );
    assert.equal(defined['consult-session'], defined['consult-form'], 'defined in the same frame');
    await page.close();
  });
});
