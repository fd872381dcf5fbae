/**
 * `npm run screenshots`: the demo portal as members see it, in headless Chromium, at 1280, 375 and
 * 320 px wide, light and dark, English and Arabic, written to `docs/screenshots/`; then the
 * conversation gallery of the README (a thread with two answers, waiting, the limit reached,
 * closed, an answer that came while the member was away, the connection lost, a navigator
 * message sent offline, signed out, an urgent navigator reply, a prescription request sent and
 * found again on a later visit), each at 1280 px light, 375 px dark and in Arabic. The demo runs on free ports with its simulated
 * professionals, exactly as `npm start` runs it.
 */
import { mkdirSync } from 'node:fs';
import { chromium, type Page } from 'playwright-core';
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
  // A member whose plan does not include doctors: each card as tall as what it says.
  { name: 'phone-no-plan', width: 375, height: 812, scheme: 'light', member: 'sam' },
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
  // The narrowest phones.
  { name: 'narrow-light', width: 320, height: 700, scheme: 'light', member: 'alex' },
  { name: 'narrow-arabic', width: 320, height: 700, scheme: 'light', member: 'noor' },
  {
    name: 'wide-sent-arabic',
    width: 1280,
    height: 900,
    scheme: 'light',
    member: 'noor',
    send: 'هل يمكنني تناول الإيبوبروفين؟',
  },
] as const;

/** How the gallery's pictures are taken: wide and light, a phone in dark mode, and in Arabic. */
const GALLERY_VARIANTS = [
  { suffix: 'wide', width: 1280, height: 900, scheme: 'light', lang: '' },
  { suffix: 'phone-dark', width: 375, height: 812, scheme: 'dark', lang: '' },
  { suffix: 'arabic', width: 1280, height: 900, scheme: 'light', lang: 'ar' },
] as const;

const inHistory = (page: Page, selector: string) => page.locator(`case-history consult-thread ${selector}`);

/** Opens the member's `index`th consultation in the list. */
async function openCase(page: Page, index: number): Promise<void> {
  await page.locator('case-history [part~="item"]').nth(index).click();
  await inHistory(page, '[part~="question"]').first().waitFor({ timeout: 15_000 });
}

/** Each scene brings the page to a state and names the element to picture. */
const ONLY = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);

/** Whether the sandbox has answered the member's question `text`. */
const answered = (text: string) =>
  [...stack.sandbox.sandbox.state.consultations.values()].some((c) =>
    c.questions.some((q) => q.question === text && q.answer),
  );

async function send(page: Page, text: string): Promise<void> {
  const question = page.locator('consult-form textarea').first();
  await question.click();
  await question.pressSequentially(text);
  await page.locator('consult-form [part~="submit-button"]').click();
  await inHistory(page, '[part~="waiting"]').waitFor({ timeout: 15_000 });
}

/** `target` is the element pictured; `page` pictures the whole screen. */
const GALLERY_SCENES: { name: string; target: string; act(page: Page): Promise<void> }[] = [
  {
    name: 'thread-answers',
    target: 'case-history',
    // Alex's rash case: two questions, each answered.
    act: async (page) => {
      await openCase(page, 2);
      await inHistory(page, '[part~="answer"] p').nth(1).waitFor({ timeout: 15_000 });
    },
  },
  {
    name: 'thread-waiting',
    target: 'case-history',
    act: (page) => send(page, 'I have had a dry cough for two weeks. Should I worry?'),
  },
  {
    name: 'thread-limit',
    target: 'case-history',
    act: async (page) => {
      await openCase(page, 2);
      const box = inHistory(page, '[part~="followup-input"]');
      await box.click();
      await box.pressSequentially('Can I use it on my child as well?');
      await inHistory(page, '[part~="submit-button"]').click();
      await inHistory(page, '[part~="start-new-button"]').waitFor({ timeout: 15_000 });
    },
  },
  {
    name: 'thread-closed',
    target: 'case-history',
    act: async (page) => {
      await openCase(page, 3);
      await inHistory(page, '[part~="start-new-button"]').waitFor({ timeout: 15_000 });
    },
  },
  {
    name: 'navigator-urgent',
    target: 'navigator-chat',
    act: async (page) => {
      const box = page.locator('navigator-chat textarea');
      await box.click();
      await box.pressSequentially('I have crushing chest pain and my left arm feels numb');
      await box.press('Enter');
      await page.locator('navigator-chat .message.urgent').waitFor({ timeout: 15_000 });
    },
  },
  {
    name: 'unread-next-visit',
    target: 'case-history',
    // Asked, the tab closed, the answer came meanwhile: on the next visit the row says so.
    act: async (page) => {
      const text = 'My toddler has a red rash on his cheeks. Should I worry?';
      await send(page, text);
      // Back to the list and away: the next visit opens on the list, not on this thread.
      await page.locator('case-history [part~="back-button"]').click();
      await page.goto('about:blank');
      // A professional answers while the member is away (now, rather than at the simulation's pace).
      const asked = [...stack.sandbox.sandbox.state.consultations.values()].find(
        (c) => c.questions[0]?.question === text,
      );
      if (asked && !answered(text)) {
        await fetch(`${stack.sandbox.url}/_sandbox/consultations/${asked.consultationId}/answer`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            answer:
              'A red rash on the cheeks of a toddler is often **slapped cheek syndrome**, a mild virus.',
          }),
        });
      }
      const until = Date.now() + 15_000;
      while (!answered(text) && Date.now() < until) await new Promise((r) => setTimeout(r, 250));
      await new Promise((r) => setTimeout(r, 500));
      await page.goto(`${stack.url}/`);
      await page.locator('case-history [part~="item"] [part~="unread"]').first().waitFor({ timeout: 15_000 });
    },
  },
  {
    name: 'reconnecting',
    target: 'page',
    // The connection lost: one calm notice, and the question queued until it is back.
    act: async (page) => {
      await page.context().setOffline(true);
      const question = page.locator('consult-form textarea').first();
      await question.click();
      await question.pressSequentially('Is it safe to fly with a cold?');
      await page.locator('consult-session [part~="connection"]').first().waitFor({ timeout: 15_000 });
    },
  },
  {
    name: 'navigator-offline',
    target: 'navigator-chat',
    // A message sent while offline waits, as the question form's would, and goes when the connection is back.
    act: async (page) => {
      await page.context().setOffline(true);
      await page.locator('consult-session [part~="connection"]').first().waitFor({ timeout: 15_000 });
      const box = page.locator('navigator-chat textarea');
      await box.click();
      await box.pressSequentially('How much water should I drink a day?');
      await box.press('Enter');
      await page.locator('navigator-chat [part~="message"]').last().waitFor({ timeout: 15_000 });
    },
  },
  {
    name: 'signed-out',
    target: 'page',
    act: async (page) => {
      await page.locator('#sign-out').click();
      await page.locator('.sign-in-again button').first().waitFor({ timeout: 15_000 });
    },
  },
  {
    name: 'prescription-found-again',
    target: 'prescription-request',
    // A request sent on an earlier visit: its reference and time, not what was asked.
    act: async (page) => {
      await GALLERY_SCENES.find((scene) => scene.name === 'prescription-sent')?.act(page);
      const language = await page.locator('#language').inputValue();
      await page.reload();
      // The portal's language menu starts again at the member's language: the picture's is chosen again.
      await page.locator('case-history [part~="item"]').first().waitFor({ timeout: 15_000 });
      if (language) await page.selectOption('#language', language);
      await page.locator('prescription-request [part~="request"]').first().waitFor({ timeout: 15_000 });
    },
  },
  {
    name: 'prescription-sent',
    target: 'prescription-request',
    act: async (page) => {
      const form = page.locator('prescription-request');
      const fields = form.locator('textarea, input[type="text"]');
      for (let i = 0; i < (await fields.count()); i++)
        await fields.nth(i).fill('Salbutamol inhaler, as before');
      const yes = form.locator('input[type="radio"]');
      for (let i = 0; i < (await yes.count()); i += 2) await yes.nth(i).check();
      await form.locator('[part~="submit-button"]').click();
      await form.locator('[part~="notice"], [part~="sent"]').first().waitFor({ timeout: 15_000 });
    },
  },
];

mkdirSync(OUT, { recursive: true });
const stack = await startDemoStack({ port: 0, sandbox: { port: 0 }, logger: () => undefined });
const browser = await chromium.launch({
  executablePath: findChromium(),
  headless: true,
  args: CHROMIUM_ARGS,
});
try {
  for (const view of VIEWS.filter((v) => !ONLY || v.name.startsWith(ONLY))) {
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
      () => document.querySelector('case-history')?.shadowRoot?.querySelector('[part~=item], [part~=empty]'),
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
  for (const variant of GALLERY_VARIANTS) {
    for (const scene of GALLERY_SCENES.filter((g) => !ONLY || g.name.startsWith(ONLY))) {
      // A fresh demo per picture: each scene starts from the seeded data.
      stack.sandbox.sandbox.reset();
      const context = await browser.newContext({
        viewport: { width: variant.width, height: variant.height },
        colorScheme: variant.scheme,
        deviceScaleFactor: 1,
      });
      const { hostname } = new URL(stack.url);
      await context.addCookies([
        { name: 'portal_member', value: 'alex', domain: hostname, path: '/' },
        { name: 'portal_member_hint', value: 'alex', domain: hostname, path: '/' },
      ]);
      const page = await context.newPage();
      await page.goto(`${stack.url}/`);
      await page.locator('case-history [part~="item"]').first().waitFor({ timeout: 15_000 });
      if (variant.lang) await page.selectOption('#language', variant.lang);
      try {
        await scene.act(page);
        await page.waitForTimeout(300);
        const path = `${OUT}/${scene.name}-${variant.suffix}.png`;
        if (scene.target === 'page') await page.screenshot({ path });
        else await page.locator(scene.target).screenshot({ path });
        console.log(path);
      } catch (error) {
        console.error(`${scene.name}-${variant.suffix}: ${(error as Error).message.split('\n')[0]}`);
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  await stack.close();
}
