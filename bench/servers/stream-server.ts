/**
 * One server of the memory-per-stream benchmark in a process of its own (run with --expose-gc), so
 * its heap and RSS are its own: `proxy` (the real proxy on the memory store, in front of a sandbox
 * in this process, a member named by the `x-bench-member` header); `bare`, the least an SSE
 * server on Hono and Node holds per stream (streamSSE, one comment at once and a heartbeat timer
 * per stream, open until the client leaves); or `node`, the same on node:http alone. Tells its parent its URL, and its memory after a full
 * garbage collection whenever asked.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startProxyServer } from '../../src/proxy/node.js';
import { MemoryStore } from '../../src/proxy/store.js';
import { startSandboxServer } from '../../src/sandbox/node.js';

export type StreamServerMessage = { url: string } | { heapBytes: number; rssBytes: number };

const HEARTBEAT_MS = 15_000;
const send = (message: StreamServerMessage) => process.send?.(message);

async function startBare(): Promise<string> {
  const app = new Hono().get('/events', (c) =>
    streamSSE(c, async (stream) => {
      await stream.write(': open\n\n');
      const heartbeat = setInterval(
        () => void stream.write(': heartbeat\n\n').catch(() => undefined),
        HEARTBEAT_MS,
      );
      await new Promise<void>((resolve) => stream.onAbort(resolve));
      clearInterval(heartbeat);
    }),
  );
  return new Promise((resolve) => {
    serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve(`http://127.0.0.1:${info.port}`),
    );
  });
}

async function startNodeHttp(): Promise<string> {
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    response.write(': open\n\n');
    const heartbeat = setInterval(() => response.write(': heartbeat\n\n'), HEARTBEAT_MS);
    request.socket.once('close', () => clearInterval(heartbeat));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    );
  });
}

async function startProxy(): Promise<string> {
  const sandbox = await startSandboxServer({ port: 0, professionals: { mode: 'manual' } });
  const proxy = await startProxyServer({
    upstreamUrl: sandbox.url,
    apiKey: 'sandbox-api-key',
    sessionSecret: 'bench-session-secret-0123456789-abcdefghijklmn',
    authenticate: (request) => ({ uniqueId: request.headers.get('x-bench-member') ?? 'alex' }),
    port: 0,
    logger: () => undefined,
    heartbeatMs: HEARTBEAT_MS,
    store: new MemoryStore(),
    limits: {
      perMemberPerMinute: 1_000_000,
      perAddressPerMinute: 1_000_000,
      signInsPerMemberPerMinute: 1_000_000,
      streamsPerAddress: 1_000_000,
    },
  });
  return `${proxy.url}/consult`;
}

process.on('message', (message) => {
  if (message !== 'memory') return;
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  send({ heapBytes: heapUsed, rssBytes: rss });
});
process.on('disconnect', () => process.exit(0));
const kind = process.argv[2];
void (kind === 'bare' ? startBare() : kind === 'node' ? startNodeHttp() : startProxy()).then((url) =>
  send({ url }),
);
