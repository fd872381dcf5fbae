/**
 * An answer from recorded to on the member's screen, in Chromium: the sandbox records a
 * professional's answer, its webhook reaches the proxy, the member's open stream hears the hint, the
 * page reads the consultation again through the proxy and `<consult-thread>` shows the answer as
 * markdown. Against two bare SSE pages on `node:http`, each the least its way can cost:
 * - **hint**: the server writes a hint to its open streams, and the page reads the record and shows
 *   its text (the same way as ours, without a webhook, a proxy or an upstream);
 * - **push**: the server writes the answer itself into the stream, and the page shows it.
 *
 * The clock starts when the answer is recorded (a call in this process: the sandbox's own record,
 * the bare server's map) and stops when the answer's text is in the page's DOM (a MutationObserver,
 * so no frame is waited for). The page's time is brought onto this process's clock by the shortest
 * of several round trips to it. Neither side compresses its reads or streams (the proxy sends small
 * JSON as it is); how the pages load is not timed. One page of each is opened, then answered in
 * turn, the order turning each round. Everything, browser included, shares the same two cores.
 * Ratios within one run; never pass/fail.
 *
 * `node --import tsx bench/answer-visible.ts [rounds]` runs it alone; `npm run bench` runs it with
 * the rest.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../scripts/find-chromium.mjs';
import { startScriptTagPortal } from '../scripts/script-tag-portal.js';
import { DEMO_USER_IDS } from '../src/sandbox/seed.js';
import { median, percentile } from './stats.js';

const WARM_UP_ROUNDS = 3;
const SLOWDOWNS = [1, 4] as const;

/** An answer as a professional writes it: a few paragraphs and a list, with the round's mark. */
const answerText = (mark: string) => `Thank you for the detail (${mark}).

A rash like this is most often a contact dermatitis: the skin reacting to something it touched.

- Wash the area with lukewarm water and a mild soap, and pat it dry.
- Use a fragrance-free moisturizer twice a day.
- Avoid the new detergent or lotion for a week.

If it spreads, blisters, or you get a fever, **see a doctor in person** within a day.`;

const THREAD_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title><link rel="icon" href="data:,">
<script type="module" src="/assets/consult-elements.js"></script></head>
<body><consult-session endpoint="/consult"><consult-thread></consult-thread></consult-session></body></html>`;

/** The bare page: one EventSource, and the answer shown as text, read again (`hint`) or from the event (`push`). */
const barePage = (
  way: 'hint' | 'push',
) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title><link rel="icon" href="data:,"></head>
<body><main id="answers"></main><script>
const answers = document.getElementById('answers');
const show = (text) => { const p = document.createElement('p'); p.textContent = text; answers.append(p); };
const events = new EventSource('/${way}/events');
events.onmessage = ${
  way === 'push'
    ? `(event) => show(JSON.parse(event.data).answer);`
    : `async (event) => { const { id } = JSON.parse(event.data); show((await (await fetch('/record/' + id)).json()).answer); };`
}
events.onopen = () => console.debug('open');
</script></body></html>`;

/** The bare server: pages, streams, and `record(id, answer)`, which writes to its streams at once. */
async function startBare() {
  const records = new Map<string, { id: string; answer: string }>();
  const streams = { hint: new Set<ServerResponse>(), push: new Set<ServerResponse>() };
  const server = createServer((request, response) => {
    const [, first = '', second = ''] = (request.url ?? '').split('/');
    if ((first === 'hint' || first === 'push') && second === 'events') {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      response.write(': open\n\n');
      streams[first].add(response);
      request.socket.once('close', () => streams[first].delete(response));
    } else if (first === 'hint' || first === 'push') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
      response.end(barePage(first));
    } else if (first === 'record') {
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      response.end(JSON.stringify(records.get(second) ?? { id: second }));
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    record(id: string, answer: string) {
      records.set(id, { id, answer });
      for (const stream of streams.hint) stream.write(`data: ${JSON.stringify({ id })}\n\n`);
      for (const stream of streams.push) stream.write(`data: ${JSON.stringify({ id, answer })}\n\n`);
    },
    close() {
      for (const stream of [...streams.hint, ...streams.push]) stream.destroy();
      server.close();
    },
  };
}

/** This process's clock, as milliseconds since the epoch. */
const now = () => performance.timeOrigin + performance.now();

/** How far the page's clock is ahead of this process's: from the quickest of several asks. */
async function clockOffset(page: Page): Promise<number> {
  let best = Infinity;
  let offset = 0;
  for (let i = 0; i < 15; i++) {
    const before = now();
    const there = await page.evaluate(() => performance.timeOrigin + performance.now());
    const after = now();
    if (after - before < best) {
      best = after - before;
      offset = there - (before + after) / 2;
    }
  }
  return offset;
}

/**
 * Watches `root` (a selector of the page, then its shadow root when it has one) until its text
 * holds `mark`, and resolves with when that was, on this process's clock.
 */
async function whenShown(
  page: Page,
  offset: number,
  selector: string,
  mark: string,
): Promise<() => Promise<number>> {
  await page.evaluate(
    ({ selector, mark }) => {
      const host = document.querySelector(selector) as HTMLElement;
      const root: Node = host.shadowRoot ?? host;
      const observer = new MutationObserver(() => {
        if (!root.textContent?.includes(mark)) return;
        observer.disconnect();
        console.debug(`shown ${performance.timeOrigin + performance.now()}`);
      });
      observer.observe(root, { subtree: true, childList: true, characterData: true });
    },
    { selector, mark },
  );
  const shown = page.waitForEvent('console', {
    predicate: (message) => message.text().startsWith('shown '),
    timeout: 30_000,
  });
  return async () => Number((await shown).text().slice('shown '.length)) - offset;
}

export async function answerVisible(rounds = 20): Promise<void> {
  const portal = await startScriptTagPortal(
    { '/thread': THREAD_PAGE },
    {
      gzip: true,
      webhooks: true,
      // Each round reads three times; the default of 120 calls a minute is a member's, not a benchmark's.
      limits: { perMemberPerMinute: 1_000_000, perAddressPerMinute: 1_000_000 },
    },
  );
  await portal.proxy.proxy.ready;
  const bare = await startBare();
  const { state } = portal.sandbox.sandbox;
  const browser = await chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    for (const slowdown of SLOWDOWNS) {
      const pages = {} as Record<'ours' | 'hint' | 'push', Page>;
      for (const [name, url] of [
        ['ours', `${portal.url}/thread`],
        ['hint', `${bare.url}/hint`],
        ['push', `${bare.url}/push`],
      ] as const) {
        const page = await (await browser.newContext()).newPage();
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
        if (name !== 'ours') {
          const open = page.waitForEvent('console', { predicate: (message) => message.text() === 'open' });
          await page.goto(url);
          await open;
        } else {
          await page.goto(url);
        }
        pages[name] = page;
      }
      const offsets = {
        ours: await clockOffset(pages.ours),
        hint: await clockOffset(pages.hint),
        push: await clockOffset(pages.push),
      };
      const times = { ours: [] as number[], hint: [] as number[], push: [] as number[] };
      const parts = { hinted: [] as number[], read: [] as number[], shown: [] as number[] };
      for (let round = 0; round < WARM_UP_ROUNDS + rounds; round++) {
        const order = (['ours', 'hint', 'push'] as const).map((_, i, all) => all[(i + round) % 3] ?? 'ours');
        for (const name of order) {
          const mark = `answer mark ${slowdown}-${round}`;
          let ms: number;
          if (name === 'ours') {
            // A new question, shown and claimed before the clock starts, as a professional claims long before answering.
            const asked = state.createConsultation(DEMO_USER_IDS.alex, [
              `Question ${slowdown}-${round}: a rash?`,
            ]);
            const id = asked.consultationId;
            const page = pages.ours;
            await page.evaluate(
              (id) => document.querySelector('consult-thread')?.setAttribute('consultation-id', id),
              id,
            );
            await page.waitForFunction(
              (text) => document.querySelector('consult-thread')?.shadowRoot?.textContent?.includes(text),
              `Question ${slowdown}-${round}`,
            );
            const reads = () =>
              page.evaluate(
                (id) =>
                  performance
                    .getEntriesByType('resource')
                    .filter((entry) => entry.name.endsWith(`/consultation/${id}`)).length,
                id,
              );
            const before = await reads();
            state.claim(id);
            while ((await reads()) === before) await new Promise((resolve) => setTimeout(resolve, 5));
            await new Promise((resolve) => setTimeout(resolve, 50));
            const shown = await whenShown(page, offsets.ours, 'consult-thread', mark);
            const recorded = now();
            state.answer(id, answerText(mark));
            ms = (await shown()) - recorded;
            const read = await page.evaluate((id) => {
              const entry = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
                .filter((entry) => entry.name.endsWith(`/consultation/${id}`))
                .at(-1);
              return { start: performance.timeOrigin + (entry?.startTime ?? 0), ms: entry?.duration ?? 0 };
            }, id);
            if (round >= WARM_UP_ROUNDS) {
              parts.hinted.push(read.start - offsets.ours - recorded);
              parts.shown.push(ms - (read.start - offsets.ours - recorded) - read.ms);
            }
            if (round >= WARM_UP_ROUNDS) parts.read.push(read.ms);
          } else {
            const shown = await whenShown(pages[name], offsets[name], '#answers', mark);
            const recorded = now();
            bare.record(`case-${slowdown}-${round}-${name}`, answerText(mark));
            ms = (await shown()) - recorded;
          }
          if (round >= WARM_UP_ROUNDS) times[name].push(ms);
        }
      }
      for (const page of Object.values(pages)) await page.context().close();
      const line = (label: string, ms: number[]) =>
        `  ${label.padEnd(52)} median ${median(ms).toFixed(1).padStart(5)} ms, p90 ${percentile(
          [...ms].sort((a, b) => a - b),
          0.9,
        )
          .toFixed(1)
          .padStart(5)} ms`;
      console.log(
        `An answer from recorded to on screen (Chromium, ${slowdown}x CPU, ${rounds} rounds each, alternating)`,
      );
      console.log(line('ours: sandbox → webhook → proxy → stream → read → thread', times.ours));
      console.log(
        `    the page asks for the consultation after ${median(parts.hinted).toFixed(1)} ms, its read through the proxy takes ${median(parts.read).toFixed(1)} ms, the thread shows it ${median(parts.shown).toFixed(1)} ms after (medians)`,
      );
      console.log(line('bare SSE page, hint then read', times.hint));
      console.log(line('bare SSE page, the answer in the event', times.push));
      console.log(
        `  ours / bare hint: ${(median(times.ours) / median(times.hint)).toFixed(2)}×, ours / bare push: ${(
          median(times.ours) / median(times.push)
        ).toFixed(2)}× (medians)`,
      );
    }
  } finally {
    await browser.close();
    bare.close();
    await portal.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await answerVisible(Number(process.argv[2] ?? 20));
