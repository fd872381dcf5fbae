/**
 * `consult-elements/proxy/redis` as Node loads it: the same exports as `src/proxy/redis-store.ts`, or, when one of the
 * server-side packages it needs is not installed, an error that says what to install
 * (src/server/peers.ts). Bundlers take `src/proxy/redis-store.ts` itself (the `module` condition).
 */
import { createRequire } from 'node:module';
import { loadWithPeers } from '../server/peers.js';
import type * as Entry from '../proxy/redis-store.js';

const entry = loadWithPeers(
  'consult-elements/proxy/redis',
  () => createRequire(import.meta.url)('../proxy/redis-store.js') as typeof Entry,
);

export const { RedisProxyStore, redisStore } = entry;
