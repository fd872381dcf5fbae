/**
 * Time to typeable, against a peer: how long after navigation starts a member can type into
 * `<consult-form>` (loaded by the module loader, and by the classic script), into deep-chat's input
 * (a widely used chat web component, loaded the way its README shows, as one module), and into a
 * plain `<textarea>`, on the portal of scripts/script-tag-portal.ts.
 *
 * Fair to every candidate: one server serves all of them, every page and file gzip -9 (compressed
 * once, as a static host with precompressed files) with the same caching headers. Chromium with 4x
 * CPU throttling loads each page `runs` times on each network profile, the candidates interleaved
 * (their order turning each round) and each load in a fresh context (nothing cached, a member's
 * first visit); medians, and ratios to deep-chat within the same run. Timed in the page from
 * navigation start (its `performance.now()`, whose origin is the navigation's start, so the HTML's
 * round trip counts). For each page also its sequential round trips until typeable, the HTML
 * included (scripts/round-trips.ts), the bytes of those files as sent (compressed, without
 * headers), and the main thread's work until then, from Chromium's own counters (all tasks, and
 * the script among them).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../scripts/find-chromium.mjs';
import { ROUND_TRIPS_IN_PAGE, type RoundTrips } from '../scripts/round-trips.js';
import { startScriptTagPortal } from '../scripts/script-tag-portal.js';
import { median } from './stats.js';

const RUNS = 12;
const CPU_SLOWDOWN = 4;

const page = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title><link rel="icon" href="data:,">${head}</head><body>${body}</body></html>`;

const FORM = '<consult-session endpoint="/consult"><consult-form></consult-form></consult-session>';
const CANDIDATES = {
  'consult-form, module': {
    path: '/consult-form',
    html: page(FORM, '<script type="module" src="/assets/consult-elements.js"></script>'),
  },
  'consult-form, classic': {
    path: '/consult-form-classic',
    html: page(FORM, '<script src="/assets/consult-elements.classic.js" defer></script>'),
  },
  'deep-chat': {
    path: '/deep-chat',
    html: page('<deep-chat></deep-chat>', '<script type="module" src="/deep-chat.js"></script>'),
  },
  textarea: {
    path: '/textarea',
    html: page('<form><label>Your question <textarea></textarea></label><button>Send</button></form>'),
  },
};
type Kind = keyof typeof CANDIDATES;

/**
 * Says on the console, at the first frame where a box that takes text is on the page, when that
 * was (performance.now(), from navigation start) and the page's round trips until then.
 * It runs in the page from its start, frame by frame, as plain script: a poller of the test
 * driver's would be injected once the page's load event fired, and its own script would then run
 * in the middle of a loader's work, delaying it.
 */
const WATCH_FOR_TYPEABLE = `(() => {
  const check = () => {
    const form = document.querySelector('consult-form');
    const chat = document.querySelector('deep-chat');
    const box =
      (form?.shadowRoot ?? document).querySelector('textarea') ??
      chat?.shadowRoot?.querySelector('#text-input[contenteditable="true"]');
    const open = box instanceof HTMLTextAreaElement ? !box.disabled && !box.readOnly : Boolean(box);
    if (box && open && box.getBoundingClientRect().height > 0) {
      const at = performance.now();
      console.debug('typeable ' + JSON.stringify({ at, ...${ROUND_TRIPS_IN_PAGE} }));
    } else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

/**
 * The network as Chromium emulates it (DevTools' throttling: each request's answer held back by
 * `latency`, the bytes paced at the throughputs, in bytes per second).
 * - "fast 3G": Chrome DevTools' preset of that name (Puppeteer's
 *   `PredefinedNetworkConditions['Fast 3G']`, "Slow 4G" in newer DevTools): 150 ms × 3.75 =
 *   562.5 ms of latency, 1.6 Mbit/s × 0.9 down, 750 kbit/s × 0.9 up. Lighthouse throttles its
 *   mobile runs with DevTools the same way (`throttling.mobileSlow4G` in its constants:
 *   `requestLatencyMs: 150 * 3.75`, throughputs × 0.9), the factors turning a 150 ms link's
 *   round trips into the latency of a whole request (DNS, TCP and TLS included).
 * - "150 ms, 1.6 Mbit/s": that link's figures taken as they are (Lighthouse's simulated
 *   `rttMs: 150`, `throughputKbps: 1.6 * 1024`), a kinder network for pages of many requests.
 */
const PROFILES = {
  unthrottled: undefined,
  'fast 3G': {
    offline: false,
    latency: 150 * 3.75,
    downloadThroughput: ((1.6 * 1000 * 1000) / 8) * 0.9,
    uploadThroughput: ((750 * 1000) / 8) * 0.9,
  },
  '150 ms, 1.6 Mbit/s': {
    offline: false,
    latency: 150,
    downloadThroughput: 200_000,
    uploadThroughput: 93_750,
  },
} as const;
type Profile = keyof typeof PROFILES;

interface Load extends RoundTrips {
  /** ms from navigation start until the box takes text. */
  at: number;
  /** The bytes of the files counted in the round trips, as sent. */
  bytes: number;
  /** The main thread's tasks, and the script among them, in ms until then. */
  busy: number;
  script: number;
}

export async function timeToTypeable({
  runs = RUNS,
  profiles = Object.keys(PROFILES) as Profile[],
}: { runs?: number; profiles?: Profile[] } = {}): Promise<void> {
  const deepChat = readFileSync(
    createRequire(import.meta.url).resolve('deep-chat/dist/deepChat.bundle.js'),
    'utf8',
  );
  const kinds = Object.keys(CANDIDATES) as Kind[];
  const portal = await startScriptTagPortal(
    {
      ...Object.fromEntries(kinds.map((kind) => [CANDIDATES[kind].path, CANDIDATES[kind].html])),
      '/deep-chat.js': deepChat,
    },
    { classic: true, gzip: true },
  );
  const browser = await chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: CHROMIUM_ARGS,
  });

  async function load(kind: Kind, profile: Profile): Promise<Load> {
    // A fresh context each time: nothing cached, as on a member's first visit.
    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      const cdp = await context.newCDPSession(tab);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
      await cdp.send('Performance.enable');
      const network = PROFILES[profile];
      if (network) {
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', network);
      }
      await tab.addInitScript(WATCH_FOR_TYPEABLE);
      const typeable = tab.waitForEvent('console', {
        predicate: (message) => message.text().startsWith('typeable '),
        timeout: 60_000,
      });
      await tab.goto(`${portal.url}${CANDIDATES[kind].path}`, { waitUntil: 'commit' });
      const seen = JSON.parse((await typeable).text().slice('typeable '.length)) as RoundTrips & {
        at: number;
      };
      // Chromium's counters, read as the box became typeable (seconds, since the tab opened): the
      // console message is on its way out by then, so they include a few ms after it.
      const { metrics } = await cdp.send('Performance.getMetrics');
      const counter = (name: string) => (metrics.find((metric) => metric.name === name)?.value ?? 0) * 1000;
      // The sizes, once the page has loaded: the HTML's entry has them only then.
      await tab.waitForLoadState('load');
      const bytes = await tab.evaluate(
        (paths) => {
          const entries = [
            ...performance.getEntriesByType('navigation'),
            ...performance.getEntriesByType('resource'),
          ] as PerformanceResourceTiming[];
          return entries
            .filter((entry) => new URL(entry.name).origin === location.origin)
            .filter((entry) => paths.includes(new URL(entry.name).pathname))
            .reduce((sum, entry) => sum + entry.encodedBodySize, 0);
        },
        seen.files.map((file) => file.path),
      );
      return { ...seen, bytes, busy: counter('TaskDuration'), script: counter('ScriptDuration') };
    } finally {
      await context.close();
    }
  }

  const loads = Object.fromEntries(
    profiles.map((profile) => [profile, Object.fromEntries(kinds.map((kind) => [kind, [] as Load[]]))]),
  ) as Record<Profile, Record<Kind, Load[]>>;
  try {
    // Every candidate on every profile in each round, the candidates' order turning from round to
    // round: a machine that slows down during the run slows them all alike.
    for (let run = 0; run < runs; run++) {
      for (const profile of profiles) {
        for (let i = 0; i < kinds.length; i++) {
          const kind = kinds[(run + i) % kinds.length] as Kind;
          loads[profile][kind].push(await load(kind, profile));
        }
      }
    }
  } finally {
    await browser.close();
    await portal.close();
  }

  const of = (profile: Profile, kind: Kind, pick: (load: Load) => number) =>
    median(loads[profile][kind].map(pick));
  for (const profile of profiles) {
    console.log(
      `Time to typeable, ${profile} (Chromium, ${CPU_SLOWDOWN}x CPU throttling, every file gzip -9, ${runs} interleaved loads each, medians)`,
    );
    const deep = (pick: (load: Load) => number) => of(profile, 'deep-chat', pick);
    for (const kind of kinds) {
      const at = of(profile, kind, (load) => load.at);
      const busy = of(profile, kind, (load) => load.busy);
      const script = of(profile, kind, (load) => load.script);
      const trips = loads[profile][kind].map((load) => load.roundTrips);
      const tripsShown =
        Math.min(...trips) === Math.max(...trips)
          ? String(trips[0])
          : `${Math.min(...trips)}–${Math.max(...trips)}`;
      console.log(
        `  ${kind.padEnd(22)} ${at.toFixed(0).padStart(6)} ms ${(at / deep((load) => load.at)).toFixed(2).padStart(5)}× deep-chat  ${tripsShown.padStart(3)} round trips  ${(of(profile, kind, (load) => load.bytes) / 1024).toFixed(1).padStart(6)} KiB  main thread ${busy.toFixed(0).padStart(4)} ms ${(busy / deep((load) => load.busy)).toFixed(2)}×, script ${script.toFixed(0).padStart(4)} ms ${(script / deep((load) => load.script)).toFixed(2)}×`,
      );
    }
  }
}
