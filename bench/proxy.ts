/**
 * The proxy's cost, on loopback: a member's read through the proxy against the same read straight
 * from the sandbox, with the memory store and with Redis, as latency percentiles, throughput under
 * concurrency and CPU per read. The sandbox and the proxy each run in a process of their own (as a
 * partner runs them), so each one's CPU per read is its own. Ratios within one run, never pass/fail.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startRedis } from '../scripts/redis-server.js';
import { percentile } from './stats.js';
import type { ServerMessage } from './servers/server.js';

const READS = 4000;
const CONCURRENCY = 10;

/** A benchmark server in its own process. */
interface Server {
  url: string;
  /** The process's CPU time so far, in ms. */
  cpuMs(): Promise<number>;
  stop(): void;
}

async function startServer(kind: 'sandbox' | 'proxy', env: Record<string, string> = {}): Promise<Server> {
  const child: ChildProcess = fork(fileURLToPath(new URL('./servers/server.ts', import.meta.url)), [kind], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
  });
  /** The next message `pick` finds something in. */
  const reply = <T>(pick: (message: ServerMessage) => T | undefined) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: ServerMessage) => {
        const picked = pick(message);
        if (picked === undefined) return;
        child.off('message', onMessage);
        resolve(picked);
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`the ${kind} exited (${code})`)));
    });
  const url = await reply((message) => ('url' in message ? message.url : undefined));
  return {
    url,
    cpuMs: () => {
      const cpu = reply((message) => ('cpuMs' in message ? message.cpuMs : undefined));
      child.send('cpu');
      return cpu;
    },
    stop: () => child.kill(),
  };
}

interface Measured {
  rps: number;
  /** CPU per read of each server measured, in the order given. */
  cpuMsPerRead: number[];
}

async function load(label: string, read: () => Promise<Response>, servers: Server[]): Promise<Measured> {
  for (let i = 0; i < 300; i++) await (await read()).arrayBuffer(); // warm-up
  const latencies: number[] = [];
  const cpuBefore = await Promise.all(servers.map((server) => server.cpuMs()));
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
  const cpuAfter = await Promise.all(servers.map((server) => server.cpuMs()));
  const cpuMsPerRead = cpuAfter.map((after, i) => (after - (cpuBefore[i] ?? 0)) / READS);
  latencies.sort((a, b) => a - b);
  const rps = (READS / elapsed) * 1000;
  console.log(
    `  ${label.padEnd(34)} ${rps.toFixed(0).padStart(6)} reads/s  p50 ${percentile(latencies, 0.5).toFixed(2)} ms  p99 ${percentile(latencies, 0.99).toFixed(2)} ms  CPU/read ${cpuMsPerRead.map((ms) => `${ms.toFixed(3)} ms`).join(' + ')}`,
  );
  return { rps, cpuMsPerRead };
}

export async function proxyCost(): Promise<void> {
  const sandbox = await startServer('sandbox');
  const { accessToken } = (await (
    await fetch(`${sandbox.url}/partner/authorization/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: 'sandbox-api-key' }),
    })
  ).json()) as { accessToken: string };
  const direct = await load(
    'sandbox alone (sandbox)',
    () =>
      fetch(`${sandbox.url}/consultation/cns_demo_alex_rash`, {
        headers: { authorization: `Bearer ${accessToken}` },
      }),
    [sandbox],
  );

  const through = async (label: string, env: Record<string, string> = {}) => {
    const proxy = await startServer('proxy', { UPSTREAM_URL: sandbox.url, ...env });
    const { token } = (await (
      await fetch(`${proxy.url}/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
    ).json()) as { token: string };
    const result = await load(
      label,
      () =>
        fetch(`${proxy.url}/consultation/cns_demo_alex_rash`, {
          headers: { authorization: `Bearer ${token}` },
        }),
      [proxy, sandbox],
    );
    proxy.stop();
    return result;
  };

  const memory = await through('proxy, memory store (proxy + sandbox)');
  const [proxyCpu = 0] = memory.cpuMsPerRead;
  const [sandboxCpu = 0] = direct.cpuMsPerRead;
  console.log(`  proxy / sandbox throughput: ${(memory.rps / direct.rps).toFixed(2)}×`);
  console.log(
    `  the proxy's CPU per read: ${proxyCpu.toFixed(3)} ms, ${(proxyCpu / sandboxCpu).toFixed(2)}× the sandbox's own`,
  );
  const redis = await startRedis().catch(() => undefined);
  if (redis) {
    const withRedis = await through('proxy, Redis store (proxy + sandbox)', { REDIS_URL: redis.url });
    console.log(`  Redis / memory store throughput: ${(withRedis.rps / memory.rps).toFixed(2)}×`);
    await redis.stop();
  } else {
    console.log('  (redis-server not found: the Redis store is not measured)');
  }
  sandbox.stop();
}
