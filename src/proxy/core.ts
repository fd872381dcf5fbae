import { ConsultClient, type FetchInit, type FetchLike } from '../client/client.js';
import type { ProxyCore } from './context.js';
import { DEFAULT_LIMITS, type ProxyLogEntry, type ProxyOptions } from './options.js';
import { MemoryStore } from './store.js';
import { webhookRegistration, type WebhookRegistration } from './webhook-registration.js';

const consoleLogger = (entry: ProxyLogEntry): void => {
  const line = JSON.stringify({ time: new Date().toISOString(), ...entry });
  if (entry.level === 'error') console.error(line);
  else console.log(line);
};

/**
 * What the proxy's parts share (`ProxyCore`), made from its options: the limits with their
 * defaults, the store, the logger, the upstream client, and the webhook registration that
 * verifies deliveries.
 */
export function createProxyCore(options: ProxyOptions): {
  core: ProxyCore;
  registration: WebhookRegistration;
} {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const upstreamFetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  const core: ProxyCore = {
    options,
    limits,
    store: options.store ?? new MemoryStore(),
    log: options.logger ?? consoleLogger,
    verifyWebhook: (raw, headers) => registration.verify(raw, headers),
    // The upstream token lives only in this client's memory: single-flight, refreshed before
    // expiry, one refresh and one retry on 401 (S7). Redirects are never followed (S6).
    upstream: new ConsultClient({
      baseUrl: options.upstreamUrl,
      apiKey: options.apiKey,
      ...(options.subPartnerName ? { subPartnerName: options.subPartnerName } : {}),
      timeoutMs: limits.upstreamTimeoutMs,
      // One quick retry; an unreachable upstream is the browser's to wait out, not each call's here.
      retry: { retries: 1, unreachableWindowMs: 0 },
      fetch: Object.assign(
        (input: string, init: FetchInit) => {
          // Each call's `init` is made for it by the client.
          init.redirect = 'manual';
          return upstreamFetch(input, init);
        },
        { enforcesLimits: upstreamFetch.enforcesLimits === true },
      ),
    }),
  };

  const registration = webhookRegistration(core);

  return { core, registration };
}
