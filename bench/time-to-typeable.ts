/**
 * Time to typeable, against a peer: how long after navigation a member can type into
 * `<consult-form>` (loaded by the module loader, and by the classic script), into deep-chat's input
 * (a widely used chat web component, loaded the way its README shows, as one module), and into a
 * plain `<textarea>`, on the portal of scripts/script-tag-portal.ts. Chromium with 4x CPU
 * throttling loads each page 12 times, interleaved, each in a fresh context (nothing cached), with
 * no network throttling and with a 3G-like profile (150 ms round trips, 1.6 Mbit/s down); medians,
 * reported as ratios. Also the bytes each page loads (gzip -9 of every response) and its
 * sequential round trips: the longest chain of the page's requests where each was asked for
 * only after the one before it had arrived. And the main thread's work until then, from Chromium's
 * own counters (all tasks, and the script among them): what runs before the first frame.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../scripts/find-chromium.mjs';
import { startScriptTagPortal } from '../scripts/script-tag-portal.js';
import { median } from './stats.js';

const RUNS = 12;
const CPU_SLOWDOWN = 4;

const page = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title><link rel="icon" href="data:,">${head}</head><body>${body}</body></html>`;

const FORM = '<consult-session endpoint="/consult"><consult-form></consult-form></consult-session>';
const PAGES = {
  'consult-form': page(FORM, '<script type="module" src="/assets/consult-elements.js"></script>'),
  'consult-form, classic': page(FORM, '<script src="/assets/consult-elements.classic.js" defer></script>'),
  'deep-chat': page('<deep-chat></deep-chat>', '<script type="module" src="/deep-chat.js"></script>'),
  textarea: page('<form><label>Your question <textarea></textarea></label><button>Send</button></form>'),
};
type Kind = keyof typeof PAGES;

/**
 * Says on the console, at the first frame where a box that takes text is on the page, when that
 * was (performance.now()). It runs in the page from its start, frame by frame, as plain script:
 * a poller of the test driver's would be injected once the page's load event fired, and its own
 * script would then run in the middle of a loader's work, delaying it.
 */
const WATCH_FOR_TYPEABLE = `(() => {
  const check = () => {
    const form = document.querySelector('consult-form');
    const chat = document.querySelector('deep-chat');
    const box =
      (form?.shadowRoot ?? document).querySelector('textarea') ??
      chat?.shadowRoot?.querySelector('#text-input[contenteditable="true"]');
    const open = box instanceof HTMLTextAreaElement ? !box.disabled && !box.readOnly : Boolean(box);
    if (box && open && box.getBoundingClientRect().height > 0) console.debug('typeable ' + performance.now());
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

/** A 3G-like network, as Lighthouse's mobile profile: 150 ms round trips, 1.6 Mbit/s down, 750 kbit/s up. */
const PROFILES = {
  'no network throttling': undefined,
  '3G-like': { offline: false, latency: 150, downloadThroughput: 200_000, uploadThroughput: 93_750 },
} as const;
type Profile = keyof typeof PROFILES;

/**
 * The page's sequential round trips until now: each request's wave is one more than the latest
 * wave among the requests that had arrived before it was asked for.
 */
function countRoundTrips(tab: Page): () => number {
  const requests: { asked: number; arrived: number }[] = [];
  const open = new Map<object, { asked: number; arrived: number }>();
  tab.on('request', (request) => {
    if (!/document|script/.test(request.resourceType())) return;
    const entry = { asked: performance.now(), arrived: Infinity };
    open.set(request, entry);
    requests.push(entry);
  });
  tab.on('requestfinished', (request) => {
    const entry = open.get(request);
    if (entry) entry.arrived = performance.now();
  });
  return () => {
    const sorted = [...requests].sort((a, b) => a.asked - b.asked);
    const waves: number[] = [];
    sorted.forEach((request, i) => {
      let wave = 1;
      for (let j = 0; j < i; j++) {
        if ((sorted[j]?.arrived ?? Infinity) <= request.asked) wave = Math.max(wave, (waves[j] ?? 0) + 1);
      }
      waves.push(wave);
    });
    return Math.max(0, ...waves);
  };
}

/** The gzip -9 size of every response the page receives, until it is typeable. */
function countBytes(tab: Page): () => Promise<number> {
  const sizes: Promise<number>[] = [];
  tab.on('response', (response) => {
    sizes.push(
      response
        .body()
        .then((body) => gzipSync(body, { level: 9 }).byteLength)
        .catch(() => 0),
    );
  });
  return async () => (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0);
}

export async function timeToTypeable({
  runs = RUNS,
  profiles = Object.keys(PROFILES) as Profile[],
}: { runs?: number; profiles?: Profile[] } = {}): Promise<void> {
  const deepChat = readFileSync(
    createRequire(import.meta.url).resolve('deep-chat/dist/deepChat.bundle.js'),
    'utf8',
  );
  const portal = await startScriptTagPortal(
    {
      '/consult-form': PAGES['consult-form'],
      '/consult-form-classic': PAGES['consult-form, classic'],
      '/deep-chat': PAGES['deep-chat'],
      '/deep-chat.js': deepChat,
      '/textarea': PAGES.textarea,
    },
    { classic: true },
  );
  const paths: Record<Kind, string> = {
    'consult-form': '/consult-form',
    'consult-form, classic': '/consult-form-classic',
    'deep-chat': '/deep-chat',
    textarea: '/textarea',
  };
  const browser = await chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const kinds = Object.keys(PAGES) as Kind[];
    for (const profile of profiles) {
      const times = Object.fromEntries(kinds.map((kind) => [kind, [] as number[]])) as Record<Kind, number[]>;
      const bytes = Object.fromEntries(kinds.map((kind) => [kind, [] as number[]])) as Record<Kind, number[]>;
      const trips = Object.fromEntries(kinds.map((kind) => [kind, [] as number[]])) as Record<Kind, number[]>;
      const busy = Object.fromEntries(kinds.map((kind) => [kind, [] as number[]])) as Record<Kind, number[]>;
      const script = Object.fromEntries(kinds.map((kind) => [kind, [] as number[]])) as Record<
        Kind,
        number[]
      >;
      for (let run = 0; run < runs; run++) {
        for (const kind of kinds) {
          // A fresh context each time: nothing cached, as on a member's first visit.
          const context = await browser.newContext();
          const tab = await context.newPage();
          const cdp = await context.newCDPSession(tab);
          await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
          await cdp.send('Performance.enable');
          const network = PROFILES[profile];
          if (network) {
            await cdp.send('Network.enable');
            await cdp.send('Network.emulateNetworkConditions', network);
          }
          const loaded = countBytes(tab);
          const roundTrips = countRoundTrips(tab);
          await tab.addInitScript(WATCH_FOR_TYPEABLE);
          const typeable = tab.waitForEvent('console', {
            predicate: (message) => message.text().startsWith('typeable '),
            timeout: 60_000,
          });
          await tab.goto(`${portal.url}${paths[kind]}`);
          times[kind].push(Number((await typeable).text().slice('typeable '.length)));
          // Chromium's counters, read as the box became typeable (seconds, since the tab opened): the
          // console message is on its way out by then, so they include a few ms after it.
          const { metrics } = await cdp.send('Performance.getMetrics');
          const counter = (name: string) =>
            (metrics.find((metric) => metric.name === name)?.value ?? 0) * 1000;
          busy[kind].push(counter('TaskDuration'));
          script[kind].push(counter('ScriptDuration'));
          trips[kind].push(roundTrips());
          bytes[kind].push(await loaded());
          await context.close();
        }
      }
      console.log(
        `Time to typeable, ${profile} (Chromium, ${CPU_SLOWDOWN}x CPU throttling, ${runs} interleaved loads each, medians)`,
      );
      const deep = median(times['deep-chat']);
      for (const kind of kinds) {
        console.log(
          `  ${kind.padEnd(22)} ${median(times[kind]).toFixed(0).padStart(6)} ms  ${(median(times[kind]) / deep).toFixed(2).padStart(5)}× deep-chat  ${String(median(trips[kind])).padStart(2)} round trips  ${(median(bytes[kind]) / 1024).toFixed(1).padStart(6)} KiB gzip  main thread ${median(busy[kind]).toFixed(0).padStart(4)} ms ${(median(busy[kind]) / median(busy['deep-chat'])).toFixed(2)}×, script ${median(script[kind]).toFixed(0).padStart(4)} ms ${(median(script[kind]) / median(script['deep-chat'])).toFixed(2)}×`,
        );
      }
    }
  } finally {
    await browser.close();
    await portal.close();
  }
}
