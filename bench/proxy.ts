/**
 * The proxy's cost, on loopback, measured with autocannon: a member's read through the proxy
 * against the same read straight from the sandbox, with the memory store and with Redis, and
 * against a bare forwarder (the least a proxy on Hono and Node costs), as throughput, latency
 * percentiles and CPU per read. Each server runs in a process of its own (as a partner runs them),
 * so each one's CPU per read is its own. The servers run compiled by tsc, as partners run the
 * package, not transpiled as they load. Ratios within one run, never pass/fail.
 */
import autocannon from 'autocannon';
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { startRedis } from '../scripts/redis-server.js';
import type { ServerMessage } from './servers/server.js';

/** Enough reads for the servers' code to be fully optimized. */
const READS = 20_000;
const WARM_UP_READS = 2_000;
const CONNECTIONS = 10;

/** Where the servers are compiled to: inside node_modules, so that their imports resolve. */
const COMPILED = fileURLToPath(new URL('../node_modules/.cache/consult-bench/', import.meta.url));

/** Compiles the benchmark's servers and what they import from src, with tsc. */
function compileServers(): string {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const project = fileURLToPath(new URL('./servers/tsconfig.json', import.meta.url));
  execFileSync(process.execPath, [tsc, '-p', project, '--outDir', COMPILED], { stdio: 'inherit' });
  return `${COMPILED}bench/servers/server.js`;
}

/** A benchmark server in its own process. */
interface Server {
  url: string;
  /** The process's CPU time so far, in ms. */
  cpuMs(): Promise<number>;
  stop(): void;
}

async function startServer(
  script: string,
  kind: 'sandbox' | 'proxy' | 'forwarder',
  env: Record<string, string> = {},
): Promise<Server> {
  const child: ChildProcess = fork(script, [kind], { execArgv: [], env: { ...process.env, ...env } });
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
    stop: () => child.disconnect(),
  };
}

interface Measured {
  rps: number;
  /** CPU per read of each server measured, in the order given. */
  cpuMsPerRead: number[];
}

async function load(label: string, url: string, token: string, servers: Server[]): Promise<Measured> {
  const options = { url, connections: CONNECTIONS, headers: { authorization: `Bearer ${token}` } };
  await autocannon({ ...options, amount: WARM_UP_READS });
  const cpuBefore = await Promise.all(servers.map((server) => server.cpuMs()));
  const result = await autocannon({ ...options, amount: READS });
  const cpuAfter = await Promise.all(servers.map((server) => server.cpuMs()));
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${label}: ${result.non2xx} refused and ${result.errors} failed reads`);
  }
  const cpuMsPerRead = cpuAfter.map((after, i) => (after - (cpuBefore[i] ?? 0)) / READS);
  const rps = result.requests.total / result.duration;
  console.log(
    `  ${label.padEnd(36)} ${rps.toFixed(0).padStart(6)} reads/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  CPU/read ${cpuMsPerRead.map((ms) => `${ms.toFixed(3)} ms`).join(' + ')}`,
  );
  return { rps, cpuMsPerRead };
}

export async function proxyCost(): Promise<void> {
  const script = compileServers();
  const sandbox = await startServer(script, 'sandbox');
  const { accessToken } = (await (
    await fetch(`${sandbox.url}/partner/authorization/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: 'sandbox-api-key' }),
    })
  ).json()) as { accessToken: string };
  const read = '/consultation/cns_demo_alex_rash';
  const direct = await load('sandbox alone (sandbox)', `${sandbox.url}${read}`, accessToken, [sandbox]);

  const forwarder = await startServer(script, 'forwarder', { UPSTREAM_URL: sandbox.url });
  const floor = await load('bare forwarder (forwarder + sandbox)', `${forwarder.url}${read}`, '', [
    forwarder,
    sandbox,
  ]);
  forwarder.stop();

  const through = async (label: string, env: Record<string, string> = {}) => {
    const proxy = await startServer(script, 'proxy', { UPSTREAM_URL: sandbox.url, ...env });
    const { token } = (await (
      await fetch(`${proxy.url}/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
    ).json()) as { token: string };
    const result = await load(label, `${proxy.url}${read}`, token, [proxy, sandbox]);
    proxy.stop();
    return result;
  };

  const memory = await through('proxy, memory store (proxy + sandbox)');
  const [proxyCpu = 0] = memory.cpuMsPerRead;
  const [sandboxCpu = 0] = direct.cpuMsPerRead;
  const [floorCpu = 0] = floor.cpuMsPerRead;
  console.log(`  proxy / sandbox throughput: ${(memory.rps / direct.rps).toFixed(2)}×`);
  console.log(
    `  the proxy's CPU per read: ${proxyCpu.toFixed(3)} ms: ${(proxyCpu / sandboxCpu).toFixed(2)}× the sandbox's, ${(proxyCpu / floorCpu).toFixed(2)}× a bare forwarder's`,
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
