/**
 * `npm run screenshots`: the demo portal as members see it, in headless Chromium, at 1280 px and
 * 375 px wide, light and dark, English and Arabic, written to `docs/screenshots/`. The demo runs
 * on free ports with its simulated professionals, exactly as `npm start` runs it.
 */
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { startDemoStack } from '../demo/stack.js';
import { CHROMIUM_ARGS, findChromium } from './find-chromium.mjs';

const OUT = 'docs/screenshots';
const VIEWS = [
  { name: 'wide-light', width: 1280, height: 900, scheme: 'light', member: 'alex' },
  { name: 'wide-dark', width: 1280, height: 900, scheme: 'dark', member: 'alex' },
  { name: 'phone-light', width: 375, height: 812, scheme: 'light', member: 'alex' },
  { name: 'phone-dark', width: 375, height: 812, scheme: 'dark', member: 'alex' },
  { name: 'wide-arabic', width: 1280, height: 900, scheme: 'light', member: 'noor' },
  { name: 'phone-arabic', width: 375, height: 812, scheme: 'light', member: 'noor' },
  // An answered consultation opened from the list: the thread with its professional.
  { name: 'wide-thread', width: 1280, height: 900, scheme: 'light', member: 'alex', open: 2 },
  { name: 'phone-thread-dark', width: 375, height: 812, scheme: 'dark', member: 'alex', open: 2 },
  // A question sent from the form: it opens in the list, where its answer arrives; the form starts afresh.
  {
    name: 'wide-sent',
    width: 1280,
    height: 900,
    scheme: 'light',
    member: 'alex',
    send: 'Can I take ibuprofen?',
  },
  {
    name: 'phone-sent-dark',
    width: 375,
    height: 812,
    scheme: 'dark',
    member: 'alex',
    send: 'Can I take ibuprofen?',
  },
  {
    name: 'wide-sent-arabic',
    width: 1280,
    height: 900,
    scheme: 'light',
    member: 'noor',
    send: 'هل يمكنني تناول الإيبوبروفين؟',
  },
] as const;

mkdirSync(OUT, { recursive: true });
const stack = await startDemoStack({ port: 0, sandbox: { port: 0 }, logger: () => undefined });
const browser = await chromium.launch({
  executablePath: findChromium(),
  headless: true,
  args: CHROMIUM_ARGS,
});
try {
  for (const view of VIEWS) {
    const context = await browser.newContext({
      viewport: { width: view.width, height: view.height },
      colorScheme: view.scheme,
      deviceScaleFactor: 1,
    });
    const { hostname } = new URL(stack.url);
    await context.addCookies([
      { name: 'portal_member', value: view.member, domain: hostname, path: '/' },
      { name: 'portal_member_hint', value: view.member, domain: hostname, path: '/' },
    ]);
    const page = await context.newPage();
    await page.goto(`${stack.url}/`);
    // The event stream stays open, so the page never goes idle: wait for the member's list instead.
    await page.waitForFunction(
      () =>
        (document.querySelector('case-history')?.shadowRoot?.querySelectorAll('[part~=item]').length ?? 0) >
        0,
      null,
      { timeout: 15_000 },
    );
    if ('open' in view) {
      await page.evaluate((index) => {
        const items = document
          .querySelector('case-history')
          ?.shadowRoot?.querySelectorAll<HTMLElement>('[part~=item]');
        items?.[index]?.click();
      }, view.open);
      await page.waitForFunction(
        () =>
          document
            .querySelector('case-history')
            ?.shadowRoot?.querySelector('consult-thread')
            ?.shadowRoot?.querySelector('[part~=answer] p'),
        null,
        { timeout: 15_000 },
      );
    }
    if ('send' in view) {
      const question = page.locator('consult-form textarea').first();
      await question.click();
      await question.pressSequentially(view.send);
      await page.locator('consult-form [part~="submit-button"]').click();
      await page
        .locator('case-history consult-thread [part~="answer"] p')
        .first()
        .waitFor({ timeout: 20_000 });
    }
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${OUT}/${view.name}.png`, fullPage: process.argv.includes('--full') });
    console.log(`${OUT}/${view.name}.png`);
    await context.close();
  }
} finally {
  await browser.close();
  await stack.close();
}
