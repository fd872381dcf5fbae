/**
 * The whole demo on loopback: the sandbox, and on one port the demo portal with the partner proxy
 * at /consult pointed at the sandbox and registered for its webhooks. `npm start` runs it; the
 * end-to-end tests start it with their own options.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import webPush from 'web-push';
import { buildPushWorker } from '../scripts/build-push-worker.js';
import { demoSignIn } from '../src/proxy/demo.js';
import { startProxyServer, type ProxyServer } from '../src/proxy/node.js';
import type { ProxyLogEntry } from '../src/proxy/options.js';
import type { ProxyStore } from '../src/proxy/store.js';
import { startSandboxServer, type SandboxServer, type SandboxServerOptions } from '../src/sandbox/node.js';
import { mountDemo, portalMember } from './server.js';

export interface DemoStackOptions {
  sandbox?: SandboxServerOptions;
  /** Port of the portal and proxy. Default 8787; 0 picks a free one. */
  port?: number;
  sessionSecret?: string;
  /** The fetch the proxy uses to reach the sandbox (tests record what crosses it). */
  upstreamFetch?: typeof fetch;
  logger?: (entry: ProxyLogEntry) => void;
  /** The proxy's shared state; default in memory (`CONSULT_REDIS_URL` gives `npm start` a Redis one). */
  store?: ProxyStore;
}

export interface DemoStack {
  /** The portal, for example http://127.0.0.1:8787 */
  url: string;
  sandbox: SandboxServer;
  proxy: ProxyServer;
  close(): Promise<void>;
}

export async function startDemoStack(options: DemoStackOptions = {}): Promise<DemoStack> {
  const sandbox = await startSandboxServer(options.sandbox ?? {});
  try {
    const serviceWorker = await buildPushWorker();
    const proxy = await listening(options.port, (port) =>
      startProxyServer({
        upstreamUrl: sandbox.url,
        apiKey: sandbox.sandbox.apiKeys[0] ?? 'sandbox-api-key',
        // A fresh secret per start: demo sessions end when the demo stops.
        sessionSecret: options.sessionSecret ?? randomBytes(48).toString('base64'),
        // The portal's own sign-in cookie, as a partner would check it; or demo sign-in by body.
        authenticate: async (request) => (await portalMember(request)) ?? (await demoSignIn()(request)),
        publicUrl: `http://127.0.0.1:${port}/consult`,
        // Every visitor of the demo is one of its few demo members, in many tabs at once: the
        // per-member limits are a real portal's guard against one member's runaway page.
        limits: { signInsPerMemberPerMinute: 1_000, perMemberPerMinute: 1_000 },
        // Notifications with keys of its own, made at each start, and the worker built from the sources.
        push: {
          vapid: { ...webPush.generateVAPIDKeys(), subject: 'mailto:demo@consult-elements.example' },
          serviceWorker,
        },
        // Members choose the service's own notifications too (the sandbox keeps shouldNotify).
        serviceNotifications: true,
        ...(options.upstreamFetch ? { fetch: options.upstreamFetch } : {}),
        ...(options.store ? { store: options.store } : {}),
        port,
        extend: (app) => mountDemo(app),
        logger: options.logger ?? ((entry) => entry.level !== 'info' && console.error(JSON.stringify(entry))),
      }),
    );
    await proxy.proxy.ready;
    return {
      url: proxy.url,
      sandbox,
      proxy,
      close: async () => {
        await proxy.close();
        await sandbox.close();
      },
    };
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}

/**
 * Starts on `port`, or for port 0 on a free port known before the start: the proxy registers its
 * webhook at its public URL, which names the port. Another process may take that port before the
 * proxy listens on it (tests start many servers at once): then another free port is tried.
 */
export async function listening<T>(
  port: number | undefined,
  start: (port: number) => Promise<T>,
): Promise<T> {
  if (port !== 0) return start(port ?? 8787);
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 5) throw error;
    }
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
