/**
 * S28: the push service worker in Chromium. A push is delivered through the DevTools Protocol
 * (`ServiceWorker.deliverPushMessage`) with notification permission granted: the notification
 * shows the package's own words in the push's language and nothing the push carried beside its
 * kind and id; a click posts the consultation to the open tab with the elements and brings that
 * tab forward, or, with none open, opens the portal's page with `?consultation=<id>`.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type CDPSession,
  type Page,
  type Worker,
} from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';
import { buildPushWorker } from '../../scripts/build-push-worker.js';
import { PUSH_WORDS } from '../../src/push/words.js';

const PAGE = `<!doctype html><meta charset="utf-8"><title>portal</title>
<script>
  window.opened = [];
  navigator.serviceWorker.addEventListener('message', (event) => window.opened.push(event.data));
</script>`;

let server: Server;
let origin: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let worker: Worker;
let registrationId: string;
/** The DevTools Protocol session with the ServiceWorker domain enabled. */
let cdp: CDPSession;

/** The pushes the worker has received so far (counted by a listener the test adds beside its own). */
const received = () => worker.evaluate('self.__pushesReceived') as Promise<number>;

/**
 * Hands the worker a push through the DevTools Protocol and waits until its push event has run.
 * On a loaded machine Chromium now and then does not deliver one it was handed: then it is handed
 * again after 3 seconds, as a push service retries a push that was not delivered. What the worker
 * does with it is the test's to check.
 */
async function deliver(data: unknown): Promise<void> {
  const until = Date.now() + 30_000;
  const before = await received();
  for (;;) {
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin,
      registrationId,
      data: JSON.stringify(data),
    });
    const handedAt = Date.now();
    while (Date.now() - handedAt < 3_000) {
      if ((await received()) > before) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (Date.now() > until) throw new Error(`the worker never received the push ${JSON.stringify(data)}`);
  }
}

/** Delivers a push and waits for the notification tagged `tag`. */
async function deliverAndWait(data: unknown, tag: string) {
  await deliver(data);
  return waitFor(async () => {
    const list = await shown();
    return list.some((notification) => notification.tag === tag) && list;
  }, `the notification ${tag}`);
}

/** The notifications the worker shows now. */
const shown = () =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      lang: n.lang,
      dir: n.dir,
      tag: n.tag,
      data: n.data as unknown,
    }));
  });

async function waitFor<T>(probe: () => Promise<T | undefined | false>, what: string): Promise<T> {
  // A push reaches the worker through the browser's push machinery: on a loaded machine, seconds.
  const until = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Clicks the worker's notification for `consultationId` as the browser would, from inside the
 * worker: a synthetic event's `waitUntil` is the test's, and the windows it opens and focuses are
 * recorded (a real focus needs a real click, which a synthetic event is not).
 */
const click = (consultationId: string): Promise<{ opened: string[]; focused: string[] }> =>
  // As a string: the test's compiled functions carry helpers the worker does not have.
  worker.evaluate(`(async () => {
    const opened = [];
    const focused = [];
    self.clients.openWindow = async (url) => { opened.push(url); return null; };
    const focus = WindowClient.prototype.focus;
    WindowClient.prototype.focus = async function () { focused.push(this.url); return this; };
    try {
      const [notification] = (await self.registration.getNotifications()).filter(
        (n) => n.data && n.data.consultationId === ${JSON.stringify(consultationId)},
      );
      const event = new NotificationEvent('notificationclick', { notification });
      let work = Promise.resolve();
      Object.defineProperty(event, 'waitUntil', { value: (promise) => { work = promise; } });
      self.dispatchEvent(event);
      await work;
    } finally {
      WindowClient.prototype.focus = focus;
    }
    return { opened, focused };
  })()`);

describe('the push service worker in Chromium', () => {
  before(async () => {
    const code = await buildPushWorker();
    server = createServer((request, response) => {
      if (request.url?.startsWith('/consult/push/sw.js')) {
        response.writeHead(200, { 'content-type': 'text/javascript', 'service-worker-allowed': '/' });
        response.end(code);
      } else {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(PAGE);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    browser = await chromium.launch({ executablePath: findChromium(), headless: true, args: CHROMIUM_ARGS });
    context = await browser.newContext();
    await context.grantPermissions(['notifications'], { origin });
    page = await context.newPage();
    await page.goto(`${origin}/portal/doctor`);
    cdp = await context.newCDPSession(page);
    await cdp.send('ServiceWorker.enable');
    const registered = new Promise<string>((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const ours = registrations.find((r) => r.scopeURL.startsWith(origin) && !r.isDeleted);
        if (ours) resolve(ours.registrationId);
      }),
    );
    const workerStarted = context.waitForEvent('serviceworker');
    // A push delivered while the worker is still activating can be dropped: wait until it is active.
    await page.evaluate(
      async (url) => {
        await navigator.serviceWorker.register(url, { scope: '/' });
        const active = (await navigator.serviceWorker.ready).active!;
        if (active.state === 'activated') return;
        await new Promise<void>((resolve) =>
          active.addEventListener('statechange', () => active.state === 'activated' && resolve()),
        );
      },
      `/consult/push/sw.js?page=${encodeURIComponent(`${origin}/portal/doctor`)}`,
    );
    registrationId = await registered;
    worker = context.serviceWorkers()[0] ?? (await workerStarted);
    // Runs after the worker's own listener, on each push event that reaches the worker.
    await worker.evaluate(`self.__pushesReceived = 0;
      self.addEventListener('push', () => self.__pushesReceived++);`);
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('shows the package’s words in the push’s language, and nothing else the push carried', async () => {
    const [notification, ...others] = await deliverAndWait(
      {
        kind: 'answer',
        consultationId: 'cns_push_e2e_1',
        lang: 'ar',
        // A push never carries these (S28); if one did, the worker would still show none of it.
        question: 'My knee is swollen',
        answer: 'Rest and ice',
      },
      'consult-cns_push_e2e_1',
    );
    assert.deepEqual(others, []);
    assert.deepEqual(notification, {
      title: PUSH_WORDS.ar.answer.title,
      body: PUSH_WORDS.ar.answer.body,
      lang: 'ar',
      dir: 'rtl',
      tag: 'consult-cns_push_e2e_1',
      data: { consultationId: 'cns_push_e2e_1' },
    });
  });

  it('a push that is not the proxy’s shows nothing', async () => {
    for (const data of [
      { kind: 'message', consultationId: 'cns_x', lang: 'en' },
      { kind: 'answer', consultationId: '../x' },
    ])
      await deliver(data);
    const list = await deliverAndWait(
      { kind: 'closed', consultationId: 'cns_push_e2e_marker', lang: 'xx' },
      'consult-cns_push_e2e_marker',
    );
    assert.deepEqual(list.map((n) => n.tag).sort(), [
      'consult-cns_push_e2e_1',
      'consult-cns_push_e2e_marker',
    ]);
    const marker = list.find((n) => n.tag === 'consult-cns_push_e2e_marker')!;
    assert.equal(marker.title, PUSH_WORDS.en.closed.title, 'an unknown language falls back to English');
  });

  it('a click tells the open tab with the elements which consultation to show', async () => {
    const { opened, focused } = await click('cns_push_e2e_1');
    assert.deepEqual(opened, [], 'no new window while the tab is open');
    assert.deepEqual(focused, [`${origin}/portal/doctor`], 'the open tab is brought forward');
    const messages = await waitFor(async () => {
      const list = await page.evaluate(() => (window as unknown as { opened: unknown[] }).opened);
      return list.length > 0 && list;
    }, 'the message to the tab');
    assert.deepEqual(messages, [{ type: 'consult-open-consultation', consultationId: 'cns_push_e2e_1' }]);
  });

  it('with no tab on the portal’s page, a click opens it with the consultation', async () => {
    // A notification of its own, so this does not rest on the tests before it.
    await deliverAndWait(
      { kind: 'answer', consultationId: 'cns_push_e2e_2', lang: 'en' },
      'consult-cns_push_e2e_2',
    );
    await page.goto(`${origin}/elsewhere`);
    const { opened, focused } = await click('cns_push_e2e_2');
    assert.deepEqual(opened, [`${origin}/portal/doctor?consultation=cns_push_e2e_2`]);
    assert.deepEqual(focused, [], 'the tab elsewhere is not the one brought forward');
  });
});
