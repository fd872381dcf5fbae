/**
 * `consult-elements/sandbox` as Node loads it: the same exports as `src/sandbox/index.ts`, or, when one of the
 * server-side packages it needs is not installed, an error that says what to install
 * (src/server/peers.ts). Bundlers take `src/sandbox/index.ts` itself (the `module` condition).
 */
import { createRequire } from 'node:module';
import { loadWithPeers } from '../server/peers.js';
import type * as Entry from '../sandbox/index.js';

const entry = loadWithPeers(
  'consult-elements/sandbox',
  () => createRequire(import.meta.url)('../sandbox/index.js') as typeof Entry,
);

export const {
  createDemoBackend,
  createSandbox,
  DEFAULT_API_KEY,
  DEMO_USER_IDS,
  MAX_BODY_BYTES,
  OPERATION_TABLE,
  openApiDocument,
  PROFESSIONALS,
  signWebhook,
} = entry;
