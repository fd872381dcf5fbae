/**
 * The page's main thread while the member's data is on its way: `<consult-access>`, `<case-history>`
 * and `<consult-thread>` inside `<consult-session>` on the script-tag portal, each read held so that
 * they show their loading placeholders, in Chromium at 1x and 4x CPU, each load in a fresh context.
 * For each: the share of the main thread busy over 3 s once the placeholders show (Chromium's own
 * counter of its tasks, over the time watched), with the placeholders moving and with the member
 * asking for less motion (nothing moves: the floor). Loads interleaved; medians.
 *
 * `node --import tsx bench/waiting.ts [runs]` runs it alone; `npm run bench` runs it with the rest.
 */
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../scripts/find-chromium.mjs';
import { startScriptTagPortal } from '../scripts/script-tag-portal.js';
import { median } from './stats.js';

const WATCHED_MS = 3000;
const SLOWDOWNS = [1, 4] as const;
const MOTIONS = ['no-preference', 'reduce'] as const;

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title><link rel="icon" href="data:,">
<script type="module" src="/assets/consult-elements.js"></script></head>
<body><consult-session endpoint="/consult"><consult-access></consult-access><case-history></case-history>
<consult-thread consultation-id="cns_waiting"></consult-thread></consult-session></body></html>`;

/** The share of the main thread busy while the page shows its placeholders. */
async function busyShare(
  browser: Browser,
  url: string,
  slowdown: number,
  reducedMotion: (typeof MOTIONS)[number],
): Promise<number> {
  const context = await browser.newContext({ reducedMotion });
  try {
    const tab = await context.newPage();
    // The plan, the list and the consultation are never answered: the placeholders stay.
    await tab.route(/\/subscriptions|\/case-history|\/consultation\/cns_waiting/, () => undefined);
    const cdp = await context.newCDPSession(tab);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
    await cdp.send('Performance.enable');
    await tab.goto(url);
    await tab.waitForFunction(
      () =>
        ['consult-access', 'case-history', 'consult-thread'].every((tag) =>
          document.querySelector(tag)?.shadowRoot?.querySelector('.loading'),
        ),
      null,
      { timeout: 30_000 },
    );
    // The page's own start is over.
    await tab.waitForTimeout(500);
    // Chromium's counters, in seconds: its tasks' time, and its clock.
    const counters = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      const value = (name: string) => metrics.find((metric) => metric.name === name)?.value ?? 0;
      return { busy: value('TaskDuration'), at: value('Timestamp') };
    };
    const before = await counters();
    await tab.waitForTimeout(WATCHED_MS);
    const after = await counters();
    return (after.busy - before.busy) / (after.at - before.at);
  } finally {
    await context.close();
  }
}

export async function whileWaiting(runs = 6): Promise<void> {
  const portal = await startScriptTagPortal({ '/waiting': PAGE }, { gzip: true });
  const browser = await chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const shares = new Map<string, number[]>();
  try {
    for (let run = 0; run < runs; run++) {
      for (const slowdown of SLOWDOWNS) {
        const order = run % 2 ? [...MOTIONS].reverse() : MOTIONS;
        for (const motion of order) {
          const key = `${slowdown}:${motion}`;
          shares.set(key, [
            ...(shares.get(key) ?? []),
            await busyShare(browser, `${portal.url}/waiting`, slowdown, motion),
          ]);
        }
      }
    }
  } finally {
    await browser.close();
    await portal.close();
  }
  console.log(
    `The main thread while the member's data is on its way (three elements' placeholders, Chromium, ${runs} loads each, medians)`,
  );
  for (const slowdown of SLOWDOWNS) {
    const moving = median(shares.get(`${slowdown}:no-preference`) ?? []);
    const still = median(shares.get(`${slowdown}:reduce`) ?? []);
    console.log(
      `  ${slowdown}x CPU: busy ${(moving * 100).toFixed(2)}% of the time with the placeholders pulsing, ${(still * 100).toFixed(2)}% with less motion asked for`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await whileWaiting(Number(process.argv[2] ?? 6));
