/**
 * `consult-elements/proxy` as Node loads it: the same exports as `src/proxy/index.ts`, or, when one of the
 * server-side packages it needs is not installed, an error that says what to install
 * (src/server/peers.ts). Bundlers take `src/proxy/index.ts` itself (the `module` condition).
 */
import { createRequire } from 'node:module';
import { loadWithPeers } from '../server/peers.js';
import type * as Entry from '../proxy/index.js';

const entry = loadWithPeers('consult-elements/proxy', () => {
  const load = createRequire(import.meta.url);
  // On Node the proxy's projections run compiled (src/proxy/views.ts).
  load('../proxy/compiled-views.node.js');
  return load('../proxy/index.js') as typeof Entry;
});

export const {
  createProxy,
  demoSignIn,
  DEFAULT_LIMITS,
  DEVELOPMENT_NODE_ENVS,
  devSignInRefusal,
  devSignInRequestRefusal,
  FORWARDING_HEADERS,
  isDevelopmentEnv,
  isSandbox,
  MAX_WIDGET_TOKEN_TTL_SECONDS,
  MemoryStore,
  mintWidgetToken,
  PUSH_SERVICE_HOSTS,
  StoreUnavailableError,
  verifyWidgetToken,
} = entry;
