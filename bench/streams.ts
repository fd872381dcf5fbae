/**
 * Live events at scale, on loopback: how long an event takes from the proxy's store to 500 open
 * member streams (p50/p99), and the proxy's memory after 2,000 streams have connected and gone.
 */
import type { ProxyCore } from '../src/proxy/context.js';
import { recordEvent } from '../src/proxy/event-log.js';
import { startProxyServer } from '../src/proxy/node.js';
import { MemoryStore } from '../src/proxy/store.js';
import { startSandboxServer } from '../src/sandbox/node.js';
import { percentile } from './stats.js';

const STREAMS = 500;
const CHURN = 2000;

export async function streamsAtScale(): Promise<void> {
  const sandbox = await startSandboxServer({ port: 0, professionals: { mode: 'manual' } });
  const store = new MemoryStore();
  const proxy = await startProxyServer({
    upstreamUrl: sandbox.url,
    apiKey: 'sandbox-api-key',
    sessionSecret: 'bench-session-secret-0123456789-abcdefghijklmn',
    authenticate: async () => ({ uniqueId: 'alex' }),
    port: 0,
    logger: () => undefined,
    heartbeatMs: 60_000,
    store,
    limits: {
      perMemberPerMinute: 1_000_000,
      perAddressPerMinute: 1_000_000,
      signInsPerMemberPerMinute: 1_000_000,
      streamsPerMember: 1_000_000,
      streamsPerAddress: 1_000_000,
    },
  });
  // One member's token is enough: every stream is a tab of theirs, and hears every event.
  const { token, user } = (await (
    await fetch(`${proxy.url}/consult/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
  ).json()) as { token: string; user: { id: string } };

  const open = async () => {
    const controller = new AbortController();
    const response = await fetch(`${proxy.url}/consult/events`, {
      headers: { authorization: `Bearer ${token}` },
      signal: controller.signal,
    });
    if (!response.body) throw new Error(`the event stream answered ${response.status}`);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    // Open once it says ready: it hears the member's events from then on.
    let text = '';
    while (!text.includes('event: ready')) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`an event stream ended before it was ready: ${text}`);
      text += value;
    }
    return { controller, reader };
  };

  // 500 open streams; one event; the time until each stream has it.
  const streams = await Promise.all(Array.from({ length: STREAMS }, open));
  const received: number[] = [];
  const sentAt = performance.now();
  const waiting = streams.map(async ({ reader }) => {
    let text = '';
    while (!text.includes('"bench"')) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`an event stream ended before the event: ${text}`);
      text += value;
    }
    received.push(performance.now() - sentAt);
  });
  // Numbered and kept as the webhook route does, then sent to every stream.
  await recordEvent({ store } as unknown as ProxyCore, user.id, '{"type":"bench"}');
  await Promise.all(waiting);
  received.sort((a, b) => a - b);
  console.log(
    `  one event to ${STREAMS} open streams: p50 ${percentile(received, 0.5).toFixed(1)} ms, p99 ${percentile(received, 0.99).toFixed(1)} ms`,
  );
  for (const { controller } of streams) controller.abort();

  // Memory after 2,000 streams have come and gone.
  const heap = () => {
    (globalThis as { gc?: () => void }).gc?.();
    return process.memoryUsage().heapUsed / 1024 / 1024;
  };
  await new Promise((resolve) => setTimeout(resolve, 200));
  const before = heap();
  for (let done = 0; done < CHURN; done += 100) {
    const batch = await Promise.all(Array.from({ length: 100 }, open));
    for (const { controller } of batch) controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = heap();
  console.log(
    `  heap after ${CHURN} stream connects and disconnects: ${after.toFixed(1)} MiB (before ${before.toFixed(1)} MiB, ${(after / before).toFixed(2)}×${(globalThis as { gc?: unknown }).gc ? '' : '; run with --expose-gc for a settled figure'})`,
  );
  await proxy.close();
  await sandbox.close();
}
