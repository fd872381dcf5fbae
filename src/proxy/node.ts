/** Runs the proxy as a Node HTTP server, mounted under a base path. */
import { serve, type ServerType } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import { closeWhenBodyUnread } from '../server/node-connection.js';
import type { AddressInfo } from 'node:net';
import type { ProxyOptions } from './options.js';
import { createProxy, type ConsultProxy } from './proxy.js';

export interface ProxyServerOptions extends ProxyOptions {
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  hostname?: string;
  /** Where the proxy is mounted. Default `/consult`. */
  basePath?: string;
  /** Adds more routes to the same server (the demo's static files), after the proxy's. */
  extend?: (app: Hono) => void | Promise<void>;
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
  const proxy = createProxy({
    clientAddress: (c) => getConnInfo(c).remote.address,
    ...options,
  });
  const app = new Hono();
  app.route(basePath, proxy);
  await options.extend?.(app);
  return new Promise((resolve, reject) => {
    const server: ServerType = serve(
      { fetch: closeWhenBodyUnread(app.fetch), port: options.port ?? 8787, hostname },
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
          },
        });
      },
    );
    server.once('error', reject);
  });
}
