import type { ConsultClient } from '../client/client.js';
import type { ProxyLimits, ProxyLogEntry, ProxyOptions } from './options.js';
import type { ProxyStore } from './store.js';
import type { Verdict } from './webhook-registration.js';
import type { DeliveryHeaders } from './webhook-secrets.js';
import type { WidgetIdentity } from './widget-token.js';

/** A widget token's member: known, on its way (undefined if the token is not valid), or null for no token. */
export type Identified = WidgetIdentity | null | Promise<WidgetIdentity | undefined>;

export interface ProxyEnv {
  Variables: {
    /** The member the widget token names. */
    member: WidgetIdentity;
    /** The member the request's widget token names, once looked up (or while it is being verified). */
    tokenIdentity: Identified;
  };
}

/** What the route modules share. */
export interface ProxyCore {
  options: ProxyOptions;
  limits: ProxyLimits;
  store: ProxyStore;
  upstream: ConsultClient;
  log: (entry: ProxyLogEntry) => void;
  /**
   * Whether a webhook delivery is signed with one of the secrets in force: configured, obtained by
   * registering at start, or announced by a rotation (see webhook-registration.ts).
   */
  verifyWebhook: (raw: string, headers: DeliveryHeaders) => Promise<Verdict>;
}
