/**
 * `consult-elements/proxy/node` as Node loads it: the same exports as `src/proxy/node.ts`, or, when one of the
 * server-side packages it needs is not installed, an error that says what to install
 * (src/server/peers.ts). Bundlers take `src/proxy/node.ts` itself (the `module` condition).
 */
import { createRequire } from 'node:module';
import { loadWithPeers } from '../server/peers.js';
import type * as Entry from '../proxy/node.js';

const entry = loadWithPeers(
  'consult-elements/proxy/node',
  () => createRequire(import.meta.url)('../proxy/node.js') as typeof Entry,
);

export const {
  forwardedClientAddress,
  pooledFetch,
  sendEventStreamsToNode,
  socketAddress,
  startProxyServer,
  trustedProxyList,
  webPushSender,
} = entry;
