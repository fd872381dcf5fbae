/**
 * End to end: two Content Security Policy mistakes a partner makes, on the demo portal in
 * Chromium. The page's policy is changed on its way to the browser; the elements then say on the
 * console, once, what to add, and a connection the policy refuses is not tried again and again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { STRICT_CSP } from '../../demo/server.js';
import { startDemoStack, type DemoStack } from '../../demo/stack.js';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';

describe('the elements on a page whose policy is missing something', () => {
  let stack: DemoStack;
  let browser: Browser;

  before(async () => {
    stack = await startDemoStack({ port: 0, sandbox: { port: 0 }, logger: () => undefined });
    browser = await chromium.launch({ executablePath: findChromium(), headless: true, args: CHROMIUM_ARGS });
  });

  after(async () => {
    await browser?.close();
    await stack?.close();
  });

  /** Opens the portal with `policy` instead of its own; answers what the console and the policy reported. */
  async function openWith(policy: string): Promise<{ page: Page; said: string[]; violations: string[] }> {
    const page = await browser.newPage();
    const said: string[] = [];
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.text().startsWith('consult-elements:')) said.push(message.text());
    });
    await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { reportViolation(t: string): void }).reportViolation(
          `${e.effectiveDirective} ${e.blockedURI}`,
        ),
      );
    });
    await page.route(`${stack.url}/`, async (route) => {
      const response = await route.fetch();
      await route.fulfill({
        response,
        headers: { ...response.headers(), 'content-security-policy': policy },
      });
    });
    await page.goto(stack.url);
    return { page, said, violations };
  }

  it('a connect-src that leaves out the proxy: said once, naming the directive, and not retried', async () => {
    const { page, said, violations } = await openWith(
      STRICT_CSP.replace("connect-src 'self'", "connect-src 'none'"),
    );
    const blockedNow = () =>
      violations.filter((v) => v.startsWith('connect-src') && v.includes('/consult/session'));
    const deadline = Date.now() + 15_000;
    while (!(blockedNow().length > 0 && said.some((text) => text.includes('connect-src')))) {
      assert.ok(
        Date.now() < deadline,
        `blocked and said: ${violations.join('; ')} said: ${said.join(' | ')}`,
      );
      await page.waitForTimeout(50);
    }
    // Then long enough for the sign-in's retries (about a second and a half with their backoff) to run.
    await page.waitForTimeout(4000);
    const blocked = blockedNow();
    assert.equal(
      blocked.length,
      1,
      `one attempt, not retried: ${violations.join('; ')} said: ${said.join(' | ')}`,
    );
    const about = said.filter((text) => text.includes('connect-src'));
    assert.equal(about.length, 1, said.join('\n'));
    assert.match(
      about[0] ?? '',
      /Content Security Policy blocked .*\/consult\/session: add 'self' to its connect-src/,
    );
    await page.close();
  });

  it('a policy without the elements’ Trusted Types policies: said once, with the directive to add', async () => {
    const { page, said } = await openWith(
      STRICT_CSP.replace('trusted-types lit-html dompurify', 'trusted-types dompurify'),
    );
    const deadline = Date.now() + 10_000;
    while (!said.some((text) => text.includes('trusted-types')) && Date.now() < deadline) {
      await page.waitForTimeout(100);
    }
    const about = said.filter((text) => text.includes('Trusted Types'));
    assert.equal(about.length, 1, said.join('\n'));
    assert.match(about[0] ?? '', /add "trusted-types lit-html dompurify"/);
    await page.close();
  });
});
