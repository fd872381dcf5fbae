/**
 * Webhook intake under load (docs/security.md S6, S10): a proxy process on loopback takes genuine
 * deliveries at many times the service's usual 1,200 a minute, all from one address, sent by the
 * sandbox's own dispatcher with its real retry schedule (a refused delivery would be tried again
 * 5 s later, and counted as refused), while a flood of badly signed requests comes from the same
 * address. Not one genuine delivery may be refused, each is recorded once, and every forged one is
 * refused for its signature. Run on the memory store and on a real Redis.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { after, before, describe, it, type TestContext } from 'node:test';
import { startRedis, type TestRedis } from '../../scripts/redis-server.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/client/types.js';
import { SandboxClock } from '../../src/sandbox/clock.js';
import { DEFAULT_WEBHOOK_RETRY_DELAYS_MS } from '../../src/sandbox/sandbox.js';
import {
  newWebhookSecret,
  WebhookDispatcher,
  type StoredWebhook,
} from '../../src/sandbox/webhook-delivery.js';
import { spawnProxy, type ProxyProcess } from './support/proxy-process.js';
import { flood } from './support/webhook-flood.js';
import {
  eventually,
  openEventStream,
  rawRequest,
  SESSION_SECRET,
  sleep,
  type SseStream,
} from './support/proxy.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';

/**
 * Per store: genuine deliveries spread over `sendMs` (4,800 a minute, four times the service's
 * 1,200), with as many badly signed requests among them, sent from another process. Bounded so
 * that both runs fit within a minute on a shared two-core machine (other work on it included).
 */
const RUNS = {
  memory: { genuine: 1200, sendMs: 15_000, forged: 1200 },
  redis: { genuine: 1200, sendMs: 15_000, forged: 1200 },
} as const;
const TICK_MS = 25;
/** The sandbox's delivery timeout: an answer slower than this is a failed attempt. */
const DELIVERY_TIMEOUT_MS = 5_000;

/** Consultations the deliveries are about, per member: real ones, made in the sandbox before the runs. */
const CASES_PER_MEMBER = 100;
const MEMBERS = [
  { member: 'alex', userId: 'usr_demo_alex' },
  { member: 'noor', userId: 'usr_demo_noor' },
] as const;
const CASES: { caseId: string; userId: string; member: string }[] = [];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

interface LoadOutcome {
  refused: number;
  attempts: number;
  forgedStatuses: Record<string, number>;
  latencies: number[];
}

describe('webhook intake under load', () => {
  let sandbox: TestSandbox;
  let redis: TestRedis;
  const processes: ProxyProcess[] = [];
  const streams: SseStream[] = [];
  const dispatchers: WebhookDispatcher[] = [];

  before(async () => {
    sandbox = await startTestSandbox({ professionals: { mode: 'manual' } });
    for (const { member, userId } of MEMBERS) {
      for (let i = 0; i < CASES_PER_MEMBER; i++) {
        const { consultationId } = sandbox.sandbox.state.createConsultation(userId, [`Question ${i}`]);
        CASES.push({ caseId: consultationId, userId, member });
      }
    }
    redis = await startRedis();
  });
  after(async () => {
    for (const stream of streams) stream.close();
    for (const dispatcher of dispatchers) dispatcher.clear();
    for (const proxy of processes) await proxy.kill();
    await sandbox?.close();
    await redis?.stop();
  });

  async function run(t: TestContext, store: keyof typeof RUNS): Promise<LoadOutcome> {
    const { genuine: GENUINE, sendMs: SEND_MS, forged: FORGED } = RUNS[store];
    const secret = newWebhookSecret();
    const proxy = await spawnProxy({
      upstreamUrl: sandbox.url,
      apiKey: sandbox.sandbox.apiKeys[0] ?? 'sandbox-api-key',
      sessionSecret: SESSION_SECRET,
      webhookSecret: secret,
      ...(store === 'redis'
        ? { redisUrl: redis.url, prefix: `load-${randomBytes(4).toString('hex')}:` }
        : {}),
      // The limit that used to refuse the service's own deliveries, at its old default: it counts nothing now.
      limits: { webhooksPerAddressPerMinute: 1200 },
      quiet: true,
    });
    processes.push(proxy);

    // Each member watches their events, as the elements do.
    const expected = new Map<string, number>();
    const memberStreams = new Map<string, SseStream>();
    for (const { member } of MEMBERS) {
      const signIn = await post(proxy, '/session', {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ demoUser: member }),
      });
      assert.equal(signIn.status, 200, signIn.text);
      const stream = await openEventStream(`${proxy.url}/events`, signIn.body.token as string);
      streams.push(stream);
      await stream.next((item) => item.event === 'ready');
      memberStreams.set(member, stream);
      expected.set(member, 0);
    }

    // The service: the sandbox's dispatcher, its retry schedule, timing each attempt.
    const latencies: number[] = [];
    const timedFetch: typeof fetch = async (input, init) => {
      const started = performance.now();
      try {
        return await fetch(input, init);
      } finally {
        latencies.push(performance.now() - started);
      }
    };
    const clock = new SandboxClock();
    const dispatcher = new WebhookDispatcher(
      clock,
      { retryDelaysMs: DEFAULT_WEBHOOK_RETRY_DELAYS_MS, timeoutMs: DELIVERY_TIMEOUT_MS, fetch: timedFetch },
      () => true,
    );
    dispatchers.push(dispatcher);
    const webhook: StoredWebhook = {
      webhookId: 'whk_load',
      url: `${proxy.url}/webhooks`,
      events: [...WEBHOOK_EVENT_TYPES],
      secret,
      createdAt: new Date().toISOString(),
    };

    // The flood, from the same address, interleaved with the deliveries over the same time.
    const flooded = flood({ url: `${proxy.url}/webhooks`, secret, count: FORGED, durationMs: SEND_MS });

    // Genuine deliveries, paced: GENUINE over SEND_MS.
    const ticks = Math.ceil(SEND_MS / TICK_MS);
    const perTick = Math.ceil(GENUINE / ticks);
    let dispatched = 0;
    const started = Date.now();
    for (let tick = 0; dispatched < GENUINE; tick++) {
      for (let i = 0; i < perTick && dispatched < GENUINE; i++) {
        const target = CASES[dispatched % CASES.length]!;
        expected.set(target.member, (expected.get(target.member) ?? 0) + 1);
        dispatcher.dispatch([webhook], {
          type: WEBHOOK_EVENT_TYPES[dispatched % WEBHOOK_EVENT_TYPES.length]!,
          caseId: target.caseId,
          userId: target.userId,
        });
        dispatched++;
      }
      await sleep(Math.max(0, started + (tick + 1) * TICK_MS - Date.now()));
    }
    await eventually('every delivery to be answered', () => dispatcher.attempts.length >= GENUINE, 20_000);
    const forgedStatuses = await flooded;

    // Each delivery reaches its member's stream once.
    for (const [member, count] of expected) {
      const stream = memberStreams.get(member)!;
      await eventually(
        `${count} events on ${member}'s stream`,
        () => stream.events('consultation').length >= count,
        15_000,
      );
    }
    await sleep(300);
    for (const [member, count] of expected) {
      const events = memberStreams.get(member)!.events('consultation');
      assert.equal(events.length, count, `${member}: each delivery recorded once`);
      assert.equal(new Set(events.map((event) => event.id)).size, count, `${member}: no event id twice`);
    }

    const refused = dispatcher.attempts.filter((attempt) => !attempt.ok);
    const perMessage = new Map<string, number>();
    for (const attempt of dispatcher.attempts)
      perMessage.set(attempt.messageId, (perMessage.get(attempt.messageId) ?? 0) + 1);
    const reasons: Record<string, number> = {};
    for (const attempt of refused) reasons[attempt.error ?? ''] = (reasons[attempt.error ?? ''] ?? 0) + 1;
    assert.deepEqual(reasons, {}, `${refused.length} genuine delivery attempts refused`);
    assert.equal(perMessage.size, GENUINE, 'every genuine message delivered');
    assert.deepEqual([...new Set(perMessage.values())], [1], 'each in one attempt: nothing to retry');

    const forgedTotal = Object.values(forgedStatuses).reduce((a, b) => a + b, 0);
    assert.equal(forgedTotal, FORGED, 'the whole flood was sent');
    assert.deepEqual(
      Object.keys(forgedStatuses).filter((status) => status !== '401' && status !== '400'),
      [],
      `every forged one refused for its signature or body: ${JSON.stringify(forgedStatuses)}`,
    );

    // Refusals are logged, but a bounded number of times.
    const refusalLines = proxy.logs.filter((entry) => entry['message'] === 'webhook signature rejected');
    const seconds = (Date.now() - started) / 1000;
    assert.ok(refusalLines.length <= Math.ceil(seconds / 10) + 1, `${refusalLines.length} refusal lines`);

    latencies.sort((a, b) => a - b);
    t.diagnostic(
      `${store}: ${GENUINE} genuine in ${((Date.now() - started) / 1000).toFixed(1)} s ` +
        `(${Math.round((GENUINE / SEND_MS) * 60_000)}/min) with ${forgedTotal} forged; ` +
        `delivery p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, ` +
        `max ${(latencies.at(-1) ?? NaN).toFixed(1)} ms; forged answers ${JSON.stringify(forgedStatuses)}`,
    );
    return { refused: refused.length, attempts: dispatcher.attempts.length, forgedStatuses, latencies };
  }

  for (const store of ['memory', 'redis'] as const) {
    const { genuine, forged } = RUNS[store];
    it(`${store} store: ${genuine} genuine deliveries among ${forged} forged ones from the same address, none refused, each recorded once`, async (t) => {
      const outcome = await run(t, store);
      assert.equal(outcome.refused, 0);
      assert.equal(outcome.attempts, genuine);
      // Every answer came within the service's 5 s timeout (a slower one is a refused attempt,
      // retried 5 s later): a flood from the same address delays no genuine delivery past it.
      assert.ok(
        (outcome.latencies.at(-1) ?? Infinity) < DELIVERY_TIMEOUT_MS,
        `slowest ${outcome.latencies.at(-1)} ms`,
      );
    });
  }

  it('refuses a webhook body over the size limit before reading it, declared or chunked', async () => {
    const proxy = await spawnSmall();
    const url = new URL(`${proxy.url}/webhooks`);
    // Declared: 10 MB promised and none of it sent; the answer comes from the headers alone.
    const declared = await partialUpload(url, { 'content-length': String(10 * 1024 * 1024) }, 0);
    assert.equal(declared.status, 413, declared.text);
    // Chunked: one chunk past the limit (16 KiB), and the rest of the body held back: the proxy
    // answers in the middle of the body rather than reading on.
    const chunked = await partialUpload(url, { 'transfer-encoding': 'chunked' }, 2);
    assert.equal(chunked.status, 413, chunked.text);
  });

  async function spawnSmall(): Promise<ProxyProcess> {
    const proxy = await spawnProxy({
      upstreamUrl: sandbox.url,
      apiKey: sandbox.sandbox.apiKeys[0] ?? 'sandbox-api-key',
      sessionSecret: SESSION_SECRET,
      webhookSecret: newWebhookSecret(),
    });
    processes.push(proxy);
    return proxy;
  }
});

function post(proxy: ProxyProcess, path: string, options: { headers: Record<string, string>; body: string }) {
  const url = new URL(`${proxy.url}${path}`);
  return rawRequest(url.origin, 'POST', url.pathname, { headers: options.headers, rawBody: options.body });
}

/**
 * Sends the request line and `headers`, then `chunks` chunks of 16 KiB, one every 20 ms, over a
 * plain socket, and holds back the rest of the body while it waits (10 s at most) for the proxy's
 * answer; resolves with its status and how many chunks had been sent. Sending no more after that
 * keeps the answer from being lost to a reset as the proxy closes a socket still being written to.
 */
function partialUpload(
  url: URL,
  headers: Record<string, string>,
  chunks: number,
): Promise<{ status: number; text: string; sent: number }> {
  return new Promise((resolve) => {
    let sent = 0;
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    const socket = connect(Number(url.port), url.hostname);
    const chunked = headers['transfer-encoding'] === 'chunked';
    const answered = () => /^HTTP\/1\.1 (\d{3})/.exec(received);
    const finish = () => {
      clearTimeout(timer);
      clearTimeout(guard);
      socket.destroy();
      resolve({ status: Number(answered()?.[1] ?? 0), text: received.split('\r\n\r\n')[1] ?? '', sent });
    };
    const guard = setTimeout(finish, 10_000);
    socket.on('data', (data: Buffer) => {
      received += data.toString('utf8');
      if (answered() && received.includes('\r\n\r\n')) setTimeout(finish, 50);
    });
    socket.on('error', () => undefined);
    socket.on('close', finish);
    const head = [
      `POST ${url.pathname} HTTP/1.1`,
      `host: ${url.host}`,
      'content-type: application/json',
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ];
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
    const chunk = Buffer.alloc(16 * 1024, 'a');
    const send = () => {
      if (sent >= chunks || answered() || socket.destroyed) return;
      sent++;
      socket.write(chunked ? Buffer.concat([Buffer.from(`4000\r\n`), chunk, Buffer.from('\r\n')]) : chunk);
      timer = setTimeout(send, 20);
    };
    send();
  });
}
