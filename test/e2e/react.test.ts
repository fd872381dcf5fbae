/**
 * `consult-elements/react` mounted by React DOM in Chromium: a partner's React app (bundled as a
 * partner's bundler would) renders the session and the form; the member types and sends, and the
 * app's `onConsultSubmitted` prop receives the typed event; every call goes to the `endpoint` prop.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { bundleForBrowser, STRICT_CSP } from '../../demo/server.js';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';
import { startScriptTagPortal, type ScriptTagPortal } from '../../scripts/script-tag-portal.js';

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>React portal</title>
<link rel="icon" href="data:,"><script type="module" src="/react-app.js"></script></head>
<body><main id="root"></main></body></html>`;

describe('the React components in Chromium', () => {
  let portal: ScriptTagPortal;
  let browser: Browser;

  before(async () => {
    const app = await bundleForBrowser(fileURLToPath(new URL('./fixtures/react-app.ts', import.meta.url)));
    portal = await startScriptTagPortal(
      { '/react': PAGE, '/react-app.js': app },
      { pageHeaders: { 'content-security-policy': STRICT_CSP }, basePath: '/api/consult' },
    );
    browser = await chromium.launch({ executablePath: findChromium(), headless: true, args: CHROMIUM_ARGS });
  });

  after(async () => {
    await browser?.close();
    await portal?.close();
  });

  it('mounts the form in its session, and the app hears onConsultSubmitted', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    const calls: string[] = [];
    page.on('request', (request) => {
      const { origin, pathname } = new URL(request.url());
      if (origin === portal.url && !pathname.startsWith('/assets/') && !pathname.startsWith('/react'))
        calls.push(pathname);
    });
    await page.goto(`${portal.url}/react`);
    const question = page.locator('consult-session consult-form textarea').first();
    await question.click();
    await question.pressSequentially('Is it safe to take ibuprofen with my blood pressure tablets?');
    await page.locator('consult-form [part~="submit-button"]').click();
    const sent = await page.locator('#app-sent').textContent({ timeout: 15_000 });
    assert.match(sent ?? '', /^Sent: cns_\w+ \(1\)$/);
    assert.deepEqual(problems, []);
    // The endpoint prop governs every call: sign-in, the plan, the question, the stream.
    assert.ok(calls.includes('/api/consult/session'), calls.join(' '));
    assert.ok(calls.includes('/api/consult/consultation'), calls.join(' '));
    assert.deepEqual(
      calls.filter((path) => !path.startsWith('/api/consult/')),
      [],
    );
    await page.close();
  });
});
