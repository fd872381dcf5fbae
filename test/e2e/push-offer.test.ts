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

const offer = (page: Page) => page.locator('consult-form [part~="push-offer"]');
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

/** The question was sent: the page's list shows it open (the form's own note gives way to it). */
const sent = (page: Page, text: string) =>
  page.locator('case-history consult-thread').filter({ hasText: text }).first().waitFor({ timeout: 10_000 });

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
    assert.equal(await permissionRequests(page), 0);
    assert.equal(await page.evaluate(() => localStorage.getItem('consult-elements:push-refused')), '1');
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

  const opened = (page: Page, text: string) =>
    page
      .locator('case-history consult-thread')
      .filter({ hasText: text })
      .first()
      .waitFor({ timeout: 10_000 });

  it('with no tab open: the page opened with ?consultation=<id> shows it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${stack.url}?consultation=cns_demo_alex_rash`);
    await opened(page, 'itchy, dry patch on my elbow');
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
    await opened(page, 'itchy, dry patch on my elbow');
    await context.close();
  });
});

/**
 * The browser's push service cannot be reached from the test machine, so its subscription is
 * stood in for: a granted permission, and a PushManager that hands out one subscription to a
 * browser push service's address and records its unsubscription.
 */
const FAKE_PUSH = `(() => {
  window.pushLog = [];
  Object.defineProperty(Notification, 'permission', { get: () => 'granted' });
  Notification.requestPermission = async () => 'granted';
  let current = null;
  PushManager.prototype.getSubscription = async () => current;
  PushManager.prototype.subscribe = async () => {
    const endpoint = 'https://fcm.googleapis.com/fcm/send/e2e-' + Math.random().toString(36).slice(2);
    const keys = { p256dh: 'B' + 'A'.repeat(86), auth: 'A'.repeat(22) };
    current = {
      endpoint,
      toJSON: () => ({ endpoint, expirationTime: null, keys }),
      unsubscribe: async () => { window.pushLog.push('unsubscribed'); current = null; return true; },
    };
    window.pushLog.push('subscribed');
    return current;
  };
})()`;

describe('signing out ends the device’s notifications in the demo portal', () => {
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

  it('on the proxy first (while the token names the member), then in the browser', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const calls: string[] = [];
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (/\/consult\/(push\/subscription|session)$/.test(path))
        calls.push(`${response.request().method()} ${path} ${response.status()}`);
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.addInitScript(FAKE_PUSH);
    await page.goto(stack.url);
    await page.locator('consult-form textarea').first().waitFor({ timeout: 10_000 });
    await ask(page, 'Will I be told on this device?');
    await offer(page)
      .getByRole('button', { name: /Tell me on this device/ })
      .click();
    await offer(page).getByText('You will be told on this device').waitFor({ timeout: 10_000 });
    assert.ok(calls.includes('PUT /consult/push/subscription 204'), calls.join('\n'));

    await page.locator('#sign-out').click();
    await page.waitForFunction(() =>
      (window as unknown as { pushLog: string[] }).pushLog.includes('unsubscribed'),
    );
    await page.waitForTimeout(300);
    const ended = calls.filter((call) => call.startsWith('DELETE'));
    assert.deepEqual(ended, ['DELETE /consult/push/subscription 204', 'DELETE /consult/session 204']);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
