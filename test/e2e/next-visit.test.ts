/**
 * End to end, the member's next visit: the demo portal in Chromium against the sandbox and the
 * proxy on loopback. Alex asks and closes the tab; a doctor answers while he is away; he comes back
 * in a new browser context (another device: nothing of the first in its storage) and finds the
 * answer marked new and each message with its time; a third visit finds it read.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startDemoStack, type DemoStack } from '../../demo/stack.js';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';

const QUESTION = 'Why do my ears ring after a concert?';
const ANSWER = 'It is common and usually fades within a day.';

describe('the member’s next visit, on another device', () => {
  let stack: DemoStack;
  let browser: Browser;

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

  async function openPortal(context: BrowserContext): Promise<{ page: Page; violations: string[] }> {
    const page = await context.newPage();
    const violations: string[] = [];
    await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { reportViolation(t: string): void }).reportViolation(
          `${e.violatedDirective} ${e.blockedURI}`,
        ),
      );
    });
    await page.goto(stack.url);
    return { page, violations };
  }

  it('shows the answer that came while away as new, with each message’s time', async () => {
    const asked = Date.now();
    const first = await browser.newContext();
    const { page } = await openPortal(first);
    const box = page.locator('consult-form textarea').first();
    await box.click();
    await box.pressSequentially(QUESTION);
    await page.locator('consult-form [part~="submit-button"]').click();
    await page
      .locator('case-history consult-thread')
      .filter({ hasText: QUESTION })
      .waitFor({ timeout: 10_000 });
    await first.close();

    // A doctor answers while Alex is away; the proxy's webhook takes the event.
    const sandbox = stack.sandbox.sandbox;
    const consultation = [...sandbox.state.consultations.values()].find(
      (c) => c.questions[0]?.question === QUESTION,
    );
    assert.ok(consultation, 'the question reached the service');
    const id = consultation.consultationId;
    const answered = await fetch(`${stack.sandbox.url}/_sandbox/consultations/${id}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ answer: ANSWER }),
    });
    assert.equal(answered.status < 300, true, await answered.text());
    for (let i = 0; i < 100; i++) {
      if (
        sandbox.webhookDeliveries.some(
          (d) => d.event.caseId === id && d.event.type === 'questionResolved' && d.ok,
        )
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    // The next day, on another device.
    const second = await browser.newContext();
    const { page: again, violations } = await openPortal(second);
    // A row's button names who, status, when and unread; its subject and preview sit beside it.
    const row = again
      .locator('case-history li.row')
      .filter({ hasText: /ears ring|fades within a day/ })
      .locator('[part~="item"]');
    await row.locator('[part~="unread"]').waitFor({ timeout: 10_000 });
    assert.match((await row.textContent()) ?? '', /New answer/);
    // The read mark the thread sends once the answer is on screen: this visit ends after the proxy
    // has it, as a member's does who reads the answer (not in the same millisecond it appears).
    const markKept = again.waitForResponse(
      (response) =>
        response.request().method() === 'PUT' && response.url().endsWith(`/consultations/${id}/seen`),
    );
    await row.click();
    const thread = again.locator('case-history consult-thread');
    await thread.locator('[part~="answer"]').waitFor({ timeout: 10_000 });
    const times = await thread.locator('time').evaluateAll((ts) => ts.map((t) => t.getAttribute('datetime')));
    assert.equal(times.length, 2, 'the question’s time and the answer’s');
    for (const time of times) {
      const at = Date.parse(time ?? '');
      assert.ok(at >= asked - 1000 && at <= Date.now(), `${time} is when it happened`);
    }
    await row.locator('[part~="unread"]').waitFor({ state: 'detached', timeout: 10_000 });
    assert.equal((await markKept).status(), 200, 'the proxy kept the read mark');
    assert.deepEqual(violations, [], 'no Content Security Policy or Trusted Types violation');
    await second.close();

    // And a third visit finds it read.
    const third = await browser.newContext();
    const { page: later } = await openPortal(third);
    const rowLater = later
      .locator('case-history li.row')
      .filter({ hasText: /ears ring|fades within a day/ })
      .locator('[part~="item"]');
    await rowLater.waitFor({ timeout: 10_000 });
    assert.equal(await rowLater.locator('[part~="unread"]').count(), 0, 'read on the last visit');
    await third.close();
  });
});
