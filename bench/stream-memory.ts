/**
 * Memory per open event stream: N streams (500, then 1,000) held open against the proxy on the
 * memory store (signed-in members, two tabs each) and against a bare SSE server on Hono and Node
 * (streamSSE and a heartbeat timer per stream) and the same on node:http alone, each server in a
 * fresh process of its own run with --expose-gc, compiled by tsc as partners run the package (a
 * loader that transpiles as it loads adds a property to nearly every function), the clients in
 * this one, on loopback. Heap and RSS of the server after a full collection, with the streams open
 * less before they were opened, per stream; and the proxy's ratio to each bare server. Members
 * sign in before the first figure, so their sessions are not counted per stream.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import type { StreamServerMessage } from './servers/stream-server.js';
import { replies } from './child-replies.js';
import { compileServers } from './proxy.js';

type Kind = 'proxy' | 'bare' | 'node';

const COUNTS = [500, 1000];
const TABS_PER_MEMBER = 2;
/** The compiled stream server, once compiled. */
let script: string | undefined;

interface Memory {
  heapBytes: number;
  rssBytes: number;
}

async function startServer(kind: Kind) {
  script ??= compileServers().replace(/server\.js$/, 'stream-server.js');
  const child: ChildProcess = fork(script, [kind], { execArgv: ['--expose-gc'] });
  const reply = replies<StreamServerMessage>(child, `${kind} server`);
  const url = await reply((message) => ('url' in message ? message.url : undefined));
  return {
    url,
    memory: () => {
      const memory = reply((message) => ('heapBytes' in message ? (message as Memory) : undefined));
      child.send('memory');
      return memory;
    },
    stop: () => child.disconnect(),
  };
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The server's memory per stream with `count` streams open, in bytes. */
async function perStream(kind: Kind, count: number): Promise<Memory> {
  const server = await startServer(kind);
  const dispatcher = new Agent({ connections: count + 10, pipelining: 0 });
  try {
    const headers: Record<string, string>[] = [];
    if (kind === 'proxy') {
      for (let m = 0; m < count / TABS_PER_MEMBER; m++) {
        const answer = await request(`${server.url}/session`, {
          dispatcher,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-bench-member': `member-${m}` },
          body: '{}',
        });
        const { token } = (await answer.body.json()) as { token: string };
        for (let t = 0; t < TABS_PER_MEMBER; t++) headers.push({ authorization: `Bearer ${token}` });
      }
    } else for (let i = 0; i < count; i++) headers.push({});
    // One stream opened and closed first, so the code it runs is loaded before the first figure.
    const open = async (h: Record<string, string>) => {
      const controller = new AbortController();
      const answer = await request(`${server.url}/events`, {
        dispatcher,
        headers: h,
        signal: controller.signal,
      });
      if (answer.statusCode !== 200) throw new Error(`the ${kind} stream answered ${answer.statusCode}`);
      const marker = kind === 'proxy' ? 'event: ready' : ': open';
      // Read on (never stopping, which would close the stream) until its first message is in.
      await new Promise<void>((resolve, reject) => {
        let text = '';
        answer.body.on('data', (chunk: Buffer) => {
          if (text.includes(marker)) return;
          text += String(chunk);
          if (text.includes(marker)) resolve();
        });
        answer.body.once('error', reject);
      });
      return controller;
    };
    const first = headers[0] ?? {};
    // The warm-up stream ends before the others open (a member's tab, closed).
    const warm = await request(`${server.url}/events`, { dispatcher, headers: first });
    for await (const chunk of warm.body) if (String(chunk).length) break;
    warm.body.destroy();
    await settle(300);
    const before = await server.memory();
    const streams: AbortController[] = [];
    for (let i = 0; i < count; i += 50)
      streams.push(...(await Promise.all(headers.slice(i, i + 50).map(open))));
    await settle(300);
    const after = await server.memory();
    for (const controller of streams) controller.abort();
    return {
      heapBytes: (after.heapBytes - before.heapBytes) / count,
      rssBytes: (after.rssBytes - before.rssBytes) / count,
    };
  } finally {
    server.stop();
    await dispatcher.destroy();
  }
}

export async function streamMemory(): Promise<void> {
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  for (const count of COUNTS) {
    const node = await perStream('node', count);
    const bare = await perStream('bare', count);
    const proxy = await perStream('proxy', count);
    const line = (label: string, m: Memory) =>
      `    ${label.padEnd(36)} heap ${kib(m.heapBytes).padStart(10)}, RSS ${kib(m.rssBytes).padStart(10)} per stream` +
      (m === proxy
        ? ''
        : `; proxy / this: heap ${(proxy.heapBytes / m.heapBytes).toFixed(2)}×, RSS ${(proxy.rssBytes / m.rssBytes).toFixed(2)}×`);
    console.log(`  memory per open stream, ${count} streams open:`);
    console.log(line('proxy (memory store)', proxy));
    console.log(line('bare SSE, Hono streamSSE', bare));
    console.log(line('bare SSE, node:http', node));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await streamMemory();
