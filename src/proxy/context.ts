import type { ConsultClient } from '../client/client.js';
import type { ProxyLimits, ProxyLogEntry, ProxyOptions } from './options.js';
import type { ProxyStore } from './store.js';
import type { WidgetIdentity } from './widget-token.js';

export interface ProxyEnv {
  Variables: {
    /** The member the widget token names. */
    member: WidgetIdentity;
  };
}

/** What the route modules share. */
export interface ProxyCore {
  options: ProxyOptions;
  limits: ProxyLimits;
  store: ProxyStore;
  upstream: ConsultClient;
  log: (entry: ProxyLogEntry) => void;
  /** The webhook secret in force: configured, or obtained by registering at start. */
  webhookSecret: () => string | undefined;
}
