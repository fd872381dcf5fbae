/**
 * End to end: the script-tag loader carries the session and the question form, and asks for the
 * whole chunk graph of any other element at once; the form asks for its thread's once the page is
 * idle, shows a question sent before it is here as sent, and says so if it cannot be loaded. The built files are served each 300 ms
 * late, like a far-away server, and a page with `<consult-form>` inside `<consult-session>` loads in
 * Chromium: it is typeable after two round trips, the HTML counted (HTML → loader), as with the
 * classic script (HTML → script), and still on a page that also shows the list and the navigator,
 * whose chunks come beside sign-in. Sign-in starts as the loader runs and typing never waits for it;
 * a thread shows its answer, and the list its rows, three round trips after the HTML (loader →
 * sign-in and the list's chunk → the read); the first frame makes
 * none of the browser's Intl formatters (the first one loads ICU data: a long task before the box
 * paints), while a list's or a thread's page loads the date data as it waits for sign-in; a page
 * with the plan's and prescriptions' elements asks for their chunks in one wave.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';
import {
  ROUND_TRIPS_IN_PAGE,
  ROUND_TRIPS_WITH_API_IN_PAGE,
  type RoundTrips,
} from '../../scripts/round-trips.js';
import { answeredConsultationOfAlex } from './support/answered-consultation.js';
import { formCanSend } from './support/form-can-send.js';
import { startScriptTagPortal, type ScriptTagPortal } from '../../scripts/script-tag-portal.js';

const DELAY_MS = 300;
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ask</title>
<script type="module" src="/assets/consult-elements.js"></script></head>
<body><consult-session endpoint="/consult"><consult-form></consult-form></consult-session></body></html>`;
const CLASSIC_PAGE = PAGE.replace(
  '<script type="module" src="/assets/consult-elements.js"></script>',
  '<script src="/assets/consult-elements.classic.js" defer></script>',
);
/** The elements that are chunks of their own, beside one the loader carries. */
const PLAN_PAGE = PAGE.replace(
  '<consult-form></consult-form>',
  '<consult-form></consult-form><consult-access></consult-access><prescription-request></prescription-request>',
);
/** The member's consultations, on a page of their own. */
const HISTORY_PAGE = PAGE.replace('<consult-form></consult-form>', '<case-history></case-history>');
/** The question form beside the list and the navigator, whose code is in chunks of their own. */
const MIXED_PAGE = PAGE.replace(
  '<consult-form></consult-form>',
  '<consult-form></consult-form><case-history></case-history><navigator-chat></navigator-chat>',
);
/** A consultation with an answer, shown on a page of its own. */
const ANSWER = 'Rest well and drink water.';
let answeredId = '';
const ANSWER_PAGE = () =>
  PAGE.replace(
    '<consult-form></consult-form>',
    `<consult-thread consultation-id="${answeredId}"></consult-thread>`,
  );

describe('the script-tag loader', () => {
  let portal: ScriptTagPortal;
  let browser: Browser;

  before(async () => {
    portal = await startScriptTagPortal(
      {
        '/ask': PAGE,
        '/ask-classic': CLASSIC_PAGE,
        '/plan': PLAN_PAGE,
        '/answer': ANSWER_PAGE,
        '/history': HISTORY_PAGE,
        '/mixed': MIXED_PAGE,
      },
      { assetDelayMs: DELAY_MS, classic: true },
    );
    answeredId = await answeredConsultationOfAlex(portal.sandbox.url, ANSWER);
    browser = await chromium.launch({ executablePath: findChromium(), headless: true, args: CHROMIUM_ARGS });
  });

  after(async () => {
    await browser?.close();
    await portal?.close();
  });

  /** What the page asks for under /assets/ and when each is asked for and arrives, in Node's clock. */
  function watchAssets(page: Page) {
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
    return { asked, arrived };
  }

  const LOADER = '/assets/consult-elements.js';

  it('needs nothing but the loader for the question form, and asks for its thread’s chunk once the box is there', async () => {
    const page = await browser.newPage();
    const { asked } = watchAssets(page);
    // In the page's own clock, checked at every frame from its start: when the box was first there.
    await page.addInitScript(`requestAnimationFrame(function check() {
      const box = document.querySelector('consult-form')?.shadowRoot?.querySelector('textarea');
      if (box && box.getBoundingClientRect().height > 0) window.__typeableAt = performance.now();
      else requestAnimationFrame(check);
    })`);
    await page.goto(`${portal.url}/ask`);
    const typeableAt = await page.waitForFunction(
      () => (window as unknown as { __typeableAt?: number }).__typeableAt,
      null,
      { timeout: 20_000 },
    );
    const at = (await typeableAt.jsonValue()) as number;
    // The thread's chunk, for the thread the form shows once a question is sent, comes at idle.
    const messaging = await page.waitForFunction(
      () =>
        performance
          .getEntriesByType('resource')
          .find((entry) => /\/assets\/chunks\/messaging-/.test(entry.name))?.startTime,
      null,
      { timeout: 20_000 },
    );
    const askedAt = (await messaging.jsonValue()) as number;
    assert.ok(
      askedAt >= at,
      `the thread's chunk was asked for at ${askedAt} ms, the box was there at ${at} ms`,
    );
    // The markdown renderer and the console's words wait too.
    assert.deepEqual(
      [...asked.keys()].filter((path) => !path.startsWith('/assets/chunks/messaging-')),
      [LOADER],
    );
    await page.close();
  });

  it('asks for every chunk of the other elements in one wave as the loader arrives, none after another has arrived', async () => {
    const page = await browser.newPage();
    const { asked, arrived } = watchAssets(page);
    await page.goto(`${portal.url}/plan`);
    await page.waitForFunction(
      () =>
        Promise.all(
          ['consult-access', 'prescription-request'].map((tag) => customElements.whenDefined(tag)),
        ).then(() => true),
      null,
      { timeout: 20_000 },
    );
    // The form's thread comes at idle, after its first render: not part of the wave.
    const chunks = [...asked.keys()].filter(
      (path) => path !== LOADER && !path.startsWith('/assets/chunks/messaging-'),
    );
    for (const name of ['consult-access', 'prescription-request']) {
      assert.ok(
        chunks.some((path) => path.startsWith(`/assets/chunks/${name}-`)),
        `${name} was loaded: ${chunks.join(', ')}`,
      );
    }
    assert.ok(!chunks.some((path) => /marked|purify|developer-messages/.test(path)), chunks.join(', '));
    const firstChunkArrived = Math.min(...chunks.map((path) => arrived.get(path) ?? Infinity));
    const late = chunks.filter((path) => (asked.get(path) ?? Infinity) >= firstChunkArrived);
    assert.deepEqual(late, [], 'no chunk is asked for only after another chunk has arrived');
    // And the wave starts once the loader is here, not a round trip later (after sign-in, say):
    // counted in the page's own clock, its calls included, every chunk is one round trip after the
    // loader (HTML → loader → chunks).
    const { files } = (await page.evaluate(ROUND_TRIPS_WITH_API_IN_PAGE)) as RoundTrips;
    const waves = new Map(files.map(({ path, wave }) => [path, wave]));
    assert.equal(waves.get(LOADER), 2, JSON.stringify(files));
    for (const path of chunks) assert.equal(waves.get(path), 3, `${path}: ${JSON.stringify(files)}`);
    await page.close();
  });

  /**
   * The page's round trips (scripts/round-trips.ts), counted in the page at the first frame where
   * `condition` (a plain-script expression) holds. The check runs frame by frame from the page's
   * start, as an init script: a poller of the test driver's starts only after the load event and
   * a round trip to Node, and on a busy machine it could see files that arrived after that frame
   * (the thread's chunk, fetched at idle once the box is there).
   */
  async function roundTripsWhen(path: string, condition: string, counted: string): Promise<RoundTrips> {
    const page = await browser.newPage();
    await page.addInitScript(`requestAnimationFrame(function check() {
      if (${condition}) window.__roundTrips = ${counted};
      else requestAnimationFrame(check);
    })`);
    await page.goto(`${portal.url}${path}`);
    const roundTrips = await page.waitForFunction(
      () => (window as unknown as { __roundTrips?: RoundTrips }).__roundTrips,
      null,
      { timeout: 20_000 },
    );
    const value = (await roundTrips.jsonValue()) as RoundTrips;
    await page.close();
    return value;
  }

  /** The page's round trips, its own files only, at the first frame its question box takes text. */
  const roundTripsToTypeable = (path: string) =>
    roundTripsWhen(
      path,
      `(() => {
        const box = document.querySelector('consult-form')?.shadowRoot?.querySelector('textarea');
        return Boolean(box && !box.disabled && box.getBoundingClientRect().height > 0);
      })()`,
      ROUND_TRIPS_IN_PAGE,
    );

  it('is typeable after two round trips, the HTML counted (HTML → loader), as with the classic script', async () => {
    const module = await roundTripsToTypeable('/ask');
    assert.equal(module.roundTrips, 2, `module loader: ${JSON.stringify(module.files)}`);
    assert.deepEqual(
      module.files.map((file) => file.path),
      ['/ask', '/assets/consult-elements.js'],
      'the HTML, then the loader alone',
    );
    const classic = await roundTripsToTypeable('/ask-classic');
    assert.equal(classic.roundTrips, 2, `classic script: ${JSON.stringify(classic.files)}`);
  });

  it('shows a question sent before its thread’s code is here as sent, and the thread as soon as the code arrives', async () => {
    const page = await browser.newPage();
    // The chunk with the thread is held until the question is sent.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/assets/chunks/messaging-*.js', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${portal.url}/ask`);
    const form = page.locator('consult-form');
    await form.locator('textarea').first().fill('A rash on my arm since Tuesday, held back');
    const submit = form.locator('[part~="submit-button"]');
    await formCanSend(page);
    await submit.click();
    await form.locator('#sent').waitFor({ timeout: 20_000 });
    assert.equal(await form.locator('consult-thread').count(), 0, 'no thread without its code');
    release();
    await form
      .locator('consult-thread')
      .getByText('A rash on my arm since Tuesday, held back')
      .first()
      .waitFor({ timeout: 20_000 });
    await page.close();
  });

  it('says so when the thread’s code cannot be loaded, and shows the thread when trying again works', async () => {
    const page = await browser.newPage();
    // The chunk cannot be loaded (offline, a deploy in between) until the member tries again.
    let failing = true;
    await page.route('**/assets/chunks/messaging-*.js', (route) =>
      failing ? route.abort('internetdisconnected') : route.continue(),
    );
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    await page.goto(`${portal.url}/ask`);
    const form = page.locator('consult-form');
    await form.locator('textarea').first().fill('A cough that will not go away, sent while offline');
    await formCanSend(page);
    await form.locator('[part~="submit-button"]').click();
    await form.locator('#sent').waitFor({ timeout: 20_000 });
    const notice = form.getByText('We could not show your question and its answer here.');
    await notice.waitFor({ timeout: 20_000 });
    assert.ok(
      problems.some((text) => text.includes('could not load <consult-thread>')),
      `the console says why: ${problems.join(' | ')}`,
    );
    failing = false;
    await form.getByRole('button', { name: 'Try again' }).click();
    await form
      .locator('consult-thread')
      .getByText('A cough that will not go away, sent while offline')
      .first()
      .waitFor({ timeout: 20_000 });
    assert.equal(await notice.count(), 0, 'the notice is gone');
    await page.close();
  });

  it('is typeable after two round trips beside the list and the navigator: the form never waits for their chunks', async () => {
    const mixed = await roundTripsToTypeable('/mixed');
    assert.equal(mixed.roundTrips, 2, JSON.stringify(mixed.files));
    assert.deepEqual(
      mixed.files.map((file) => file.path),
      ['/mixed', '/assets/consult-elements.js'],
      'the HTML, then the loader alone',
    );
  });

  it('asks for the list’s chunk beside sign-in, and shows its rows three round trips after the HTML', async () => {
    const { files, roundTrips } = await roundTripsWhen(
      '/history',
      `Boolean(document.querySelector('case-history')?.shadowRoot?.querySelector('[part~=item]'))`,
      ROUND_TRIPS_WITH_API_IN_PAGE,
    );
    const waveOf = (pattern: RegExp) => files.find(({ path }) => pattern.test(path))?.wave;
    assert.deepEqual(
      {
        loader: waveOf(/^\/assets\/consult-elements\.js$/),
        list: waveOf(/^\/assets\/chunks\/messaging-/),
        signIn: waveOf(/^\/consult\/session$/),
        read: waveOf(/^\/consult\/user\/[^/]+\/case-history$/),
      },
      { loader: 2, list: 3, signIn: 3, read: 4 },
      JSON.stringify(files),
    );
    // The HTML counted: four in all.
    assert.equal(roundTrips, 4, JSON.stringify(files));
  });

  it('starts sign-in as the loader arrives, and the member can type while it is still on its way', async () => {
    const page = await browser.newPage();
    // Sign-in is held until the member has typed.
    let askedSignIn = false;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/consult/session', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      askedSignIn = true;
      await released;
      await route.continue();
    });
    await page.goto(`${portal.url}/ask`);
    const box = page.locator('consult-form textarea').first();
    await box.waitFor({ timeout: 20_000 });
    await box.pressSequentially('A rash on my arm since Tuesday');
    assert.equal(await box.inputValue(), 'A rash on my arm since Tuesday', 'typed before sign-in answered');
    assert.ok(askedSignIn, 'sign-in was asked for');
    release();
    // Signed in, the plan checked: what the member typed is still there.
    await page.waitForResponse((response) => response.url().endsWith('/consult/session'));
    // Asked for as the loader arrived, not a round trip later: counted in the page's own clock,
    // sign-in is one round trip after the loader (HTML → loader → sign-in).
    await page.waitForFunction(() =>
      performance
        .getEntriesByType('resource')
        .some((entry) => new URL(entry.name).pathname === '/consult/session'),
    );
    const { files } = (await page.evaluate(ROUND_TRIPS_WITH_API_IN_PAGE)) as RoundTrips;
    const signIn = files.find(({ path }) => path === '/consult/session');
    assert.deepEqual(
      { loader: files.find(({ path }) => path === LOADER)?.wave, signIn: signIn?.wave },
      { loader: 2, signIn: 3 },
      JSON.stringify(files),
    );
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

  for (const [path, shows, shown, prepared] of [
    ['/history', 'the list', 'case-history [part~=item] time', ['DateTimeFormat']],
    // An answer also names where its professional is licensed, a list of countries.
    ['/answer', 'a thread', 'consult-thread time', ['DateTimeFormat', 'ListFormat', 'DisplayNames']],
  ] as const) {
    it(`loads the browser's data for ${prepared.join(', ')} while sign-in is on its way, on a page with ${shows}`, async () => {
      const page = await browser.newPage();
      // Each such formatter the page makes: the first of each loads ICU data, a long task on a phone.
      await page.addInitScript((names: readonly string[]) => {
        const made: Record<string, number> = {};
        Object.assign(window, { __formattersMade: made });
        for (const name of names) {
          made[name] = 0;
          const Original = Intl[name as 'ListFormat'] as unknown as new (...args: unknown[]) => object;
          Object.defineProperty(Intl, name, {
            configurable: true,
            value: new Proxy(Original, {
              construct(target, args: unknown[]) {
                made[name] = (made[name] ?? 0) + 1;
                return new target(...args) as object;
              },
            }),
          });
        }
      }, prepared);
      const made = () =>
        page.evaluate(() => ({
          ...(window as unknown as { __formattersMade: Record<string, number> }).__formattersMade,
        }));
      // Sign-in is held: nothing the member has can be shown yet.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/consult/session', async (route) => {
        if (route.request().method() === 'POST') await released;
        await route.continue();
      });
      await page.goto(`${portal.url}${path}`);
      // While it waits, the data is loaded (in idle time), so the task that shows the member's
      // consultations or messages does not load it.
      await page.waitForFunction(
        (names: readonly string[]) =>
          names.every(
            (name) =>
              ((window as unknown as { __formattersMade: Record<string, number> }).__formattersMade[name] ??
                0) > 0,
          ),
        prepared,
        { timeout: 10_000 },
      );
      const before = await made();
      release();
      // Dates then show, with the member's data, made with the formatters made while it waited.
      await page.locator(shown).first().waitFor({ timeout: 20_000 });
      if (path === '/answer') {
        // The answer's licences, in the list and the country names made while it waited.
        await page.locator('consult-thread .licences li').first().waitFor({ state: 'attached' });
        const after = await made();
        assert.deepEqual(
          [after['ListFormat'], after['DisplayNames']],
          [before['ListFormat'], before['DisplayNames']],
        );
      }
      await page.close();
    });
  }

  it('registers the elements found together in one moment: the page draws them in one frame, and the form waits for no chunk', async () => {
    const page = await browser.newPage();
    // One chunk of the wave comes late; the elements in chunks wait for it together, none is drawn
    // alone, while those the loader carries are drawn at once.
    await page.route('**/assets/chunks/consult-access-*.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    const TAGS = ['consult-session', 'consult-form', 'consult-access', 'prescription-request'];
    // Plain script: the frames counted from the page's start, and the frame each element was defined in.
    await page.addInitScript(`
      let frame = 0;
      requestAnimationFrame(function count() {
        frame++;
        requestAnimationFrame(count);
      });
      window.__definedInFrame = {};
      for (const tag of ${JSON.stringify(TAGS)})
        customElements.whenDefined(tag).then(() => (window.__definedInFrame[tag] = frame));
    `);
    await page.goto(`${portal.url}/plan`);
    await page.locator('consult-form textarea').first().waitFor({ timeout: 20_000 });
    const typeable = await page.evaluate(() => customElements.get('consult-access') === undefined);
    assert.ok(typeable, 'the form is typeable while the late chunk is on its way');
    await page.waitForFunction(() => customElements.get('consult-access') !== undefined);
    const defined = await page.evaluate(
      () => (window as unknown as { __definedInFrame: Record<string, number> }).__definedInFrame,
    );
    for (const tag of TAGS) assert.ok(defined[tag] !== undefined, `${tag}: ${JSON.stringify(defined)}`);
    assert.equal(defined['consult-session'], defined['consult-form'], 'defined in the same frame');
    assert.equal(defined['consult-access'], defined['prescription-request'], 'defined in the same frame');
    assert.ok(
      (defined['consult-access'] ?? 0) > (defined['consult-form'] ?? 0),
      `the form first: ${JSON.stringify(defined)}`,
    );
    await page.close();
  });

  it('shows a thread’s answer three round trips after the HTML: the loader, sign-in, the read', async () => {
    const roundTrips = await roundTripsWhen(
      '/answer',
      `Boolean(document.querySelector('consult-thread')?.shadowRoot?.textContent?.includes(${JSON.stringify(ANSWER)}))`,
      ROUND_TRIPS_WITH_API_IN_PAGE,
    );
    const paths = roundTrips.files.map((file) => file.path);
    assert.ok(paths.includes('/consult/session'), `sign-in is counted: ${paths.join(', ')}`);
    assert.ok(
      paths.includes(`/consult/consultation/${answeredId}`),
      `the read is counted: ${paths.join(', ')}`,
    );
    // The HTML counted: four in all.
    assert.ok(roundTrips.roundTrips <= 4, JSON.stringify(roundTrips.files));
  });
});
