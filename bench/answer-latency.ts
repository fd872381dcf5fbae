/**
 * An answer from recorded to readable, on loopback: the sandbox records a professional's answer,
 * its webhook reaches the proxy, the member's open stream hears the hint, and the member reads the
 * consultation again through the proxy (docs/architecture.md §2, steps 6 and 7), until the read
 * holds the answer. Against a bare SSE server on node:http that records the answer, writes the
 * hint to its open streams, and answers the read: the least that way can cost. Rounds alternate
 * between the two, so a machine that slows down weighs on both alike. The page's own rendering is
 * not in either figure. Everything runs in this process. Ratios within one run, never pass/fail.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { freePort } from '../scripts/free-port.js';
import { startProxyServer } from '../src/proxy/node.js';
import { startSandboxServer } from '../src/sandbox/node.js';
import { median, percentile } from './stats.js';

const ROUNDS = 30;
const SECRET = 'bench-session-secret-0123456789-abcdefghijklmn';

/** Reads an event stream, and resolves `until(test)` with the first event data that passes. */
async function listen(response: Response) {
  if (!response.body) throw new Error(`the event stream answered ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  const waiters: { test: (data: string) => boolean; resolve: () => void }[] = [];
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffered += value;
      let end: number;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n');
        for (const waiter of waiters.splice(0)) {
          if (waiter.test(data)) waiter.resolve();
          else waiters.push(waiter);
        }
      }
    }
  })();
  return {
    until: (test: (data: string) => boolean) =>
      new Promise<void>((resolve) => waiters.push({ test, resolve })),
    close: () => void reader.cancel().catch(() => undefined),
  };
}

/** The bare server: POST /answer/:id records, hints every open stream; GET /record/:id reads. */
async function startBare(): Promise<{ url: string; close(): void }> {
  const records = new Map<string, { id: string; answer?: string }>();
  const streams = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    const [, kind, id = ''] = (request.url ?? '').split('/');
    if (kind === 'events') {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      response.write(': open\n\n');
      streams.add(response);
      request.socket.once('close', () => streams.delete(response));
    } else if (kind === 'answer') {
      records.set(id, { id, answer: 'Recorded.' });
      response.end();
      for (const stream of streams) stream.write(`data: ${JSON.stringify({ id })}\n\n`);
    } else {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(records.get(id) ?? { id }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      for (const stream of streams) stream.destroy();
      server.close();
    },
  };
}

export async function answerLatency(): Promise<void> {
  const sandbox = await startSandboxServer({ port: 0, professionals: { mode: 'manual' } });
  const port = await freePort();
  const proxy = await startProxyServer({
    upstreamUrl: sandbox.url,
    apiKey: 'sandbox-api-key',
    sessionSecret: SECRET,
    authenticate: async () => ({ uniqueId: 'alex' }),
    port,
    publicUrl: `http://127.0.0.1:${port}/consult`,
    logger: () => undefined,
    limits: {
      perMemberPerMinute: 1_000_000,
      perAddressPerMinute: 1_000_000,
      signInsPerMemberPerMinute: 1_000_000,
    },
  });
  await proxy.proxy.ready;
  const base = `${proxy.url}/consult`;
  const { token, user } = (await (
    await fetch(`${base}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
  ).json()) as { token: string; user: { id: string } };
  const auth = { authorization: `Bearer ${token}` };
  const proxyStream = await listen(await fetch(`${base}/events`, { headers: auth }));
  await proxyStream.until((data) => data.includes('expiresAt'));

  const bare = await startBare();
  const bareStream = await listen(await fetch(`${bare.url}/events`));

  const viaProxy: number[] = [];
  const viaBare: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // A new consultation each round, asked before the clock starts.
    const created = (await (
      await fetch(`${base}/consultation`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ userId: user.id, questions: [`Question ${round}?`] }),
      })
    ).json()) as { consultationId: string };
    const id = created.consultationId;
    // Claimed first, as a professional does long before answering: its event is not timed.
    const claimed = proxyStream.until((data) => data.includes(id) && data.includes('consultationClaimed'));
    await fetch(`${sandbox.url}/_sandbox/consultations/${id}/claim`, { method: 'POST' });
    await claimed;

    let started = performance.now();
    const hinted = proxyStream.until((data) => data.includes(id) && data.includes('questionResolved'));
    await fetch(`${sandbox.url}/_sandbox/consultations/${id}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    await hinted;
    const read = (await (await fetch(`${base}/consultation/${id}`, { headers: auth })).json()) as {
      questions: { answer?: unknown }[];
    };
    if (!read.questions.every((q) => q.answer)) throw new Error('the read after the hint had no answer');
    viaProxy.push(performance.now() - started);

    started = performance.now();
    const bareId = `case-${round}`;
    const bareHinted = bareStream.until((data) => data.includes(bareId));
    await fetch(`${bare.url}/answer/${bareId}`, { method: 'POST' });
    await bareHinted;
    await (await fetch(`${bare.url}/record/${bareId}`)).json();
    viaBare.push(performance.now() - started);
  }
  const line = (label: string, ms: number[]) =>
    `  ${label.padEnd(40)} median ${median(ms).toFixed(1)} ms, p90 ${percentile(
      [...ms].sort((a, b) => a - b),
      0.9,
    ).toFixed(1)} ms`;
  console.log(`  an answer from recorded to read with it (${ROUNDS} rounds, alternating):`);
  console.log(line('sandbox → webhook → proxy → stream → read', viaProxy));
  console.log(line('bare SSE on node:http', viaBare));
  console.log(`  proxy / bare: ${(median(viaProxy) / median(viaBare)).toFixed(2)}× (medians)`);
  proxyStream.close();
  bareStream.close();
  bare.close();
  await proxy.close();
  await sandbox.close();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await answerLatency();
