/**
 * Hostile answers under the demo's exact Content Security Policy: a professional answers with the
 * attack corpus, one consultation per class of attack, and the member's page (the built script-tag
 * files, served with the policy) shows every answer in `<consult-thread>`. Chromium must report no
 * CSP or Trusted Types violation at all (docs/security.md S13), nothing may run, and the words of each
 * answer must still be there to read.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { STRICT_CSP } from '../../demo/server.js';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';
import { startScriptTagPortal, type ScriptTagPortal } from '../../scripts/script-tag-portal.js';
import { ConsultClient } from '../../src/client/client.js';
import { DEFAULT_API_KEY } from '../../src/sandbox/sandbox.js';
import { XSS_PAYLOADS_BY_CLASS } from '../browser/fixtures/xss-payloads.js';

/** Consultation id by class of attack. */
const answered = new Map<string, string>();

const page = () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Answers</title>
<script type="module" src="/assets/consult-elements.js"></script></head>
<body><consult-session endpoint="/consult">
${[...answered.values()].map((id) => `<consult-thread consultation-id="${id}"></consult-thread>`).join('\n')}
</consult-session></body></html>`;

/**
 * Runs before any script of the page: records violations and anything a payload would call. A
 * string, so the test's compiler adds no helpers the page does not have.
 */
const WATCH_THE_PAGE = `
  const seen = (window.__seen = []);
  document.addEventListener('securitypolicyviolation', (event) =>
    seen.push('violation ' + event.effectiveDirective + ' ' + event.blockedURI + ' ' + event.sample));
  for (const name of ['alert', 'confirm', 'prompt']) {
    Object.defineProperty(window, name, { value: () => void seen.push(name + ' called') });
  }
  window.__xss = 0;
`;

describe('hostile answers under the demo’s strict CSP', () => {
  let portal: ScriptTagPortal;
  let browser: Browser;

  before(async () => {
    portal = await startScriptTagPortal(
      { '/answers': page },
      { pageHeaders: { 'content-security-policy': STRICT_CSP } },
    );
    const upstream = new ConsultClient({ baseUrl: portal.sandbox.url, apiKey: DEFAULT_API_KEY });
    const [alex] = await upstream.searchUsersByQuery('alex');
    assert.ok(alex, 'the sandbox has alex');
    for (const [attack, payloads] of Object.entries(XSS_PAYLOADS_BY_CLASS)) {
      const { consultationId } = await upstream.createConsultation({
        userId: alex.id,
        questions: [`A question answered with ${attack}`],
      });
      const response = await fetch(`${portal.sandbox.url}/_sandbox/consultations/${consultationId}/answer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ answer: payloads.join('\n\n') }),
      });
      assert.equal(response.status, 200, `the answer with ${attack} was given`);
      answered.set(attack, consultationId);
    }
    browser = await chromium.launch({ executablePath: findChromium(), headless: true, args: CHROMIUM_ARGS });
  });

  after(async () => {
    await browser?.close();
    await portal?.close();
  });

  it('shows every answer with no violation reported and nothing run', async () => {
    const context = await browser.newContext();
    const tab = await context.newPage();
    const consoleErrors: string[] = [];
    const outside: string[] = [];
    tab.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(`${message.text()} ${message.location().url}`);
    });
    tab.on('pageerror', (error) => consoleErrors.push(error.message));
    tab.on('dialog', (dialog) => void dialog.dismiss());
    // No request may leave for anything an answer names: images, styles, scripts, frames.
    tab.on('request', (request) => {
      if (!request.url().startsWith(portal.url)) outside.push(request.url());
    });
    await tab.addInitScript(WATCH_THE_PAGE);
    // The page has no icon; its 404 is not about answers.
    await tab.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
    await tab.goto(`${portal.url}/answers`);

    const threads = answered.size;
    await tab.waitForFunction(
      (count) =>
        [...document.querySelectorAll('consult-thread')].filter((thread) =>
          Boolean(thread.shadowRoot?.querySelector('[part~=answer] p')),
        ).length === count,
      threads,
      { timeout: 30_000 },
    );
    // Give load and error events, animations and timers a chance to fire.
    await tab.waitForTimeout(500);

    const { seen, xss } = await tab.evaluate(() => {
      const page = window as unknown as { __seen: string[]; __xss: number };
      return { seen: page.__seen, xss: page.__xss };
    });
    assert.deepEqual(seen, [], 'no violation, and no payload ran');
    assert.equal(xss, 0, 'no payload ran');
    assert.deepEqual(consoleErrors, [], 'nothing reported on the console');
    assert.deepEqual(outside, [], 'no request left the page’s origin');

    // The answers are there to read: each shows its payloads' words as text.
    const answers = await tab.evaluate(() =>
      [...document.querySelectorAll('consult-thread')].map(
        (thread) => thread.shadowRoot!.querySelector('[part~=answer]')!.textContent ?? '',
      ),
    );
    assert.equal(answers.length, threads);
    const eventHandlers = answers[[...answered.keys()].indexOf('event handlers')]!;
    assert.match(eventHandlers, /onerror=alert\(1\)/, 'raw HTML is shown as the text it is');
    await context.close();
  });
});
