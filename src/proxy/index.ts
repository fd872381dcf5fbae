export { createProxy, type ConsultProxy } from './proxy.js';
export { demoSignIn } from './demo.js';
export {
  devSignInRefusal,
  devSignInRequestRefusal,
  isDevelopmentEnv,
  isSandbox,
  DEVELOPMENT_NODE_ENVS,
  FORWARDING_HEADERS,
} from './dev-sign-in.js';
export { MemoryStore, StoreUnavailableError, type ProxyStore } from './store.js';
export {
  DEFAULT_LIMITS,
  type Member,
  type ProxyLimits,
  type ProxyLogEntry,
  type ProxyOptions,
} from './options.js';
export {
  mintWidgetToken,
  verifyWidgetToken,
  MAX_WIDGET_TOKEN_TTL_SECONDS,
  type WidgetIdentity,
} from './widget-token.js';
export type { PushOptions, VapidKeys } from './push/options.js';
export type { PushPayload, PushSender, PushTarget } from './push/send.js';
export { PUSH_SERVICE_HOSTS } from './push/subscriptions.js';
