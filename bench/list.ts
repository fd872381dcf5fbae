/**
 * A long case history against a short one: `<case-history>` inside `<consult-session>` on the
 * script-tag portal (scripts/script-tag-portal.ts), for a member with 1,000 consultations and one
 * with 10, loaded in turn in Chromium at 1x and 4x CPU, each load in a fresh context. For each: when
 * the list's first rows are on screen (from navigation start, so the HTML, the loader, sign-in and
 * the read count alike) and the longest task after the read arrived (the browser's long tasks, those
 * of 50 ms and more; 0 when there was none), and how that time splits: the read of the history from
 * its request to its last byte (the proxy and the sandbox answering, on the same cores as the
 * browser), then the page's own work to the first rows. Both portals are read from first, so that
 * the servers' code is optimized before any load counts. Ratios are 1,000 to 10 within the same run.
 *
 * `node --import tsx bench/list.ts [runs]` runs it alone; `npm run bench` runs it with the rest.
 */
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../scripts/find-chromium.mjs';
import { startScriptTagPortal, type ScriptTagPortal } from '../scripts/script-tag-portal.js';
import { ConsultClient } from '../src/client/index.js';
import { median } from './stats.js';

const SIZES = [10, 1000] as const;
const SLOWDOWNS = [1, 4] as const;

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title><link rel="icon" href="data:,">
<script type="module" src="/assets/consult-elements.js"></script></head>
<body><consult-session endpoint="/consult"><case-history></case-history></consult-session></body></html>`;

/**
 * In the page from its start: the long tasks, and on the console, at the first frame with a row of
 * the list, when that was.
 */
const WATCH = `(() => {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  const check = () => {
    const row = document.querySelector('case-history')?.shadowRoot?.querySelector('[part~=list] [part~=item]');
    if (row && row.getBoundingClientRect().height > 0) console.debug('listed ' + performance.now());
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

interface Load {
  listedAt: number;
  /** When the page asked for the history (the HTML, the loader and sign-in before it). */
  readAskedAt: number;
  longestAfterRead: number;
  /** The read of the history, from its request to its last byte (the proxy and the sandbox answering). */
  readMs: number;
  /** From the read's last byte to the first rows on screen (the page's own work). */
  afterReadMs: number;
}

/** A portal whose member has `count` consultations, each with a question and an answer. */
export async function portalWith(count: number): Promise<ScriptTagPortal> {
  const member = `bench-list-${count}`;
  const portal = await startScriptTagPortal({ '/history': PAGE }, { member, gzip: true });
  const upstream = new ConsultClient({
    baseUrl: portal.sandbox.url,
    apiKey: portal.sandbox.sandbox.apiKeys[0] ?? 'sandbox-api-key',
  });
  const user = await upstream.createUser({ uniqueId: member });
  await upstream.createSubscription(user.id);
  const start = Date.parse('2024-01-01T00:00:00Z');
  for (let i = 0; i < count; i++) {
    const id = `cns_bench_${String(i).padStart(4, '0')}`;
    portal.sandbox.sandbox.state.consultations.set(id, {
      consultationId: id,
      userId: user.id,
      status: i % 3 === 0 ? 'resolved' : 'closed',
      createdAt: new Date(start + i * 3_600_000).toISOString(),
      questions: [
        {
          question: `Question number ${i} about something that worries me a little.`,
          answer: 'Rest, drink water, and come back if it lasts.',
        },
      ],
    } as never);
  }
  return portal;
}

/**
 * Reads first, as a browser makes them, so that the servers' code is optimized before any load
 * counts (within the proxy's limits for one member: 120 calls and 30 sign-ins a minute; each load
 * adds a sign-in and a few calls, so many more than the default runs in a minute would meet them).
 */
const WARM_UP_READS = 20;

/** Signs in once and reads the history `WARM_UP_READS` times, as the page does. */
async function warmUp(url: string): Promise<void> {
  const grant = (await (
    await fetch(`${url}/consult/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: '{}',
    })
  ).json()) as { token: string; user: { id: string } };
  for (let i = 0; i < WARM_UP_READS; i++) {
    const read = await fetch(`${url}/consult/user/${grant.user.id}/case-history`, {
      headers: { authorization: `Bearer ${grant.token}`, 'accept-encoding': 'gzip, deflate, br' },
    });
    if (!read.ok) throw new Error(`the warm-up read answered ${read.status}`);
    await read.arrayBuffer();
  }
}

async function load(browser: Browser, portal: { url: string }, slowdown: number): Promise<Load> {
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    const cdp = await context.newCDPSession(tab);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
    await tab.addInitScript(WATCH);
    const listed = tab.waitForEvent('console', {
      predicate: (message) => message.text().startsWith('listed '),
      timeout: 60_000,
    });
    await tab.goto(`${portal.url}/history`, { waitUntil: 'commit' });
    const listedAt = Number((await listed).text().slice('listed '.length));
    // Whatever follows the first rows (the rest of the render, seen-marks, a stream) has a second.
    await tab.waitForTimeout(1000 * slowdown);
    const { longestAfterRead, readStart, readEnd } = await tab.evaluate(() => {
      const read = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((entry) =>
        entry.name.includes('case-history'),
      );
      const tasks = (window as unknown as { __longTasks: { start: number; duration: number }[] }).__longTasks;
      const after = read ? read.responseEnd : 0;
      return {
        longestAfterRead: Math.max(
          0,
          ...tasks.filter((task) => task.start + task.duration >= after).map((task) => task.duration),
        ),
        readStart: read ? read.requestStart : 0,
        readEnd: after,
      };
    });
    return {
      listedAt,
      readAskedAt: readStart,
      longestAfterRead,
      readMs: readEnd - readStart,
      afterReadMs: listedAt - readEnd,
    };
  } finally {
    await context.close();
  }
}

export async function longList(runs = 8): Promise<void> {
  const portals = [] as ScriptTagPortal[];
  for (const size of SIZES) portals.push(await portalWith(size));
  for (const portal of portals) await warmUp(portal.url);
  const browser = await chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const loads = new Map<string, Load[]>();
  const loadsOf = (size: number, slowdown: number) => {
    const key = `${size}@${slowdown}`;
    if (!loads.has(key)) loads.set(key, []);
    return loads.get(key) as Load[];
  };
  try {
    for (let run = 0; run < runs; run++) {
      for (const slowdown of SLOWDOWNS) {
        // The order turning each round: a machine that slows down slows both alike.
        const order = run % 2 ? [1, 0] : [0, 1];
        for (const index of order) {
          loadsOf(SIZES[index] as number, slowdown).push(
            await load(browser, portals[index] as ScriptTagPortal, slowdown),
          );
        }
      }
    }
  } finally {
    await browser.close();
    for (const portal of portals) await portal.close();
  }
  for (const slowdown of SLOWDOWNS) {
    console.log(
      `Case history, 1,000 consultations against 10 (Chromium, ${slowdown}x CPU, ${runs} loads each, medians)`,
    );
    const of = (size: number, pick: (load: Load) => number) => median(loadsOf(size, slowdown).map(pick));
    for (const size of SIZES) {
      const worst = Math.max(...loadsOf(size, slowdown).map((load) => load.longestAfterRead));
      console.log(
        `  ${String(size).padStart(5)} consultations: first rows at ${of(size, (load) => load.listedAt)
          .toFixed(0)
          .padStart(5)} ms, longest task after the read ${of(size, (load) => load.longestAfterRead)
          .toFixed(0)
          .padStart(
            4,
          )} ms (worst ${worst.toFixed(0)} ms); the read asked at ${of(size, (load) => load.readAskedAt).toFixed(0)} ms, ${of(size, (load) => load.readMs).toFixed(0)} ms from request to last byte, then ${of(size, (load) => load.afterReadMs).toFixed(0)} ms to the first rows`,
      );
    }
    console.log(
      `  1,000 / 10: ${(of(1000, (load) => load.listedAt) / of(10, (load) => load.listedAt)).toFixed(2)}×`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await longList(Number(process.argv[2] ?? 8));
