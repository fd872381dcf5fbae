import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A loopback port free a moment ago, for a server that must know its own URL before it starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
