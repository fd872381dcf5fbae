/**
 * One server of the proxy benchmark in a process of its own, so each one's CPU is its own:
 * `sandbox`, or `proxy` (in front of UPSTREAM_URL, on the memory store or Redis at REDIS_URL).
 * Tells its parent its URL, and its CPU time whenever asked.
 */
import { cpuUsage } from 'node:process';
import { startProxyServer } from '../../src/proxy/node.js';
import { RedisProxyStore } from '../../src/proxy/redis-store.js';
import { startSandboxServer } from '../../src/sandbox/node.js';

export type ServerMessage = { url: string } | { cpuMs: number };

const send = (message: ServerMessage) => process.send?.(message);

async function start(): Promise<string> {
  if (process.argv[2] === 'sandbox') {
    return (await startSandboxServer({ port: 0, professionals: { mode: 'manual' } })).url;
  }
  const redisUrl = process.env.REDIS_URL;
  const proxy = await startProxyServer({
    upstreamUrl: process.env.UPSTREAM_URL ?? '',
    apiKey: 'sandbox-api-key',
    sessionSecret: 'bench-session-secret-0123456789-abcdefghijklmn',
    authenticate: async () => ({ uniqueId: 'alex' }),
    port: 0,
    logger: () => undefined,
    limits: { perMemberPerMinute: 1_000_000, perAddressPerMinute: 1_000_000 },
    ...(redisUrl ? { store: new RedisProxyStore({ url: redisUrl, prefix: 'bench:' }) } : {}),
  });
  return `${proxy.url}/consult`;
}

process.on('message', (message) => {
  if (message === 'cpu') {
    const used = cpuUsage();
    send({ cpuMs: (used.user + used.system) / 1000 });
  }
});
process.on('disconnect', () => process.exit(0));
void start().then((url) => send({ url }));
