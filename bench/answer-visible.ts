/**
 * An answer from recorded to on the member's screen, in Chromium: the sandbox records a
 * professional's answer, its webhook reaches the proxy, the member's open stream hears the hint, the
 * page reads the consultation again through the proxy and `<consult-thread>` shows the answer as
 * markdown. Against three bare SSE pages on `node:http`, each the least its way can cost:
 * - **chain**: ours built bare, the floor of its design: the record's server sends an unsigned
 *   webhook to a relay, which reads the record again to learn whose it is, then hints; the page
 *   reads the record through the relay and shows its text (no signature, token, limit, check,
 *   projection or markdown);
 * - **hint**: the server writes a hint to its open streams, and the page reads the record and shows
 *   its text (the same way as ours, without a webhook, a proxy or an upstream);
 * - **push**: the server writes the answer itself into the stream, and the page shows it.
 *
 * The clock starts when the answer is recorded (a call in this process: the sandbox's own record,
 * the bare server's map) and stops when the answer's text is in the page's DOM (a MutationObserver,
 * so no frame is waited for). The page's time is brought onto this process's clock by the shortest
 * of several round trips to it. Neither side compresses its reads or streams (the proxy sends small
 * JSON as it is); how the pages load is not timed. One page of each is opened, then answered in
 * turn, the order turning each round, each page's CPU slowed only while it is answered; then pages
 * of ours and of the hint page, each opened afresh and left until it is idle, answered once: the
 * first answer a page shows costs it more than the next (code run for the first time, the
 * browser's data for the formatters). Everything, browser included, shares the same two cores.
 * Ratios within one run; never pass/fail.
 *
 * `node --import tsx bench/answer-visible.ts [rounds] [first answers]` runs it alone; `npm run
 * bench` runs it with the rest.
 */
import { Agent, createServer, request as httpRequest, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
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
  way: 'hint' | 'push' | 'chain',
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

/** An open event stream of a bare server: its head, a first comment, and the response kept to write to. */
function openStream(
  response: ServerResponse,
  into: Set<ServerResponse>,
  request: { socket: { once: (event: 'close', run: () => void) => void } },
) {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  response.write(': open\n\n');
  into.add(response);
  request.socket.once('close', () => into.delete(response));
}

const sendJson = (response: ServerResponse, body: unknown) => {
  response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
};

/**
 * The bare servers: one that records answers and tells its own pages (`hint`, `push`), and a bare
 * chain built the way ours is, with nothing else (`chain`): the record's server sends a webhook
 * (`{ id }`, unsigned) to a relay, which reads the record again to learn whose it is, writes a hint
 * to its streams and answers; its page reads the record through the relay, which forwards the
 * read as it is. No signature, token, limit, check or projection; the answer shown as text.
 */
async function startBare() {
  const records = new Map<string, { id: string; answer: string }>();
  const streams = {
    hint: new Set<ServerResponse>(),
    push: new Set<ServerResponse>(),
    chain: new Set<ServerResponse>(),
  };
  const listen = async (server: ReturnType<typeof createServer>) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const server = createServer((request, response) => {
    const [, first = '', second = ''] = (request.url ?? '').split('/');
    if ((first === 'hint' || first === 'push') && second === 'events') {
      openStream(response, streams[first], request);
    } else if (first === 'hint' || first === 'push') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
      response.end(barePage(first));
    } else if (first === 'record') {
      sendJson(response, records.get(second) ?? { id: second });
    } else {
      response.writeHead(404).end();
    }
  });
  const url = await listen(server);
  // Keep-alive both ways, as the proxy and the service keep their connections.
  const agent = new Agent({ keepAlive: true });
  const call = (target: string, method: 'GET' | 'POST', body?: string) =>
    new Promise<string>((resolve, reject) => {
      const outgoing = httpRequest(target, { method, agent }, (incoming) => {
        let text = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () => resolve(text));
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  const relay = createServer((request, response) => {
    const [, first = '', second = ''] = (request.url ?? '').split('/');
    if (first === 'chain' && second === 'events') {
      openStream(response, streams.chain, request);
    } else if (first === 'chain') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
      response.end(barePage('chain'));
    } else if (first === 'webhook') {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', async () => {
        const { id } = JSON.parse(body) as { id: string };
        await call(`${url}/record/${id}`, 'GET');
        for (const stream of streams.chain) stream.write(`data: ${JSON.stringify({ id })}\n\n`);
        response.writeHead(204).end();
      });
    } else if (first === 'record') {
      void call(`${url}/record/${second}`, 'GET').then((text) => {
        response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        response.end(text);
      });
    } else {
      response.writeHead(404).end();
    }
  });
  const relayUrl = await listen(relay);
  return {
    url,
    relayUrl,
    /** Records an answer and tells the pages of one way only: the other pages do nothing meanwhile. */
    record(id: string, answer: string, way: 'hint' | 'push' | 'chain') {
      records.set(id, { id, answer });
      if (way === 'chain') {
        void call(`${relayUrl}/webhook`, 'POST', JSON.stringify({ id }));
        return;
      }
      const data = JSON.stringify(way === 'hint' ? { id } : { id, answer });
      for (const stream of streams[way]) stream.write(`data: ${data}\n\n`);
    },
    close() {
      for (const stream of [...streams.hint, ...streams.push, ...streams.chain]) stream.destroy();
      agent.destroy();
      server.close();
      relay.close();
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

type Name = 'ours' | 'hint' | 'push' | 'chain';
const NAMES = ['ours', 'chain', 'hint', 'push'] as const;

type Bare = Awaited<ReturnType<typeof startBare>>;
type SandboxState = Awaited<ReturnType<typeof startScriptTagPortal>>['sandbox']['sandbox']['state'];

/** One answer to each kind of page, timed; for ours, also when the page asked and how long its read took. */
interface Answered {
  ms: number;
  /** Ours only: when the page asked for the consultation, and its read through the proxy. */
  askedAfter?: number;
  readMs?: number;
}

/** An open page, and the way to set how many times its CPU is slowed. */
interface OpenPage {
  page: Page;
  offset: number;
  slowDown(rate: number): Promise<void>;
}

/** A page of `name` in a context of its own, its CPU slowed `slowdown` times, open and listening. */
async function openPage(browser: Browser, name: Name, url: string, slowdown: number): Promise<OpenPage> {
  const page = await (await browser.newContext()).newPage();
  const cdp = await page.context().newCDPSession(page);
  const slowDown = (rate: number) =>
    cdp.send('Emulation.setCPUThrottlingRate', { rate }).then(() => undefined);
  await slowDown(slowdown);
  if (name !== 'ours') {
    const open = page.waitForEvent('console', { predicate: (message) => message.text() === 'open' });
    await page.goto(url);
    await open;
  } else {
    await page.goto(url);
  }
  return { page, offset: await clockOffset(page), slowDown };
}

/**
 * A new question in our thread, shown and claimed before the clock starts (as a professional
 * claims long before answering), then answered.
 */
async function answerOurs(page: Page, offset: number, state: SandboxState, label: string): Promise<Answered> {
  const id = state.createConsultation(DEMO_USER_IDS.alex, [`Question ${label}: a rash?`]).consultationId;
  await page.evaluate(
    (id) => document.querySelector('consult-thread')?.setAttribute('consultation-id', id),
    id,
  );
  await page.waitForFunction(
    (text) => document.querySelector('consult-thread')?.shadowRoot?.textContent?.includes(text),
    `Question ${label}`,
  );
  const reads = () =>
    page.evaluate(
      (id) =>
        performance.getEntriesByType('resource').filter((entry) => entry.name.endsWith(`/consultation/${id}`))
          .length,
      id,
    );
  const before = await reads();
  state.claim(id);
  while ((await reads()) === before) await new Promise((resolve) => setTimeout(resolve, 5));
  await new Promise((resolve) => setTimeout(resolve, 50));
  const mark = `answer mark ${label}`;
  const shown = await whenShown(page, offset, 'consult-thread', `(${mark})`);
  const recorded = now();
  state.answer(id, answerText(mark));
  const ms = (await shown()) - recorded;
  const read = await page.evaluate((id) => {
    const entry = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((entry) => entry.name.endsWith(`/consultation/${id}`))
      .at(-1);
    return { start: performance.timeOrigin + (entry?.startTime ?? 0), ms: entry?.duration ?? 0 };
  }, id);
  return { ms, askedAfter: read.start - offset - recorded, readMs: read.ms };
}

async function answerBare(
  page: Page,
  offset: number,
  bare: Bare,
  name: Name,
  label: string,
): Promise<Answered> {
  const way = name === 'ours' ? 'hint' : name;
  // Before the clock, as ours reads and shows its thread twice: an answer of its own, shown.
  const before = `before ${name} ${label}`;
  const warm = await whenShown(page, offset, '#answers', `(${before})`);
  bare.record(`case-${label}-${name}-before`, answerText(before), way);
  await warm();
  const mark = `answer mark ${name} ${label}`;
  const shown = await whenShown(page, offset, '#answers', `(${mark})`);
  const recorded = now();
  bare.record(`case-${label}-${name}`, answerText(mark), way);
  return { ms: (await shown()) - recorded };
}

const line = (label: string, ms: number[]) =>
  `  ${label.padEnd(52)} median ${median(ms).toFixed(1).padStart(5)} ms, p90 ${percentile(
    [...ms].sort((a, b) => a - b),
    0.9,
  )
    .toFixed(1)
    .padStart(5)} ms`;

/**
 * `rounds` answers to one open page of each kind, in turn, after a few not counted; then
 * `firstAnswers` pages of ours and of the hint page, each opened afresh and left until it is idle,
 * answered once: the first answer a page shows costs it more than the next.
 */
export async function answerVisible(rounds = 30, firstAnswers = 8): Promise<void> {
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
  const urls: Record<Name, string> = {
    ours: `${portal.url}/thread`,
    chain: `${bare.relayUrl}/chain`,
    hint: `${bare.url}/hint`,
    push: `${bare.url}/push`,
  };
  const answer = (name: Name, { page, offset }: OpenPage, label: string) =>
    name === 'ours' ? answerOurs(page, offset, state, label) : answerBare(page, offset, bare, name, label);
  try {
    for (const slowdown of SLOWDOWNS) {
      // The pages wait at full speed and are slowed only for their own answer: with all four slowed
      // at once, every page's answers took about half as long again at 4x, the bare ones too.
      const open = {} as Record<Name, OpenPage>;
      for (const name of NAMES) open[name] = await openPage(browser, name, urls[name], 1);
      const answered: Record<Name, Answered[]> = { ours: [], hint: [], push: [], chain: [] };
      for (let round = 0; round < WARM_UP_ROUNDS + rounds; round++) {
        const order = NAMES.map((_, i, all) => all[(i + round) % all.length] ?? 'ours');
        for (const name of order) {
          await open[name].slowDown(slowdown);
          const result = await answer(name, open[name], `${slowdown}-${round}`);
          await open[name].slowDown(1);
          if (round >= WARM_UP_ROUNDS) answered[name].push(result);
        }
      }
      for (const { page } of Object.values(open)) await page.context().close();
      const firsts: Record<'ours' | 'hint', number[]> = { ours: [], hint: [] };
      for (let load = 0; load < firstAnswers; load++) {
        for (const name of load % 2 ? (['hint', 'ours'] as const) : (['ours', 'hint'] as const)) {
          const fresh = await openPage(browser, name, urls[name], slowdown);
          // Long enough for the page to be idle (and what it does at idle done) at either speed.
          await new Promise((resolve) => setTimeout(resolve, 3000));
          firsts[name].push((await answer(name, fresh, `${slowdown}-first-${load}`)).ms);
          await fresh.page.context().close();
        }
      }
      const ms = (name: Name) => answered[name].map((result) => result.ms);
      const of = (pick: (result: Answered) => number | undefined) =>
        median(answered.ours.map((result) => pick(result) ?? NaN)).toFixed(1);
      console.log(
        `An answer from recorded to on screen (Chromium, ${slowdown}x CPU, ${rounds} rounds each, alternating)`,
      );
      console.log(line('ours: sandbox → webhook → proxy → stream → read → thread', ms('ours')));
      console.log(
        `    the page asks for the consultation after ${of((r) => r.askedAfter)} ms, its read through the proxy takes ${of((r) => r.readMs)} ms, the thread shows it ${of((r) => r.ms - (r.askedAfter ?? 0) - (r.readMs ?? 0))} ms after (medians)`,
      );
      console.log(line('bare chain: webhook → relay → stream → read → text', ms('chain')));
      console.log(line('bare SSE page, hint then read', ms('hint')));
      console.log(line('bare SSE page, the answer in the event', ms('push')));
      const ratio = (other: Name) => (median(ms('ours')) / median(ms(other))).toFixed(2);
      console.log(
        `  ours / bare chain: ${ratio('chain')}×, ours / bare hint: ${ratio('hint')}×, ours / bare push: ${ratio('push')}× (medians); bare chain / bare hint: ${(
          median(ms('chain')) / median(ms('hint'))
        ).toFixed(2)}×`,
      );
      console.log(`  the first answer of a page opened afresh and left idle (${firstAnswers} pages each):`);
      console.log(line('ours', firsts.ours));
      console.log(line('bare SSE page, hint then read', firsts.hint));
      console.log(`  ours / bare hint: ${(median(firsts.ours) / median(firsts.hint)).toFixed(2)}× (medians)`);
    }
  } finally {
    await browser.close();
    bare.close();
    await portal.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  await answerVisible(Number(process.argv[2] ?? 30), Number(process.argv[3] ?? 8));
