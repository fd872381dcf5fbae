/**
 * A proxy in a process of its own, on a Redis store (or in memory, without `redisUrl`), for tests
 * that kill it with SIGKILL mid-flow or load it from another process.
 * Configured by one JSON argument; prints `{"url": "…"}` on its first line once it listens, then
 * its log lines, one JSON object each.
 *
 *   node --import tsx test/node/support/proxy-process.ts '{"upstreamUrl": …, "redisUrl": …}'
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { demoSignIn } from '../../../src/proxy/demo.js';
import { startProxyServer } from '../../../src/proxy/node.js';
import type { ProxyLimits } from '../../../src/proxy/options.js';
import { redisStore } from '../../../src/proxy/redis-store.js';
import { MemoryStore } from '../../../src/proxy/store.js';

export interface ProxyProcessConfig {
  upstreamUrl: string;
  apiKey: string;
  sessionSecret: string;
  /**
   * A plain Redis; or, with `sentinels` and `sentinelName`, the password and db only. With
   * neither, the proxy keeps its state in memory.
   */
  redisUrl?: string;
  sentinels?: { host: string; port: number }[];
  sentinelName?: string;
  prefix?: string;
  /** One secret, or several comma-separated (as CONSULT_WEBHOOK_SECRET takes them). */
  webhookSecret?: string;
  /** Its public URL: without `webhookSecret`, it registers its webhook there. */
  publicUrl?: string;
  limits?: Partial<ProxyLimits>;
  /** Leaves out the one line per request (writes to a pipe block the process, which a load test would measure). */
  quiet?: boolean;
}

export interface ProxyProcess {
  /** The proxy's base URL, `/consult` included. */
  url: string;
  child: ChildProcess;
  /** Every log line the process printed, parsed. */
  logs: Record<string, unknown>[];
  /** Kills it at once, with no chance to finish anything. */
  kill(): Promise<void>;
}

/** Starts a proxy process and resolves once it listens. */
export async function spawnProxy(config: ProxyProcessConfig): Promise<ProxyProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), JSON.stringify(config)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const logs: Record<string, unknown>[] = [];
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the proxy process did not start')), 15_000);
    child.once('exit', (code) => reject(new Error(`the proxy process exited (${code})`)));
    lines.on('line', (line) => {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if (typeof parsed['url'] === 'string') {
        clearTimeout(timer);
        resolve(parsed['url']);
      } else logs.push(parsed);
    });
  });
  return {
    url,
    child,
    logs,
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const config = JSON.parse(process.argv[2] ?? '{}') as ProxyProcessConfig;
  const server = await startProxyServer({
    port: 0,
    basePath: '/consult',
    authenticate: demoSignIn(),
    upstreamUrl: config.upstreamUrl,
    apiKey: config.apiKey,
    sessionSecret: config.sessionSecret,
    ...(config.webhookSecret ? { webhookSecret: config.webhookSecret } : {}),
    ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
    store:
      config.redisUrl || config.sentinels
        ? redisStore({
            ...(config.prefix ? { prefix: config.prefix } : {}),
            ...(config.redisUrl ? { url: config.redisUrl } : {}),
            ...(config.sentinels ? { sentinels: config.sentinels, name: config.sentinelName ?? '' } : {}),
          })
        : new MemoryStore(),
    logger: (entry) => {
      if (config.quiet && entry.message === 'request') return;
      process.stdout.write(`${JSON.stringify(entry)}\n`);
    },
    limits: {
      perAddressPerMinute: 100_000,
      sessionsPerAddressPerMinute: 10_000,
      signInsPerMemberPerMinute: 10_000,
      ...config.limits,
    },
  });
  // As consult-proxy does: listening, and its webhook secrets known, before it says it has started.
  await server.proxy.ready.catch(() => undefined);
  process.stdout.write(`${JSON.stringify({ url: `${server.url}/consult` })}\n`);
}
