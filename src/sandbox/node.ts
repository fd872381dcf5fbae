/** Runs the sandbox as a Node HTTP server on loopback. */
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { closeWhenBodyUnread } from '../server/node-connection.js';
import { createSandbox, type Sandbox, type SandboxOptions } from './sandbox.js';

export interface SandboxServer {
  url: string;
  port: number;
  sandbox: Sandbox;
  close(): Promise<void>;
}

export interface SandboxServerOptions extends SandboxOptions {
  /** Port to listen on; 0 picks a free one. Default: 8788. */
  port?: number;
  /** Default: 127.0.0.1. */
  hostname?: string;
}

export function startSandboxServer(options: SandboxServerOptions = {}): Promise<SandboxServer> {
  const sandbox = createSandbox(options);
  const hostname = options.hostname ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    let server: ServerType | undefined = undefined;
    server = serve(
      { fetch: closeWhenBodyUnread(sandbox.app.fetch), port: options.port ?? 8788, hostname },
      (info: AddressInfo) => {
        const url = `http://${hostname}:${info.port}`;
        resolve({
          url,
          port: info.port,
          sandbox,
          close: () =>
            new Promise<void>((done) => {
              sandbox.close();
              server?.close(() => done());
              (server as { closeAllConnections?: () => void } | undefined)?.closeAllConnections?.();
            }),
        });
      },
    );
    server.once('error', reject);
  });
}
