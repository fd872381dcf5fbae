/**
 * End to end: the sandbox and the proxy started for real on loopback, the demo portal in Chromium
 * through playwright-core, served with a strict CSP and Trusted Types (S13). A member's whole path
 * is driven by clicking and typing; every response, storage entry and the shadow DOM are scanned
 * for the API key and the upstream access token (S1).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startDemoStack, type DemoStack } from '../../demo/stack.js';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';

const API_KEY_CANARY = 'canary-api-key-7d1f0c2e9b';

/** The portal's own headings for Noor, in Arabic (`data-portal-text` key to text). */
const NOOR_HEADINGS = {
  title: 'اسأل طبيبًا',
  intro: 'يجيب أطباء مرخّصون عن أسئلتك الصحية كتابةً، عادةً خلال يوم.',
  ask: 'سؤال جديد',
  history: 'استشاراتي',
  prescription: 'تجديد وصفة طبية',
  navigator: 'المرشد الصحي',
};

describe('the demo portal in Chromium', () => {
  let stack: DemoStack;
  let browser: Browser;
  const upstreamTokens = new Set<string>();
  const received: string[] = [];

  before(async () => {
    stack = await startDemoStack({
      port: 0,
      sandbox: {
        port: 0,
        apiKeys: [API_KEY_CANARY],
        professionals: { mode: 'auto', claimAfterMs: 200, answerAfterMs: 400 },
      },
      // Records every upstream access token the proxy uses, to look for it in the browser later.
      upstreamFetch: (input, init) => {
        const auth = new Headers(init?.headers).get('authorization');
        if (auth) upstreamTokens.add(auth.replace(/^Bearer\s+/i, ''));
        return fetch(input, init);
      },
      logger: () => undefined,
    });
    browser = await chromium.launch({ executablePath: findChromium(), headless: true, args: CHROMIUM_ARGS });
  });

  after(async () => {
    await browser?.close();
    await stack?.close();
  });

  async function openPortal(
    context: BrowserContext,
  ): Promise<{ page: Page; violations: string[]; errors: string[] }> {
    const page = await context.newPage();
    const violations: string[] = [];
    const errors: string[] = [];
    await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { reportViolation(t: string): void }).reportViolation(
          `${e.violatedDirective} ${e.blockedURI}`,
        ),
      );
    });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('response', async (response) => {
      const headers = JSON.stringify(response.headers());
      const body = await response.text().catch(() => '');
      received.push(headers, body);
    });
    await page.goto(stack.url);
    return { page, violations, errors };
  }

  /** Every shadow root's text and attributes, and the page's storage and cookies. */
  async function everythingTheBrowserHolds(page: Page, context: BrowserContext): Promise<string> {
    // A string, not a function: the TypeScript loader would add helpers the page does not have.
    const dom = await page.evaluate<string>(`(() => {
      const parts = [];
      const walk = (root) => {
        for (const element of root.querySelectorAll('*')) {
          parts.push(element.outerHTML.slice(0, 2000));
          if (element.shadowRoot) walk(element.shadowRoot);
        }
      };
      walk(document);
      return parts.join('\\n');
    })()`);
    const storage = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    );
    const cookies = JSON.stringify(await context.cookies());
    return [dom, storage, cookies].join('\n');
  }

  it('lets Alex ask a doctor and see the answer arrive, with no CSP violation', async () => {
    const context = await browser.newContext();
    const { page, violations, errors } = await openPortal(context);

    // The case history lists Alex's consultations.
    await page.getByText('I have an itchy, dry patch', { exact: false }).first().waitFor({ timeout: 10_000 });

    // Ask a question by typing and clicking.
    const question = page.locator('consult-form textarea').first();
    await question.click();
    await question.pressSequentially('Is it safe to take ibuprofen with my blood pressure tablets?');
    await page.locator('consult-form [part~="submit-button"]').click();

    // The new consultation opens in "My consultations", and the simulated professional's answer arrives live
    // there: one live copy of the case on the page, never a second one in the form.
    const thread = page.locator('case-history consult-thread');
    await thread.filter({ hasText: 'ibuprofen with my blood pressure' }).waitFor({ timeout: 10_000 });
    await page.locator('case-history consult-thread [part~="answer"] a').first().waitFor({ timeout: 15_000 });
    const threadsOnThePage = await page.evaluate<number>(`(() => {
      let count = 0;
      const walk = (root) => {
        for (const element of root.querySelectorAll('*')) {
          if (element.localName === 'consult-thread') count++;
          if (element.shadowRoot) walk(element.shadowRoot);
        }
      };
      walk(document);
      return count;
    })()`);
    assert.equal(threadsOnThePage, 1, 'the sent question is live in exactly one place');
    const answered = await page.evaluate<string>(
      `document.querySelector('consult-session').shadowRoot.querySelector('[role=status]').textContent`,
    );
    assert.match(answered, /answered your question/, 'the session announces who answered');

    const links = await page
      .locator('case-history consult-thread [part~="answer"] a')
      .evaluateAll((as) => as.map((a) => ({ href: a.getAttribute('href'), rel: a.getAttribute('rel') })));
    assert.ok(links.length > 0);
    for (const link of links) {
      assert.match(link.href ?? '', /^https:/);
      assert.equal(link.rel, 'noopener noreferrer');
    }

    // The health navigator suggests a doctor for a symptom and hands the text to the form.
    const composer = page.locator('navigator-chat textarea');
    await composer.click();
    await composer.pressSequentially('I have had a headache and a fever since yesterday');
    await composer.press('Enter');
    await page.locator('navigator-chat [part~="handoff-button"]').click({ timeout: 10_000 });
    // The member's words are now in the form, ready to send to a doctor.
    await page.waitForFunction(
      () =>
        [...(document.querySelector('consult-form')?.shadowRoot?.querySelectorAll('textarea') ?? [])].some(
          (t) => t.value.includes('headache and a fever'),
        ),
      undefined,
      { timeout: 10_000 },
    );

    assert.deepEqual(violations, [], 'no Content Security Policy or Trusted Types violation');
    assert.deepEqual(errors, [], 'no uncaught error on the page');

    const held = await everythingTheBrowserHolds(page, context);
    const seen = [held, ...received].join('\n');
    assert.ok(upstreamTokens.size > 0, 'the proxy used an upstream token');
    assert.ok(!seen.includes(API_KEY_CANARY), 'the API key never reaches the browser');
    for (const token of upstreamTokens)
      assert.ok(!seen.includes(token), 'the upstream token never reaches the browser');
    await context.close();
  });

  it('signs Alex out with a follow-up on its way: the late answer brings nothing of his back', async () => {
    const context = await browser.newContext();
    const { page, errors } = await openPortal(context);
    /** Every shadow root's text and every field's value on the page. */
    const everything = () =>
      page.evaluate<string>(`(() => {
      const parts = [];
      const walk = (root) => {
        for (const element of root.querySelectorAll('*')) {
          if ('value' in element && typeof element.value === 'string') parts.push(element.value);
          if (element.shadowRoot) {
            parts.push(element.shadowRoot.textContent ?? '');
            walk(element.shadowRoot);
          }
        }
      };
      walk(document);
      return parts.join('\\n');
    })()`);
    // Alex opens his answered blood-pressure consultation from "My consultations".
    // A row's button is its first line (who, status, when); its subject is beside it in the row.
    await page
      .locator('case-history li')
      .filter({ hasText: '142/91' })
      .first()
      .locator('[part~="item"]')
      .click({ timeout: 10_000 });
    const followup = page.locator('case-history consult-thread [part~="followup-input"]');
    await followup.click({ timeout: 10_000 });
    await followup.pressSequentially('Kestrelmarker: should I buy a cuff?');
    const before = await everything();
    assert.ok(
      before.includes('Kestrelmarker') && before.includes('142/91'),
      'the probe sees what is on the page',
    );
    // The service is slow: the follow-up is on its way when he signs out.
    await fetch(`${stack.sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latencyMs: 2500 }),
    });
    try {
      const followUpSent = page.waitForRequest(
        (request) =>
          request.method() === 'POST' &&
          /\/consult\/consultation\/[^/]+$/.test(new URL(request.url()).pathname),
        { timeout: 10_000 },
      );
      await page.locator('case-history consult-thread [part~="submit-button"]').click();
      await followUpSent;
      await page.locator('#sign-out').click();
      // The held answer arrives after the sign-out, and more time passes for anything to land.
      await page.waitForTimeout(3500);
    } finally {
      await fetch(`${stack.sandbox.url}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ latencyMs: 0 }),
      });
    }
    const leftovers = await everything();
    for (const word of ['Kestrelmarker', '142/91', 'vitamin D', 'itchy, dry patch'])
      assert.ok(!leftovers.includes(word), `nothing of Alex's is on the page after sign-out: ${word}`);
    // The portal's header no longer says he is signed in.
    assert.equal(await page.locator('label[for="member"]').textContent(), 'Sign in as');
    assert.equal(await page.locator('#sign-out').isVisible(), false);
    assert.deepEqual(errors, [], 'no uncaught error on the page');
    await context.close();
  });

  it('takes Alex from a closed case into a new question, with focus in the form', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
    const { page, violations, errors } = await openPortal(context);
    // Alex's sleep question is closed: the thread says so once and offers the way forward.
    await page
      .locator('case-history li', { hasText: 'waking up at 4am' })
      .locator('[part~="item"]')
      .click({ timeout: 10_000 });
    const startNew = page.locator('case-history consult-thread [part~="start-new-button"]');
    await startNew.waitFor({ timeout: 10_000 });
    const thread = page.locator('case-history consult-thread');
    assert.equal(await thread.getByText('This consultation is closed.').count(), 1);
    assert.equal(await thread.getByText('questions used').count(), 0, 'no question counter on a closed case');
    await startNew.click();
    // The form, far above on a phone, takes focus in its box.
    await page.waitForFunction(
      () => document.querySelector('consult-form')?.shadowRoot?.activeElement?.localName === 'textarea',
      undefined,
      { timeout: 10_000 },
    );
    const box = page.locator('consult-form textarea').first();
    assert.ok(await box.isVisible());
    await page.keyboard.type('Still waking at 4am.');
    assert.equal(await box.inputValue(), 'Still waking at 4am.');
    assert.deepEqual(violations, []);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('shows Sam the no-subscription state and Noor the portal right to left, its own headings in Arabic', async () => {
    const context = await browser.newContext();
    const { page } = await openPortal(context);
    await page.locator('#member').selectOption('sam');
    await page.locator('#sign-in button[type=submit]').click();
    await page
      .locator('#ask')
      .getByText('Once your plan includes doctor questions')
      .waitFor({ timeout: 10_000 });
    // Nothing on Sam's page says doctor questions are part of the plan he does not have.
    const pageText = await page.evaluate(() => document.body.innerText);
    assert.doesNotMatch(pageText, /included in your/i);

    await page.locator('#member').selectOption('noor');
    await page.locator('#sign-in button[type=submit]').click();
    await page.waitForFunction(
      () =>
        document
          .querySelector('case-history')
          ?.shadowRoot?.querySelector('[part~="base"]')
          ?.getAttribute('dir') === 'rtl',
      undefined,
      { timeout: 10_000 },
    );
    // The portal's own headings speak Noor's language too, each marked Arabic and right to left.
    await page.waitForFunction(
      (history) => document.querySelector('#history-heading')?.textContent === history,
      NOOR_HEADINGS.history,
      { timeout: 10_000 },
    );
    const headings = await page
      .locator('[data-portal-text]')
      .evaluateAll((elements) =>
        elements.map((e) => [
          (e as HTMLElement).dataset.portalText,
          { text: e.textContent?.trim(), lang: e.getAttribute('lang'), dir: e.getAttribute('dir') },
        ]),
      );
    assert.deepEqual(
      Object.fromEntries(headings),
      Object.fromEntries(
        Object.entries(NOOR_HEADINGS).map(([key, text]) => [key, { text, lang: 'ar', dir: 'rtl' }]),
      ),
    );
    for (const id of ['ask-heading', 'history-heading', 'prescription-heading', 'navigator-heading'])
      assert.ok(await page.locator(`#${id}`).isVisible(), `#${id} is shown`);
    await context.close();
  });

  it('offers the way back in after sign-out as a portal button, and it signs the member in', async () => {
    const context = await browser.newContext();
    const { page, errors } = await openPortal(context);
    /** What makes a button look like one of the portal's, as the browser draws it. */
    const looks = (button: Element) => {
      const style = getComputedStyle(button);
      return {
        background: style.backgroundColor,
        color: style.color,
        radius: style.borderRadius,
        padding: style.padding,
        height: style.minHeight,
      };
    };
    // The portal's primary button as the elements draw it: the form's "Send to a doctor".
    const send = page.locator('consult-form [part~="submit-button"]');
    await send.waitFor({ timeout: 10_000 });
    const portalButton = await send.evaluate(looks);

    await page.locator('#sign-out').click();
    const signInAgain = page.locator('.sign-in-again button');
    await signInAgain.waitFor({ state: 'visible', timeout: 10_000 });
    const again = await signInAgain.evaluate(looks);
    // A button the browser draws with its own defaults, on the same page.
    const plain = await page.evaluate<{ background: string; radius: string; padding: string }>(
      `(() => {
        const button = document.body.appendChild(document.createElement('button'));
        const style = getComputedStyle(button);
        const looks = { background: style.backgroundColor, radius: style.borderRadius, padding: style.padding };
        button.remove();
        return looks;
      })()`,
    );
    const { background, color, radius, height } = portalButton;
    assert.deepEqual(
      { background: again.background, color: again.color, radius: again.radius, height: again.height },
      { background, color, radius, height },
      'the sign-in button has the portal buttons’ colours, corners and height',
    );
    for (const look of ['background', 'radius', 'padding'] as const)
      assert.notEqual(again[look], plain[look], `not the browser’s default button: ${look}`);

    await signInAgain.click();
    await page.locator('case-history [part~="item"]').first().waitFor({ timeout: 10_000 });
    assert.equal(await page.locator('#sign-out').isVisible(), true);
    assert.deepEqual(errors, [], 'no uncaught error on the page');
    await context.close();
  });
});
