/**
 * The proxy's cost, on loopback, measured with autocannon: a member's read through the proxy
 * against the same read straight from the sandbox, with the memory store and with Redis, and
 * against a bare forwarder (the least a proxy on Hono and Node costs) and a checking one (the least a
 * proxy that keeps members to their own records costs: bench/servers/server.ts), as throughput, latency
 * percentiles and CPU per read. Each server runs in a process of its own (as a partner runs them),
 * so each one's CPU per read is its own. The servers run compiled by tsc, as partners run the
 * package, not transpiled as they load. Ratios within one run, never pass/fail.
 */
import autocannon from 'autocannon';
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { startRedis } from '../scripts/redis-server.js';
import { median } from './stats.js';
import type { ServerMessage } from './servers/server.js';
import { replies } from './child-replies.js';

/**
 * Seconds of load per batch, and rounds: each round loads every target once, in turn, so a
 * machine that slows down or speeds up during the run weighs on all of them alike.
 */
const BATCH_SECONDS = 2;
const ROUNDS = 10;
/** Enough reads first for the servers' code to be fully optimized. */
const WARM_UP_READS = 4_000;
const CONNECTIONS = 10;

/**
 * Where the servers are compiled to: inside node_modules, so that their imports resolve (or
 * `BENCH_BUILD_DIR`, any directory below the checkout, for a node_modules shared with others).
 */
const COMPILED = process.env.BENCH_BUILD_DIR
  ? `${process.env.BENCH_BUILD_DIR.replace(/\/$/, '')}/`
  : fileURLToPath(new URL('../node_modules/.cache/consult-bench/', import.meta.url));

/**
 * Compiles the benchmark's servers (bench/servers) and what they import from src, with tsc, and
 * gives the path of the compiled `server.js`, with `stream-server.js` beside it.
 */
export function compileServers(): string {
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
  kind: 'sandbox' | 'proxy' | 'forwarder' | 'checking-forwarder',
  env: Record<string, string> = {},
): Promise<Server> {
  const child: ChildProcess = fork(script, [kind], { execArgv: [], env: { ...process.env, ...env } });
  /** The next message `pick` finds something in. */
  const reply = replies<ServerMessage>(child, kind);
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

/** One way to read a consultation: its URL, the token it takes and the servers it costs. */
interface Target {
  label: string;
  url: string;
  token: string;
  /** Sent as Accept-Encoding, as a browser does; none when absent. */
  acceptEncoding?: string;
  /** Every server the read passes through, the one in front first. */
  servers: Server[];
}

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  /** CPU per read of each of the target's servers, in their order, over all rounds. */
  cpuMsPerRead: number[];
  /** CPU per read of the server in front, round by round. */
  frontCpuByRound: number[];
}

/** Loads the targets in turn, `ROUNDS` times over, and sums what each cost. */
async function measure(targets: Target[]): Promise<Measured[]> {
  const optionsOf = (target: Target) => ({
    url: target.url,
    connections: CONNECTIONS,
    headers: {
      authorization: `Bearer ${target.token}`,
      ...(target.acceptEncoding ? { 'accept-encoding': target.acceptEncoding } : {}),
    },
  });
  for (const target of targets) await autocannon({ ...optionsOf(target), amount: WARM_UP_READS });
  const runs = targets.map((target) => ({
    target,
    cpuMs: target.servers.map(() => 0),
    frontCpuByRound: [] as number[],
    reads: 0,
    rps: [] as number[],
    p50: [] as number[],
    p99: [] as number[],
  }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const run of runs) {
      const { target } = run;
      const before = await Promise.all(target.servers.map((server) => server.cpuMs()));
      const result = await autocannon({ ...optionsOf(target), duration: BATCH_SECONDS });
      const after = await Promise.all(target.servers.map((server) => server.cpuMs()));
      if (result.non2xx > 0 || result.errors > 0) {
        throw new Error(`${target.label}: ${result.non2xx} refused and ${result.errors} failed reads`);
      }
      const reads = result.requests.total;
      const spent = after.map((ms, j) => ms - (before[j] ?? 0));
      run.cpuMs = run.cpuMs.map((ms, j) => ms + (spent[j] ?? 0));
      run.reads += reads;
      run.frontCpuByRound.push((spent[0] ?? 0) / reads);
      run.rps.push(reads / BATCH_SECONDS);
      run.p50.push(result.latency.p50);
      run.p99.push(result.latency.p99);
    }
  }
  return runs.map((run) => {
    const measured: Measured = {
      rps: median(run.rps),
      p50: median(run.p50),
      p99: median(run.p99),
      cpuMsPerRead: run.cpuMs.map((ms) => ms / run.reads),
      frontCpuByRound: run.frontCpuByRound,
    };
    console.log(
      `  ${run.target.label.padEnd(36)} ${measured.rps.toFixed(0).padStart(6)} reads/s  p50 ${measured.p50} ms  p99 ${measured.p99} ms  CPU/read ${measured.cpuMsPerRead.map((ms) => `${ms.toFixed(3)} ms`).join(' + ')}`,
    );
    return measured;
  });
}

/** The median over rounds of one target's CPU per read against another's in the same round. */
const cpuRatio = (of: Measured, to: Measured): number =>
  median(of.frontCpuByRound.map((ms, round) => ms / (to.frontCpuByRound[round] ?? NaN)));

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
  const forwarder = await startServer(script, 'forwarder', { UPSTREAM_URL: sandbox.url });
  const { userId: ownerId } = (await (
    await fetch(`${sandbox.url}${read}`, { headers: { authorization: `Bearer ${accessToken}` } })
  ).json()) as { userId: string };
  const checking = await startServer(script, 'checking-forwarder', {
    UPSTREAM_URL: sandbox.url,
    OWNER_ID: ownerId,
  });
  const redis = await startRedis().catch(() => undefined);
  const proxies: { label: string; env: Record<string, string> }[] = [
    { label: 'proxy, memory store (proxy + sandbox)', env: {} },
    ...(redis ? [{ label: 'proxy, Redis store (proxy + sandbox)', env: { REDIS_URL: redis.url } }] : []),
  ];
  const proxyTargets: Target[] = [];
  for (const { label, env } of proxies) {
    const proxy = await startServer(script, 'proxy', { UPSTREAM_URL: sandbox.url, ...env });
    const { token } = (await (
      await fetch(`${proxy.url}/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
    ).json()) as { token: string };
    proxyTargets.push({ label, url: `${proxy.url}${read}`, token, servers: [proxy, sandbox] });
  }
  // A browser's read: it accepts gzip, which the proxy spends only on answers large enough to gain.
  const [memoryTarget] = proxyTargets;
  const browserTargets: Target[] = memoryTarget
    ? [{ ...memoryTarget, label: 'proxy, memory store, gzip accepted', acceptEncoding: 'gzip, deflate, br' }]
    : [];
  const [direct, floor, checkedFloor, browser, memory, withRedis] = await measure([
    {
      label: 'sandbox alone (sandbox)',
      url: `${sandbox.url}${read}`,
      token: accessToken,
      servers: [sandbox],
    },
    {
      label: 'bare forwarder (forwarder + sandbox)',
      url: `${forwarder.url}${read}`,
      token: '',
      servers: [forwarder, sandbox],
    },
    {
      label: 'checking forwarder (+ sandbox)',
      url: `${checking.url}${read}`,
      token: '',
      servers: [checking, sandbox],
    },
    ...browserTargets,
    ...proxyTargets,
  ]);
  if (floor && checkedFloor) {
    console.log(
      `  a forwarder that checks the owner and projects the record: ${cpuRatio(checkedFloor, floor).toFixed(2)}× a bare forwarder's CPU per read`,
    );
  }
  if (direct && floor && memory) {
    const [proxyCpu = 0] = memory.cpuMsPerRead;
    console.log(`  proxy / sandbox throughput: ${(memory.rps / direct.rps).toFixed(2)}×`);
    console.log(
      `  the proxy's CPU per read: ${proxyCpu.toFixed(3)} ms: ${cpuRatio(memory, direct).toFixed(2)}× the sandbox's, ${cpuRatio(memory, floor).toFixed(2)}× a bare forwarder's (medians of the rounds' ratios)`,
    );
    if (checkedFloor) {
      console.log(
        `  the proxy's CPU per read: ${cpuRatio(memory, checkedFloor).toFixed(2)}× a checking forwarder's`,
      );
    }
    if (browser) {
      console.log(
        `  with gzip accepted: ${(browser.cpuMsPerRead[0] ?? 0).toFixed(3)} ms, ${cpuRatio(browser, floor).toFixed(2)}× a bare forwarder's`,
      );
    }
  }
  if (withRedis && memory) {
    console.log(`  Redis / memory store throughput: ${(withRedis.rps / memory.rps).toFixed(2)}×`);
    console.log(`  Redis / memory store CPU per read: ${cpuRatio(withRedis, memory).toFixed(2)}×`);
  } else {
    console.log('  (redis-server not found: the Redis store is not measured)');
  }
  for (const target of [forwarder, checking, ...proxyTargets.map((target) => target.servers[0])])
    target?.stop();
  await redis?.stop();
  sandbox.stop();
}
