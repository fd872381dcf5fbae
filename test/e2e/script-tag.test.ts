/**
 * The script-tag entry as a partner serves it: the built browser files from a static folder, the
 * real proxy and sandbox on loopback, a page in Chromium with one script tag. The page loads the
 * loader (which carries the session and the form) and the chunk of its language only, and the elements work. The classic script
 * on a page whose policy requires Trusted Types without allowing Lit's policy says once what to add.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';
import { answeredConsultationOfAlex } from './support/answered-consultation.js';
import { formCanSend } from './support/form-can-send.js';
import { startScriptTagPortal, type ScriptTagPortal } from '../../scripts/script-tag-portal.js';
import { STRICT_CSP } from '../../demo/server.js';

/** A page that cannot load modules: the classic script, and German from its own classic file. */
const CLASSIC_PAGE = (order: 'language first' | 'language last') => {
  const elements = '<script src="/assets/consult-elements.classic.js" defer></script>';
  const german = '<script src="/assets/consult-elements.classic.de.js" defer></script>';
  return `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Portal</title><link rel="icon" href="data:,">
${order === 'language first' ? german + elements : elements + german}</head>
<body><consult-session endpoint="/consult" lang="de"><consult-form></consult-form></consult-session></body></html>`;
};

/** An answer in markdown, and a classic page that shows its consultation. */
const MARKDOWN_ANSWER = 'Rest **well** and drink water.\n\n- Ibuprofen with food\n- See a doctor if it lasts';
let answeredId = '';
const CLASSIC_ANSWER_PAGE =
  () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Portal</title>
<link rel="icon" href="data:,"><script src="/assets/consult-elements.classic.js" defer></script></head>
<body><consult-session endpoint="/consult"><consult-thread consultation-id="${answeredId}"></consult-thread></consult-session></body></html>`;

const PAGE = `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Portal</title>
<script type="module" src="/assets/consult-elements.js"></script></head>
<body><consult-session endpoint="/consult" lang="de"><consult-form></consult-form></consult-session></body></html>`;

describe('the script-tag entry in Chromium', () => {
  let portal: ScriptTagPortal;
  let browser: Browser;

  before(async () => {
    portal = await startScriptTagPortal(
      {
        '/portal': PAGE,
        '/classic': CLASSIC_PAGE('language last'),
        '/classic-language-first': CLASSIC_PAGE('language first'),
        '/classic-answer': CLASSIC_ANSWER_PAGE,
      },
      { classic: true, pageHeaders: { 'content-security-policy': STRICT_CSP } },
    );
    answeredId = await answeredConsultationOfAlex(portal.sandbox.url, MARKDOWN_ANSWER);
    browser = await chromium.launch({ executablePath: findChromium(), headless: true, args: CHROMIUM_ARGS });
  });

  after(async () => {
    await browser?.close();
    await portal?.close();
  });

  it('loads the elements on the page and their language only, and the form works', async () => {
    const page = await browser.newPage();
    const scripts: string[] = [];
    const errors: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${portal.url}/portal`);
    await formCanSend(page, 15_000);
    const text = await page.evaluate(
      () => document.querySelector('consult-form')!.shadowRoot!.textContent ?? '',
    );
    assert.match(text, /Ihre Frage/, 'the form speaks the German its session was given');
    assert.deepEqual(errors, []);

    // Chunk names without their content hash: `chunks/de-B9x5uO3P.js` is `de`.
    const names = scripts.map((path) =>
      path.endsWith('/consult-elements.js')
        ? 'consult-elements.js'
        : path.replace(/^.*\/chunks\/(.+)-[\w-]{8}\.js$/, '$1'),
    );
    // The session, the form and their English strings are in the loader itself; German comes as a
    // chunk of its own, and nothing else before the form works (the chunk with the form's thread
    // comes once the page is idle: test/e2e/loader-waves.test.ts checks when).
    assert.deepEqual(
      names.filter((name) => name !== 'messaging').sort(),
      ['consult-elements.js', 'de'],
      names.join(', '),
    );
    await page.close();
  });

  for (const path of ['/classic', '/classic-language-first']) {
    it(`the classic script works where modules cannot load (${path}): German, a question sent`, async () => {
      const page = await browser.newPage();
      const scripts: string[] = [];
      const problems: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
      });
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      await page.goto(`${portal.url}${path}`);
      const submit = page.locator('consult-form [part~="submit-button"]');
      await submit.filter({ hasText: 'An eine Ärztin oder einen Arzt senden' }).waitFor({ timeout: 15_000 });
      // Typeable with the main file and the language only: markdown comes later, if at all.
      assert.deepEqual([...scripts].sort(), [
        '/assets/consult-elements.classic.de.js',
        '/assets/consult-elements.classic.js',
      ]);
      const question = page.locator('consult-form textarea').first();
      await question.click();
      await question.pressSequentially('Seit zwei Wochen habe ich Kopfschmerzen.');
      await submit.click();
      await page.locator('consult-form consult-thread').waitFor({ timeout: 15_000 });
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  it('the classic script shows an answer as markdown, with marked and DOMPurify from their own classic file, under the strict policy', async () => {
    const page = await browser.newPage();
    const scripts: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    await page.goto(`${portal.url}/classic-answer`);
    const bold = page.locator('consult-thread strong', { hasText: 'well' });
    await bold.waitFor({ timeout: 15_000 });
    for (const item of ['Ibuprofen with food', 'See a doctor if it lasts']) {
      const listed = page.locator('consult-thread ul > li', { hasText: new RegExp(`^${item}$`) });
      assert.equal(await listed.count(), 1, `"${item}" is an item of a list`);
    }
    const answerText = await page
      .locator('consult-thread')
      .evaluate((thread) => thread.shadowRoot!.textContent);
    assert.doesNotMatch(answerText ?? '', /\*\*well\*\*/, 'no markdown left as text once rendered');
    assert.deepEqual(problems, []);
    assert.deepEqual(scripts.sort(), [
      '/assets/consult-elements.classic.js',
      '/assets/consult-elements.classic.markdown.js',
    ]);
    await page.close();
  });

  for (const trustedTypes of ["trusted-types 'none'", 'trusted-types dompurify']) {
    it(`the classic script on a page that requires Trusted Types and allows no policy of Lit's (${trustedTypes}): says once what to add`, async () => {
      const page = await browser.newPage();
      const said: string[] = [];
      page.on('console', (message) => said.push(message.text()));
      // The page's own policy, with the elements' Trusted Types policies left out.
      const policy = STRICT_CSP.replace('trusted-types lit-html dompurify', trustedTypes);
      assert.notEqual(policy, STRICT_CSP);
      assert.match(policy, /require-trusted-types-for 'script'/);
      await page.route(`${portal.url}/classic`, async (route) => {
        const response = await route.fetch();
        await route.fulfill({
          response,
          headers: { ...response.headers(), 'content-security-policy': policy },
        });
      });
      await page.goto(`${portal.url}/classic`);
      const hint = (text: string) => text.startsWith('consult-elements:') && text.includes('Trusted Types');
      const deadline = Date.now() + 10_000;
      while (!said.some(hint) && Date.now() < deadline) await page.waitForTimeout(100);
      // Long enough for a second report, were there one.
      await page.waitForTimeout(1500);
      const hints = said.filter(hint);
      assert.equal(hints.length, 1, said.join('\n'));
      assert.match(hints[0] ?? '', /add "trusted-types lit-html dompurify" to it/);
      await page.close();
    });
  }
});
