/**
 * The proxy's cost, on loopback: a member's read through the proxy against the same read straight
 * from the sandbox, with the memory store and with Redis, as latency percentiles, throughput under
 * concurrency and the proxy's own CPU per read (this process runs the proxy and the sandbox; the
 * sandbox's share is measured alone and taken off). Ratios within one run, never pass/fail.
 */
import { cpuUsage } from 'node:process';
import { startProxyServer, type ProxyServer } from '../src/proxy/node.js';
import { RedisProxyStore } from '../src/proxy/redis-store.js';
import type { ProxyStore } from '../src/proxy/store.js';
import { startSandboxServer } from '../src/sandbox/node.js';
import { startRedis } from '../scripts/redis-server.js';
import { percentile } from './stats.js';

const READS = 2000;
const CONCURRENCY = 10;

async function load(
  label: string,
  read: () => Promise<Response>,
): Promise<{ rps: number; cpuMsPerRead: number }> {
  for (let i = 0; i < 100; i++) await (await read()).arrayBuffer(); // warm-up
  const latencies: number[] = [];
  const cpu = cpuUsage();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < READS) {
        const t = performance.now();
        const response = await read();
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`${label}: ${response.status}`);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = performance.now() - started;
  const used = cpuUsage(cpu);
  latencies.sort((a, b) => a - b);
  const rps = (READS / elapsed) * 1000;
  const cpuMsPerRead = (used.user + used.system) / 1000 / READS;
  console.log(
    `  ${label.padEnd(40)} ${rps.toFixed(0).padStart(6)} reads/s  p50 ${percentile(latencies, 0.5).toFixed(2)} ms  p99 ${percentile(latencies, 0.99).toFixed(2)} ms  ${cpuMsPerRead.toFixed(3)} ms CPU/read`,
  );
  return { rps, cpuMsPerRead };
}

export async function proxyCost(): Promise<void> {
  const sandbox = await startSandboxServer({ port: 0, professionals: { mode: 'manual' } });
  const token = await (
    await fetch(`${sandbox.url}/partner/authorization/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: 'sandbox-api-key' }),
    })
  ).json();
  const direct = await load('sandbox alone', () =>
    fetch(`${sandbox.url}/consultation/cns_demo_alex_rash`, {
      headers: { authorization: `Bearer ${(token as { accessToken: string }).accessToken}` },
    }),
  );

  const through = async (label: string, store?: ProxyStore) => {
    const proxy: ProxyServer = await startProxyServer({
      upstreamUrl: sandbox.url,
      apiKey: 'sandbox-api-key',
      sessionSecret: 'bench-session-secret-0123456789-abcdefghijklmn',
      authenticate: async () => ({ uniqueId: 'alex' }),
      port: 0,
      logger: () => undefined,
      limits: { perMemberPerMinute: 1_000_000, perAddressPerMinute: 1_000_000 },
      ...(store ? { store } : {}),
    });
    const session = (await (
      await fetch(`${proxy.url}/consult/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
    ).json()) as { token: string };
    const result = await load(label, () =>
      fetch(`${proxy.url}/consult/consultation/cns_demo_alex_rash`, {
        headers: { authorization: `Bearer ${session.token}` },
      }),
    );
    await proxy.close();
    return result;
  };

  const memory = await through('through the proxy, memory store');
  console.log(`  proxy / sandbox throughput: ${(memory.rps / direct.rps).toFixed(2)}×`);
  console.log(
    `  proxy's own CPU per read: ${Math.max(0, memory.cpuMsPerRead - direct.cpuMsPerRead).toFixed(3)} ms (target 0.25)`,
  );
  const redis = await startRedis().catch(() => undefined);
  if (redis) {
    const store = new RedisProxyStore({ url: redis.url, prefix: 'bench:' });
    const withRedis = await through('through the proxy, Redis store', store);
    console.log(`  Redis / memory store throughput: ${(withRedis.rps / memory.rps).toFixed(2)}×`);
    await store.close();
    await redis.stop();
  } else {
    console.log('  (redis-server not found: the Redis store is not measured)');
  }
  await sandbox.close();
}
