/** Runs the proxy as a Node HTTP server, mounted under a base path. */
import { serve, type ServerType } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context } from 'hono';
import { closeWhenBodyUnread } from '../server/node-connection.js';
import './compiled-views.node.js';
import { sendEventStreamsToNode } from './event-streams.node.js';
import { isIP, type AddressInfo, type BlockList } from 'node:net';
import type { ProxyOptions } from './options.js';
import type { ProxyEnv } from './context.js';
import { installProxy, type ConsultProxy } from './proxy.js';
import { builtPushWorker } from './push/worker-file.node.js';
import { webPushSender } from './push/web-push-sender.node.js';
import { pooledFetch } from './upstream-fetch.node.js';
import { trustedProxyList } from './trusted-proxies.node.js';

export { trustedProxyList };
export { sendEventStreamsToNode };

export { webPushSender } from './push/web-push-sender.node.js';
export { pooledFetch, type PooledFetch, type PooledFetchOptions } from './upstream-fetch.node.js';

export interface ProxyServerOptions extends ProxyOptions {
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  hostname?: string;
  /** Where the proxy is mounted. Default `/consult`. */
  basePath?: string;
  /** Adds more routes to the same server (the demo's static files), after the proxy's. */
  extend?: (app: Hono) => void | Promise<void>;
  /**
   * How long a client may take to send its request headers, and its whole request (body
   * included), before the server answers 408 and closes the connection: a slow client cannot hold
   * a connection for minutes. Event streams are not cut: the limit ends once the request is in.
   * Default 10 s and 15 s.
   */
  timeouts?: { headersMs?: number; requestMs?: number };
}

/**
 * The client's address as this server's socket sees it: `clientAddress` for a proxy on Node that
 * browsers reach directly. Behind a load balancer, read its client-address header instead.
 */
export const socketAddress = (c: Context): string | undefined => getConnInfo(c).remote.address;

/** Whether `address` (an IP address of either family) is in `list`; anything that is not an address is not. */
function isTrusted(address: string, list: BlockList): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The client's address behind load balancers or reverse proxies listed in `trusted` (addresses,
 * or ranges like `10.0.0.0/8` and `2001:db8::/32`): when the socket's peer is one of them, the
 * nearest address in `X-Forwarded-For` that is not; otherwise the socket's own. A client cannot
 * choose its address by sending the header itself: only what trusted hops appended is believed.
 * A malformed entry throws at once (see {@link trustedProxyList}).
 */
export function forwardedClientAddress(trusted: readonly string[]): (c: Context) => string | undefined {
  const list = trustedProxyList(trusted);
  return (c) => {
    const peer = socketAddress(c);
    if (!peer || !isTrusted(peer, list)) return peer;
    const hops = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((hop) => hop.trim())
      .filter(Boolean);
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i] ?? '';
      if (!isTrusted(hop, list)) return hop;
    }
    return hops[0] ?? peer;
  };
}

export interface ProxyServer {
  url: string;
  port: number;
  proxy: ConsultProxy;
  close(): Promise<void>;
}

export async function startProxyServer(options: ProxyServerOptions): Promise<ProxyServer> {
  const basePath = options.basePath ?? '/consult';
  const hostname = options.hostname ?? '127.0.0.1';
  // Keep-alive connections to the upstream, unless the partner brings their own fetch.
  const upstreamFetch = options.fetch ? undefined : pooledFetch();
  const app = new Hono();
  // The proxy's routes go on this app under the base path, rather than a proxy app mounted there:
  // a mounted app with its own error handler costs another wrapper per handler, on every request.
  const scoped = app.basePath(basePath) as unknown as Hono<ProxyEnv>;
  const controls = installProxy(app, scoped, {
    clientAddress: socketAddress,
    ...options,
    ...(upstreamFetch ? { fetch: upstreamFetch } : {}),
    // The push worker is served beside the proxy when the package has it built.
    // Pushes go out with web-push, and the worker is served beside the proxy when the package has it built.
    ...(options.push
      ? {
          push: {
            ...options.push,
            send: options.push.send ?? webPushSender(),
            serviceWorker: options.push.serviceWorker ?? builtPushWorker(),
          },
        }
      : {}),
  });
  const proxy: ConsultProxy = Object.assign(scoped, controls);
  await options.extend?.(app);
  const headersMs = options.timeouts?.headersMs ?? 10_000;
  const requestMs = Math.max(headersMs, options.timeouts?.requestMs ?? 15_000);
  return new Promise((resolve, reject) => {
    const server: ServerType = serve(
      {
        fetch: sendEventStreamsToNode(closeWhenBodyUnread(app.fetch)),
        port: options.port ?? 8787,
        hostname,
        serverOptions: {
          headersTimeout: headersMs,
          requestTimeout: requestMs,
          // How often Node checks those limits: often enough that they hold to about a second.
          connectionsCheckingInterval: Math.min(1000, headersMs, requestMs),
        },
      },
      (info: AddressInfo) => {
        resolve({
          url: `http://${hostname}:${info.port}`,
          port: info.port,
          proxy,
          close: async () => {
            await proxy.close();
            await new Promise<void>((done) => {
              server.close(() => done());
              (server as { closeAllConnections?: () => void }).closeAllConnections?.();
            });
            await upstreamFetch?.close();
          },
        });
      },
    );
    server.once('error', (error) => {
      if (server.listening) return;
      // Nothing listens (the port is taken, say): what the proxy started, its webhook registration
      // and its connections to the upstream, stops too.
      void Promise.allSettled([proxy.close(), upstreamFetch?.close()]).then(() => reject(error));
    });
  });
}
