/**
 * The offer to be told on this device (README "Notifications"), in the demo portal in Chromium:
 * none on page load, one after the member sends a question; the browser is asked only on the
 * member's tap; a refusal (or "not now") is remembered on the device and not offered again; a
 * browser without the Push API is offered nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startDemoStack, type DemoStack } from '../../demo/stack.js';
import { MemoryStore } from '../../src/proxy/store.js';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';

let stack: DemoStack;
let browser: Browser;

/** Counts the page's permission requests, which must come only from a tap. */
const COUNT_PERMISSION_REQUESTS = `(() => {
  window.permissionRequests = 0;
  const ask = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = (...args) => {
    window.permissionRequests++;
    return ask(...args);
  };
})()`;

/** In the demo, the list shows a question just sent open beside the form: the offer is under its waiting note. */
const offer = (page: Page) => page.locator('case-history consult-thread [part~="push-offer"]');
const permissionRequests = (page: Page) => page.evaluate<number>('window.permissionRequests ?? 0');

async function openPortal(context: BrowserContext, initScript = COUNT_PERMISSION_REQUESTS): Promise<Page> {
  const page = await context.newPage();
  await page.addInitScript(initScript);
  await page.goto(stack.url);
  await page.locator('consult-form textarea').first().waitFor({ timeout: 10_000 });
  return page;
}

async function ask(page: Page, text: string): Promise<void> {
  const question = page.locator('consult-form textarea').first();
  await question.click();
  await question.pressSequentially(text);
  await page.locator('consult-form [part~="submit-button"]').click();
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    assert.ok(Date.now() < deadline, what);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The question was sent: the page's list shows it open (the form's own note gives way to it). */
const sent = (page: Page, text: string) =>
  page.locator('case-history consult-thread').filter({ hasText: text }).first().waitFor({ timeout: 10_000 });

/** The `part` of the element focus is on, looking through shadow roots, once it is `expected` (2 s at most). */
async function focusedPart(page: Page, expected: string): Promise<string | null> {
  const part = () =>
    page.evaluate(() => {
      let active = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return active?.getAttribute('part') ?? active?.localName ?? null;
    });
  const until = Date.now() + 2000;
  while (Date.now() < until && (await part()) !== expected) await page.waitForTimeout(50);
  return part();
}

describe('the notifications offer in the demo portal', () => {
  before(async () => {
    stack = await startDemoStack({
      port: 0,
      sandbox: { port: 0, professionals: { mode: 'manual' } },
      logger: () => undefined,
    });
    browser = await chromium.launch({ executablePath: findChromium(), headless: true, args: CHROMIUM_ARGS });
  });

  after(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('shows nothing on load, the offer after a question is sent, and asks the browser only on a tap', async () => {
    const context = await browser.newContext();
    const page = await openPortal(context);
    await page.waitForTimeout(500);
    assert.equal(await offer(page).count(), 0, 'no offer on page load');
    await ask(page, 'Does a cold shower help after a run?');
    await offer(page).waitFor({ timeout: 10_000 });
    assert.match(await offer(page).innerText(), /Tell me on this device when a doctor answers/);
    assert.equal(await permissionRequests(page), 0, 'the browser is not asked before the tap');

    // Headless Chromium answers the prompt with "default": a refusal, remembered on this device.
    await offer(page)
      .getByRole('button', { name: /Tell me on this device/ })
      .click();
    await offer(page).waitFor({ state: 'detached', timeout: 10_000 });
    assert.equal(await permissionRequests(page), 1);
    // Focus goes to the line that says so, not to the page.
    assert.equal(await focusedPart(page, 'push-declined'), 'push-declined');
    assert.match(
      await page.locator('[part~="push-declined"]').innerText(),
      /We will not ask again on this device/,
    );
    assert.equal(await page.evaluate(() => localStorage.getItem('consult-elements:push-refused')), '1');

    await page.reload();
    await page.locator('consult-form textarea').first().waitFor({ timeout: 10_000 });
    await ask(page, 'And a warm one?');
    await sent(page, 'And a warm one?');
    await page.waitForTimeout(500);
    assert.equal(await offer(page).count(), 0, 'not offered again after a refusal');
    await context.close();
  });

  it('"Not now" is remembered too', async () => {
    const context = await browser.newContext();
    const page = await openPortal(context);
    await ask(page, 'Is stretching before a run useful?');
    await offer(page).getByRole('button', { name: 'Not now' }).click();
    await offer(page).waitFor({ state: 'detached', timeout: 10_000 });
    assert.equal(
      await focusedPart(page, 'push-declined'),
      'push-declined',
      'focus stays with what the tap led to',
    );
    assert.equal(await permissionRequests(page), 0);
    assert.equal(await page.evaluate(() => localStorage.getItem('consult-elements:push-refused')), '1');
    await context.close();
  });

  it('a question still waiting offers it again where the member finds it later: under the thread’s waiting note', async () => {
    const context = await browser.newContext();
    const page = await openPortal(context);
    await ask(page, 'Should I ice a sore ankle overnight?');
    await offer(page).waitFor({ timeout: 10_000 });
    assert.equal(
      await page.locator('case-history consult-thread [part~="waiting"] [part~="push-offer"]').count(),
      1,
      'under the waiting note',
    );

    // A later visit: the waiting question, open in the list again, still offers it (and only there).
    await page.reload();
    await page.locator('consult-form textarea').first().waitFor({ timeout: 10_000 });
    await page
      .locator('case-history consult-thread')
      .filter({ hasText: 'Should I ice a sore ankle overnight?' })
      .first()
      .waitFor({ timeout: 10_000 });
    await offer(page).waitFor({ timeout: 10_000 });
    assert.match(await offer(page).innerText(), /Tell me on this device when a doctor answers/);
    assert.equal(await page.locator('[part~="push-offer"]').count(), 1, 'in the thread alone');
    assert.equal(await permissionRequests(page), 0, 'the browser is not asked before the tap');
    await context.close();
  });

  it('where no thread shows the question just sent, the form offers it under its "sent" note', async () => {
    const context = await browser.newContext();
    const page = await openPortal(context);
    await ask(page, 'Is a cold bath good for sore legs?');
    await offer(page).waitFor({ timeout: 10_000 });
    // The member goes back to all consultations: the form's note (and the offer under it) come back.
    await page.locator('case-history [part~="back-button"]').click({ timeout: 10_000 });
    const formOffer = page.locator('consult-form [part~="push-offer"]');
    await formOffer.waitFor({ timeout: 10_000 });
    assert.match(await formOffer.innerText(), /Tell me on this device when a doctor answers/);
    assert.equal(await page.locator('[part~="push-offer"]').count(), 1, 'one offer on the page');
    assert.equal(await permissionRequests(page), 0);
    await context.close();
  });

  it('with service-notifications, the member turns the service’s own notifications on and off beside it', async () => {
    const context = await browser.newContext();
    const page = await openPortal(context);
    const choices: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT' && request.url().endsWith('/consult/service-notifications'))
        choices.push(request.postData() ?? '');
    });
    const shouldNotify = () => stack.sandbox.sandbox.state.users.get('usr_demo_alex')?.shouldNotify;
    const before = shouldNotify();
    await ask(page, 'Can I run with a blister?');
    const choice = page
      .locator('case-history consult-thread [part~="waiting"] [part~="service-notifications"]')
      .getByRole('checkbox', { name: /Also tell me by e-mail or text message/ });
    await choice.waitFor({ timeout: 10_000 });
    assert.equal(await choice.isChecked(), false, 'not chosen here yet');
    await choice.check();
    await waitFor(() => shouldNotify() === true, 'the service notifies alex');
    await choice.uncheck();
    await waitFor(() => shouldNotify() === false, 'and no longer does');
    assert.deepEqual(choices, ['{"shouldNotify":true}', '{"shouldNotify":false}']);
    assert.equal(await permissionRequests(page), 0, 'the browser is not asked for it');
    assert.notEqual(before, undefined, 'alex has a record in the sandbox');
    await context.close();
  });

  it('a browser without the Push API is offered nothing', async () => {
    const context = await browser.newContext();
    const page = await openPortal(context, `${COUNT_PERMISSION_REQUESTS}; delete window.PushManager;`);
    await ask(page, 'Is a banana a good snack before a run?');
    await sent(page, 'Is a banana a good snack before a run?');
    await page.waitForTimeout(500);
    assert.equal(await offer(page).count(), 0);
    await context.close();
  });

  it('an iPhone is offered it only in an app added to the home screen, where its browser can push', async () => {
    const iPhone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
    for (const homeScreen of [false, true]) {
      const context = await browser.newContext({ userAgent: iPhone });
      const page = await openPortal(
        context,
        `${COUNT_PERMISSION_REQUESTS}; Object.defineProperty(navigator, 'standalone', { get: () => ${homeScreen} });`,
      );
      const question = `Can I take ibuprofen with a cold (${homeScreen ? 'home screen' : 'in Safari'})?`;
      await ask(page, question);
      await sent(page, question);
      if (homeScreen) {
        await offer(page)
          .getByRole('button', { name: /Tell me on this device/ })
          .waitFor({ timeout: 10_000 });
      } else {
        // The device's own answer, which the elements show: nothing to offer here.
        const offered = await page.evaluate(async () => {
          const session = document.querySelector('consult-session') as unknown as {
            manager: { pushDevice(): Promise<{ offer(): Promise<string> } | undefined> };
          };
          return (await session.manager.pushDevice())?.offer();
        });
        assert.equal(offered, 'unavailable');
        assert.equal(await offer(page).count(), 0, 'no offer in Safari itself');
      }
      assert.equal(await permissionRequests(page), 0);
      await context.close();
    }
  });
});

describe('a tap on a notification opens the consultation in the demo portal', () => {
  before(async () => {
    stack = await startDemoStack({ port: 0, sandbox: { port: 0 }, logger: () => undefined });
    browser = await chromium.launch({ executablePath: findChromium(), headless: true, args: CHROMIUM_ARGS });
  });

  after(async () => {
    await browser?.close();
    await stack?.close();
  });

  /** Alex's rash consultation is open in the page's list, its question and the answer told of (its markdown rendered). */
  const opened = async (page: Page) => {
    const thread = page
      .locator('case-history consult-thread')
      .filter({ hasText: 'itchy, dry patch on my elbow' })
      .first();
    await thread.waitFor({ timeout: 10_000 });
    await thread.locator('strong', { hasText: 'eczema' }).first().waitFor({ timeout: 10_000 });
  };

  it('with no tab open: the page opened with ?consultation=<id> shows it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${stack.url}?consultation=cns_demo_alex_rash`);
    await opened(page);
    await context.close();
  });

  it('with the tab open: the worker’s message shows it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(stack.url);
    await page
      .locator('case-history')
      .getByText('blood pressure', { exact: false })
      .first()
      .waitFor({ timeout: 10_000 });
    await page.evaluate(() =>
      navigator.serviceWorker.dispatchEvent(
        new MessageEvent('message', {
          data: { type: 'consult-open-consultation', consultationId: 'cns_demo_alex_rash' },
        }),
      ),
    );
    await opened(page);
    await context.close();
  });
});

/**
 * The browser's push service cannot be reached from the test machine, so its subscription is
 * stood in for: a granted permission, and a PushManager that hands out one subscription to a
 * browser push service's address and records its unsubscription. Both are kept in the page's
 * storage, as the browser keeps a real subscription across visits.
 */
const FAKE_PUSH = `(() => {
  const saved = (key, fallback) => JSON.parse(localStorage.getItem(key) ?? fallback);
  const log = saved('fake-push-log', '[]');
  window.pushLog = log;
  const record = (entry) => { log.push(entry); localStorage.setItem('fake-push-log', JSON.stringify(log)); };
  Object.defineProperty(Notification, 'permission', { get: () => 'granted' });
  Notification.requestPermission = async () => 'granted';
  const subscription = (endpoint) => {
    const keys = { p256dh: 'B' + 'A'.repeat(86), auth: 'A'.repeat(22) };
    return {
      endpoint,
      toJSON: () => ({ endpoint, expirationTime: null, keys }),
      unsubscribe: async () => { record('unsubscribed'); localStorage.removeItem('fake-push-endpoint'); return true; },
    };
  };
  PushManager.prototype.getSubscription = async () => {
    const endpoint = localStorage.getItem('fake-push-endpoint');
    return endpoint ? subscription(endpoint) : null;
  };
  PushManager.prototype.subscribe = async () => {
    const endpoint = 'https://fcm.googleapis.com/fcm/send/e2e-' + Math.random().toString(36).slice(2);
    localStorage.setItem('fake-push-endpoint', endpoint);
    record('subscribed');
    return subscription(endpoint);
  };
})()`;

/** As FAKE_PUSH, but the browser's question stays open until the test calls `window.answerPrompt()`. */
const FAKE_PUSH_HELD_PROMPT = FAKE_PUSH.replace(
  "Object.defineProperty(Notification, 'permission', { get: () => 'granted' });\n  Notification.requestPermission = async () => 'granted';",
  `let permission = 'default';
  Object.defineProperty(Notification, 'permission', { get: () => permission });
  Notification.requestPermission = () => new Promise((resolve) => {
    window.promptOpen = true;
    window.answerPrompt = () => { permission = 'granted'; resolve('granted'); };
  });`,
);

/** The page's calls that subscribe, unsubscribe and end the session, as `METHOD path status`. */
function recordCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (/\/consult\/(push\/subscription|session)$/.test(path))
      calls.push(`${response.request().method()} ${path} ${response.status()}`);
  });
  return calls;
}

/** A page of its own context with `initScript`, its subscribe and session calls, and its errors. */
async function watchedPage(initScript: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const calls = recordCalls(page);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.addInitScript(initScript);
  return { context, page, calls, errors };
}

/** Alex opens the portal, asks a question and taps the offer. */
async function alexTapsTheOffer(page: Page): Promise<void> {
  await page.goto(stack.url);
  await page.locator('consult-form textarea').first().waitFor({ timeout: 10_000 });
  await ask(page, 'Will I be told on this device?');
  await offer(page)
    .getByRole('button', { name: /Tell me on this device/ })
    .click();
}

/** Noor asks a question and is offered notifications of her own: the offer and "not now", not "on". */
async function noorIsOfferedHerOwn(page: Page): Promise<void> {
  await ask(page, 'هل سأُبلَّغ على هذا الجهاز؟');
  await offer(page).getByRole('button').first().waitFor({ timeout: 10_000 });
  assert.equal(await offer(page).getByRole('button').count(), 2, 'the offer and "not now", not "on"');
}

/** Alex asks a question and taps the offer: this device is subscribed for him. */
async function subscribeAlex(page: Page, calls: string[]): Promise<void> {
  await alexTapsTheOffer(page);
  await offer(page).getByText('You will be told on this device').waitFor({ timeout: 10_000 });
  assert.ok(calls.includes('PUT /consult/push/subscription 204'), calls.join('\n'));
  // Focus follows the tap to the offer as it now stands, which a screen reader then reads.
  assert.equal(await focusedPart(page, 'push-offer'), 'push-offer');
}

/** The browser's subscription is ended (the fake push service records it). */
/** The push subscription the fake browser holds, if any. */
const endpointInBrowser = (page: Page) => page.evaluate(() => localStorage.getItem('fake-push-endpoint'));

const browserUnsubscribed = (page: Page) =>
  page.waitForFunction(
    () => (window as unknown as { pushLog: string[] }).pushLog.includes('unsubscribed'),
    undefined,
    { timeout: 10_000 },
  );

/** The member signs out: the browser unsubscribes, and the proxy forgets the device before the next test counts devices. */
async function signOut(page: Page, calls: string[]): Promise<void> {
  await page.locator('#sign-out').click();
  await browserUnsubscribed(page);
  await waitFor(() => calls.includes('DELETE /consult/session 204'), calls.join('\n'));
}

/** The portal's own sign-in cookies, as its sign-in form sets them. */
async function portalSignedIn(context: BrowserContext, member: string): Promise<void> {
  const { hostname } = new URL(stack.url);
  await context.addCookies([
    { name: 'portal_member', value: member, domain: hostname, path: '/' },
    { name: 'portal_member_hint', value: member, domain: hostname, path: '/' },
  ]);
}

describe('signing out ends the device’s notifications in the demo portal', () => {
  const store = new MemoryStore();
  /** How many devices the proxy keeps for the demo member. */
  const devicesOf = async (member: string) =>
    (JSON.parse((await store.get(`push-subscriptions:usr_demo_${member}`)) ?? '[]') as unknown[]).length;

  before(async () => {
    stack = await startDemoStack({
      port: 0,
      sandbox: { port: 0, professionals: { mode: 'manual' } },
      logger: () => undefined,
      store,
    });
    browser = await chromium.launch({ executablePath: findChromium(), headless: true, args: CHROMIUM_ARGS });
  });

  after(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('on the proxy in the sign-out request itself, then in the browser', async () => {
    const { context, page, calls, errors } = await watchedPage(FAKE_PUSH);
    await subscribeAlex(page, calls);

    await page.locator('#sign-out').click();
    await browserUnsubscribed(page);
    // The sign-out request is not waited for by the page; its answer is, here, then a moment in
    // which a second request would show.
    await waitFor(() => calls.includes('DELETE /consult/session 204'), calls.join('\n'));
    await page.waitForTimeout(300);
    const ended = calls.filter((call) => call.startsWith('DELETE'));
    // One request: the session ends at once (nothing waits on the browser's push machinery, so a
    // page left right after still ends it), and the proxy forgets the device's subscription with it.
    assert.deepEqual(ended, ['DELETE /consult/session 204']);
    assert.equal(await devicesOf('alex'), 0, 'the proxy keeps no device of alex');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('a subscription the proxy lost (its store emptied or restarted) is back on the member’s next visit', async () => {
    const { context, page, calls } = await watchedPage(FAKE_PUSH);
    await subscribeAlex(page, calls);
    await store.delete('push-subscriptions:usr_demo_alex');
    assert.equal(await devicesOf('alex'), 0);

    calls.length = 0;
    await page.reload();
    await waitFor(() => calls.includes('PUT /consult/push/subscription 204'), calls.join('\n'));
    assert.equal(await devicesOf('alex'), 1, 'the proxy keeps Alex’s device again');
    const [kept] = JSON.parse((await store.get('push-subscriptions:usr_demo_alex'))!) as {
      endpoint: string;
    }[];
    assert.equal(kept!.endpoint, await endpointInBrowser(page));
    // Once per page: a sign-in again, as a renewed token makes, says `ready` again and gives it no second time.
    await page.evaluate(() =>
      (
        document.querySelector('consult-session') as unknown as { manager: EventTarget }
      ).manager.dispatchEvent(new CustomEvent('status', { detail: { status: 'ready' } })),
    );
    await page.waitForTimeout(300);
    assert.deepEqual(
      calls.filter((call) => call.startsWith('PUT')),
      ['PUT /consult/push/subscription 204'],
    );
    await signOut(page, calls);
    await context.close();
  });

  it('another member signing in on the device ends the one before’s, on the proxy and in the browser', async () => {
    const { context, page, calls, errors } = await watchedPage(FAKE_PUSH);
    await subscribeAlex(page, calls);
    const alexsEndpoint = await endpointInBrowser(page);
    assert.ok(alexsEndpoint);
    assert.equal(await devicesOf('alex'), 1, 'the proxy keeps Alex’s device');

    // The portal's own switch: a new page, signed in as Noor, with Alex's subscription in the browser.
    await page.locator('#member').selectOption('noor');
    await page.getByRole('button', { name: 'Switch member' }).click();
    await browserUnsubscribed(page);
    await page.waitForTimeout(300);
    assert.ok(calls.includes('DELETE /consult/push/subscription 204'), calls.join('\n'));
    assert.equal(await devicesOf('alex'), 0, 'the proxy forgot Alex’s device');
    assert.equal(await endpointInBrowser(page), null);
    // Nothing for Alex can show here now: the browser holds no subscription, and Noor is offered her own.
    await noorIsOfferedHerOwn(page);
    assert.deepEqual(errors, []);
    await context.close();
  });
  it('the portal ending the member’s session (an idle sign-out) ends them, on the proxy and in the browser', async () => {
    const { context, page, calls, errors } = await watchedPage(FAKE_PUSH);
    await subscribeAlex(page, calls);
    assert.equal(await devicesOf('alex'), 1, 'the proxy keeps Alex’s device');

    // The portal's own session ends while the page is open (its idle timeout), and the portal ends
    // the member's sessions on the proxy as it does (README, "Ending sessions").
    await context.clearCookies();
    assert.equal(await stack.proxy.proxy.endMemberSessions('alex'), true);
    // The page's stream is closed; its sign-in again is refused by the portal, and the device is
    // told nothing more.
    await browserUnsubscribed(page);
    assert.ok(calls.includes('POST /consult/session 401'), calls.join('\n'));
    assert.equal(await devicesOf('alex'), 0, 'the proxy forgot Alex’s device');
    assert.equal(await endpointInBrowser(page), null, 'the browser holds no subscription');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('a member subscribes in their own language: Noor’s device is told in Arabic', async () => {
    const { context, page, calls } = await watchedPage(FAKE_PUSH);
    await portalSignedIn(context, 'noor');
    await page.goto(stack.url);
    await page.locator('consult-form textarea').first().waitFor({ timeout: 10_000 });
    await ask(page, 'هل يمكنني أن أُبلَّغ بالعربية؟');
    await offer(page).getByRole('button').first().click();
    await waitFor(() => calls.includes('PUT /consult/push/subscription 204'), calls.join('\n'));
    const [kept] = JSON.parse((await store.get('push-subscriptions:usr_demo_noor')) ?? '[]') as {
      lang: string;
    }[];
    assert.equal(kept?.lang, 'ar');
    await signOut(page, calls);
    await context.close();
  });

  it('a member who signs in while the one before is still answering the browser’s question is not subscribed', async () => {
    const { context, page, calls, errors } = await watchedPage(FAKE_PUSH_HELD_PROMPT);
    assert.notEqual(FAKE_PUSH_HELD_PROMPT, FAKE_PUSH, 'the prompt is held');
    await alexTapsTheOffer(page);
    await page.waitForFunction(() => (window as unknown as { promptOpen?: boolean }).promptOpen === true);
    // In the page, with no reload (a single-page portal): Noor signs in where Alex was. A portal that
    // knows its member changed tells the session (here: a new sign-in body), which signs in again.
    await portalSignedIn(context, 'noor');
    await page.evaluate(() => {
      (document.querySelector('consult-session') as unknown as { signInBody: object }).signInBody = {
        member: 'noor',
      };
    });
    await waitFor(
      () => calls.filter((call) => call === 'POST /consult/session 200').length === 2,
      calls.join('\n'),
    );
    // Alex's yes comes after he has gone.
    await page.evaluate(() => (window as unknown as { answerPrompt(): void }).answerPrompt());
    // Noor goes on: she asks, and is offered notifications of her own. By then a subscription made
    // from Alex's yes would have been saved.
    await noorIsOfferedHerOwn(page);
    assert.ok(!calls.some((call) => call.startsWith('PUT /consult/push/subscription')), calls.join('\n'));
    assert.equal(await devicesOf('noor'), 0, 'the proxy keeps no device of Noor, who never asked');
    assert.equal(await devicesOf('alex'), 0, 'nor of Alex, who is gone');
    assert.equal(await endpointInBrowser(page), null, 'the browser holds no subscription');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
