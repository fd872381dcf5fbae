/**
 * `createProxy(options)`: the partner-hosted proxy as a Hono app, a plain web-standard fetch
 * handler that runs on Node and on edge runtimes alike. Mount it under a base path of your portal,
 * for example `app.route('/consult', createProxy({...}))`.
 *
 * This file puts the proxy together: the order in which a request meets its middleware and routes,
 * and what starts with it. Each step is in a module of its own.
 */
import { Hono } from 'hono';
import { ProblemError } from '../server/problems.js';
import { checkApiKey } from './api-key-check.js';
import type { ProxyCore, ProxyEnv } from './context.js';
import { createProxyCore } from './core.js';
import { crossOrigin } from './cors.js';
import { answerError } from './error-handler.js';
import { currentGeneration } from './generation.js';
import { checkRequests, finishAnswers, limitAnonymousPerAddress } from './middleware.js';
import { checkOptions, type ProxyOptions } from './options.js';
import { eventRoutes } from './routes/events.js';
import { healthRoutes } from './routes/health.js';
import { memberRoutes } from './routes/member.js';
import { pushRoutes } from './push/routes.js';
import { serviceNotificationRoutes } from './push/service-notifications.js';
import { removeAllSubscriptions } from './push/subscriptions.js';
import { sessionRoutes } from './routes/session.js';
import { webhookRoutes } from './routes/webhooks.js';
import { endMemberSessions } from './sessions.js';
import type { WebhookRegistration } from './webhook-registration.js';

export { ApiKeyRefusedError } from './api-key-check.js';

/** What the proxy offers besides its routes. */
export interface ProxyControls {
  /**
   * Settles when the store's generation is known and, for a proxy that registers its own webhook
   * (`publicUrl` without `webhookSecret`), the registration is made or found (otherwise as soon as
   * the store answers). Widget tokens minted outside the proxy are accepted once issued after it.
   */
  readonly ready: Promise<void>;
  /**
   * Settles once the service has accepted the API key, tried at start. Rejects with
   * {@link ApiKeyRefusedError} when the service refuses it: a server should then stop, rather than
   * answer every member's sign-in with 502. While the service cannot be reached it is tried again
   * (every `limits.apiKeyCheckRetryMs`), with one warning.
   */
  readonly apiKeyChecked: Promise<void>;
  /** Stops this instance's own work. The webhook registration stays, for the next start (see `unregisterWebhook`). */
  close(): Promise<void>;
  /**
   * Deletes the webhook this proxy registered for `publicUrl` upstream and forgets it in the store
   * (every instance sharing it then lets it go), for when the proxy is retired for good (not on a
   * restart). False when there was none, or the secret is configured: a configured registration is
   * deleted with `consult-admin webhooks delete`.
   */
  unregisterWebhook(): Promise<boolean>;
  /**
   * Ends every widget session of the member with this `uniqueId` (your id for them), in every
   * instance sharing the store: their tokens are refused and their open streams close. Call it
   * when your portal signs the member out or blocks them; their push subscriptions on every device
   * are forgotten too. False when no such member is known.
   */
  endMemberSessions(uniqueId: string): Promise<boolean>;
}

export type ConsultProxy = Hono<ProxyEnv> & ProxyControls;

export function createProxy(options: ProxyOptions): ConsultProxy {
  const app = new Hono<ProxyEnv>();
  return Object.assign(app, installProxy(app, app, options));
}

/**
 * Puts the proxy's middleware and routes on `app` (an app, or a `basePath` view of one) and its
 * error handler on `root`, the app that serves them. The Node entry serves the proxy this way from
 * its own app: mounted with `route()`, each handler of an app with an error handler of its own is
 * wrapped once more, on every request.
 */
export function installProxy(
  // Only its error handler is set, whatever its environment.
  root: { onError(handler: (error: Error) => Response): unknown },
  app: Hono<ProxyEnv>,
  options: ProxyOptions,
): ProxyControls {
  checkOptions(options);
  const { core, registration } = createProxyCore(options);
  root.onError(answerError(core));
  routeRequests(app, core);
  warnOfMissingOptions(core);
  return start(core, registration);
}

/** The way through the proxy, in order: what every request meets, then the routes by kind. */
function routeRequests(app: Hono<ProxyEnv>, core: ProxyCore): void {
  // On the way out: large JSON answers gzipped for browsers that accept it (small ones and the
  // event stream never are: compress.ts says why), the no-store headers, the log line.
  app.use(finishAnswers(core));
  app.use(crossOrigin(core));
  // HEAD would run every GET route (and open event streams) with nothing to show for it (S4).
  app.use((c, next) => {
    if (c.req.method === 'HEAD') throw ProblemError.notFound('No such route.');
    return next();
  });
  // A load balancer's health checks are never rate limited.
  app.route('/', healthRoutes(core));
  // Origin, body size, JSON.
  app.use(checkRequests(core));
  // The upstream's webhooks come before the per-address limit: they are not a browser's traffic,
  // and each is trusted by its signature alone (checked first), never by the address it came from.
  app.route('/', webhookRoutes(core));
  // Sign-ins have limits of their own (successful ones per address, failed ones per address), so
  // neither a flood nor someone else's failed attempts keep a member from renewing a token.
  app.route('/', sessionRoutes(core));
  // Other requests that are not a signed-in member's, per address.
  app.use(limitAnonymousPerAddress(core, core.limits.perAddressPerMinute));
  app.route('/', eventRoutes(core));
  app.route('/', memberRoutes(core));
  app.route('/', pushRoutes(core));
  app.route('/', serviceNotificationRoutes(core));
  // Everything else does not exist for browsers (S4): no upstream call is made.
  app.all('*', () => {
    throw ProblemError.notFound('No such route.');
  });
}

/** Logged once at start by a proxy without `publicUrl`: its members' answers do not come live. */
const NO_PUBLIC_URL_WARNING =
  'no public URL, so no webhook is registered: live answers fall back to polling (about 10 s late); ' +
  'set CONSULT_PUBLIC_URL (or the publicUrl option) to push them';

/** Says once at start what a proxy without some options does not do. */
function warnOfMissingOptions(core: ProxyCore): void {
  if (!core.options.clientAddress) {
    core.log({
      level: 'warn',
      message: 'per-address rate limits are off: pass clientAddress (the Node entry uses the socket address)',
    });
  }
  if (!core.options.publicUrl) {
    core.log({ level: 'warn', message: NO_PUBLIC_URL_WARNING });
  }
}

/** Starts what the proxy does besides answering requests, and gives the controls over it. */
function start(core: ProxyCore, registration: WebhookRegistration): ProxyControls {
  // The store's generation is known (created, for an empty store) before any token is issued.
  const generationKnown = currentGeneration(core).then(() => undefined);
  // A configured secret needs nothing; otherwise, with `publicUrl`, the proxy registers its webhook.
  const registered = registration.ready;
  const closed = new AbortController();
  const apiKeyChecked = checkApiKey(core, closed.signal);
  // Logged where it fails; one who awaits it (the Node entry, a partner's server) stops on it.
  apiKeyChecked.catch(() => undefined);
  const ready = Promise.all([generationKnown, registered]).then(() => undefined);
  // Each failure is logged below; one who awaits `ready` hears it too, but no one need.
  ready.catch(() => undefined);
  generationKnown.catch(() => core.log({ level: 'error', message: 'store unavailable', code: 'start' }));
  registered.catch((error: unknown) =>
    core.log({
      level: 'error',
      message: 'webhook registration failed',
      code: (error as { code?: string }).code ?? 'error',
    }),
  );

  return {
    ready,
    apiKeyChecked,
    endMemberSessions: async (uniqueId: string) => {
      const userId =
        (await core.store.get(`user:${uniqueId}`)) ??
        (await core.upstream.searchUsersByQuery(uniqueId)).find((u) => u.uniqueId === uniqueId)?.id;
      if (!userId) return false;
      await endMemberSessions(core, userId);
      // Signed out everywhere: none of the member's devices is told anything any more (S30).
      await removeAllSubscriptions(core, userId);
      return true;
    },
    // A normal shutdown (a restart, a deploy) keeps the registration for the next start.
    close: async () => {
      closed.abort();
      registration.close();
    },
    unregisterWebhook: () => registration.unregister(),
  };
}
