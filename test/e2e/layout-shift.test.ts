/**
 * End to end: the demo portal loading for each demo member, at a phone's width and a desktop's, with
 * Chromium's own layout-shift measure (the one behind Cumulative Layout Shift). Room is reserved for
 * each element until its code arrives, its loading state is shaped like what most members then see,
 * and its language's words arrive with its code: so the page does not jump while it loads.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { startDemoStack, type DemoStack } from '../../demo/stack.js';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';

interface Shift {
  value: number;
  at: number;
  sources: string;
}

/**
 * Runs before the page's own scripts: records every layout shift not caused by input, and the
 * moment the plan notice first shows (the member's plan known), checked on every frame.
 */
const RECORDER = `(() => {
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      const sources = (entry.sources || []).map((s) => (s.node && s.node.nodeName) + ' ' + Math.round(s.previousRect.y) + '→' + Math.round(s.currentRect.y));
      window.__shifts.push({ value: entry.value, at: entry.startTime, sources: sources.join(', ') });
    }
  }).observe({ type: 'layout-shift', buffered: true });
  const watch = () => {
    const notice = document.querySelector('consult-access')?.shadowRoot?.querySelector('[data-state]');
    if (notice && window.__planShownAt === undefined) window.__planShownAt = performance.now();
    requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
})()`;

/** The page has settled: the plan notice, the list (or its empty state) and the form (or its notice) are drawn. */
const SETTLED = `(() => {
  const inside = (tag, selector) => document.querySelector(tag)?.shadowRoot?.querySelector(selector);
  return Boolean(
    inside('consult-access', '[data-state]') &&
      inside('case-history', '[part~="item"], [part~="empty"], .empty') &&
      !inside('case-history', '.loading') &&
      inside('consult-form', 'textarea, [part~="notice"]') &&
      !inside('consult-form', '#checking'),
  );
})()`;

describe('the demo portal while it loads', () => {
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

  async function load(member: string, width: number): Promise<{ shifts: Shift[]; planShownAt: number }> {
    const context = await browser.newContext({ viewport: { width, height: 812 } });
    const { hostname } = new URL(stack.url);
    await context.addCookies([
      { name: 'portal_member', value: member, domain: hostname, path: '/' },
      { name: 'portal_member_hint', value: member, domain: hostname, path: '/' },
    ]);
    const page = await context.newPage();
    await page.addInitScript(RECORDER);
    await page.goto(stack.url);
    // Polled from here: the page's CSP allows no string evaluation inside it (waitForFunction's way).
    const deadline = Date.now() + 15_000;
    while (!(await page.evaluate<boolean>(SETTLED))) {
      assert.ok(Date.now() < deadline, `the portal did not settle for ${member} at ${width} px`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Two more frames, so a shift of the last render is recorded too.
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    const shifts = await page.evaluate<Shift[]>('window.__shifts');
    const planShownAt = await page.evaluate<number>('window.__planShownAt');
    await context.close();
    return { shifts, planShownAt };
  }

  const total = (shifts: Shift[]) => shifts.reduce((sum, shift) => sum + shift.value, 0);
  const describeShifts = (shifts: Shift[]) =>
    shifts.map((s) => `${s.value.toFixed(3)} at ${Math.round(s.at)} ms: ${s.sources}`).join('; ') || 'none';

  for (const width of [375, 1280]) {
    for (const member of ['alex', 'noor']) {
      it(`barely moves for ${member}, a member with a plan, at ${width} px`, async () => {
        const { shifts } = await load(member, width);
        // Half of what the web's "good" threshold allows (0.1); measured 0 to 0.024 here.
        assert.ok(
          total(shifts) < 0.05,
          `layout shift ${total(shifts).toFixed(3)}: ${describeShifts(shifts)}`,
        );
      });
    }

    it(`holds still for Sam, with no plan, at ${width} px until his plan is known`, async () => {
      const { shifts, planShownAt } = await load('sam', width);
      assert.ok(planShownAt > 0, 'the plan notice showed');
      // The form is typeable before the plan is known, and gives way to the plan's notice when it is:
      // that is the one change of size allowed. Everything before it keeps its room.
      const before = shifts.filter((shift) => shift.at < planShownAt - 50);
      assert.ok(total(before) < 0.015, `layout shift before the plan: ${describeShifts(before)}`);
    });
  }
});
