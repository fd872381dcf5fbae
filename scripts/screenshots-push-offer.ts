/**
 * `tsx scripts/screenshots-push-offer.ts`: the notifications offer as members see it after
 * sending a question in the demo portal (under the waiting note of the question's thread, which
 * the list opens beside the form, with the service's own notifications beside it), at 1280 px
 * light, 375 px dark and in Arabic, written to `docs/screenshots/push-offer-*.png`.
 */
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { startDemoStack } from '../demo/stack.js';
import { CHROMIUM_ARGS, findChromium } from './find-chromium.mjs';

const OUT = 'docs/screenshots';
const VIEWS = [
  {
    name: 'push-offer-wide',
    width: 1280,
    height: 900,
    scheme: 'light',
    member: 'alex',
    question: 'Is it safe to run with a mild cold?',
  },
  {
    name: 'push-offer-phone-dark',
    width: 375,
    height: 812,
    scheme: 'dark',
    member: 'alex',
    question: 'Is it safe to run with a mild cold?',
  },
  {
    name: 'push-offer-arabic',
    width: 1280,
    height: 900,
    scheme: 'light',
    member: 'noor',
    question: 'هل الجري آمن مع نزلة برد خفيفة؟',
  },
] as const;

mkdirSync(OUT, { recursive: true });
const stack = await startDemoStack({
  port: 0,
  sandbox: { port: 0, professionals: { mode: 'manual' } },
  logger: () => undefined,
});
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
    const page = await context.newPage();
    await page.goto(stack.url);
    if (view.member !== 'alex') {
      await page.locator('#member').selectOption(view.member);
      await page.locator('#sign-in button[type=submit]').click();
      await page.waitForTimeout(1500);
    }
    const question = page.locator('consult-form textarea').first();
    await question.waitFor({ timeout: 10_000 });
    await question.click();
    await question.fill(view.question);
    await page.locator('consult-form [part~="submit-button"]').click();
    const thread = page.locator('case-history consult-thread');
    await thread.locator('[part~="push-offer"]').waitFor({ timeout: 10_000 });
    await thread.locator('[part~="service-notifications"]').waitFor({ timeout: 10_000 });
    await thread.scrollIntoViewIfNeeded();
    await thread.screenshot({ path: `${OUT}/${view.name}.png` });
    console.log(`${OUT}/${view.name}.png`);
    await context.close();
  }
} finally {
  await browser.close();
  await stack.close();
}
