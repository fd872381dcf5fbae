/**
 * `createProxy(options)`: the partner-hosted proxy as a Hono app, a plain web-standard fetch
 * handler that runs on Node and on edge runtimes alike. Mount it under a base path of your portal,
 * for example `app.route('/consult', createProxy({...}))`.
 */
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { limitBody } from '../server/body-limit.js';
import { cors } from 'hono/cors';
import { ConsultClient, type FetchInit, type FetchLike } from '../client/client.js';
import { ApiError } from '../client/errors.js';
import { ProblemError } from '../server/problems.js';
import type { ProxyCore, ProxyEnv } from './context.js';
import { header } from '../server/request-header.js';
import { json, problem } from './http.js';
import {
  checkOrigin,
  limitAnonymousPerAddress,
  noStore,
  refusedOrigin,
  requestLog,
  requireJson,
} from './middleware.js';
import { checkOptions, DEFAULT_LIMITS, type ProxyLogEntry, type ProxyOptions } from './options.js';
import { eventRoutes } from './routes/events.js';
import { memberRoutes } from './routes/member.js';
import { sessionRoutes } from './routes/session.js';
import { webhookRoutes } from './routes/webhooks.js';
import { safeCode } from './errors.js';
import { endMemberSessions } from './sessions.js';
import { currentGeneration } from './generation.js';
import { MemoryStore, STORE_RETRY_AFTER_SECONDS, StoreUnavailableError } from './store.js';
import { webhookRegistration } from './webhook-registration.js';

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
   * when your portal signs the member out or blocks them. False when no such member is known.
   */
  endMemberSessions(uniqueId: string): Promise<boolean>;
}

export type ConsultProxy = Hono<ProxyEnv> & ProxyControls;

const consoleLogger = (entry: ProxyLogEntry): void => {
  const line = JSON.stringify({ time: new Date().toISOString(), ...entry });
  if (entry.level === 'error') console.error(line);
  else console.log(line);
};

/** The service refused the proxy's API key at start: its message names the setting to fix. */
export class ApiKeyRefusedError extends Error {
  override readonly name = 'ApiKeyRefusedError';
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(
      `the service refused the API key (${status} ${code}): check CONSULT_API_KEY (the apiKey option) ` +
        'and, if you use one, CONSULT_SUB_PARTNER',
    );
  }
}

/**
 * Exchanges the API key for a token once at start, so that a wrong key is said at once and names
 * its setting. A service that cannot be reached is tried again until it answers or the proxy closes.
 */
async function checkApiKey(core: ProxyCore, closed: AbortSignal): Promise<void> {
  const { upstreamUrl } = core.options;
  for (let attempt = 0; !closed.aborted; attempt++) {
    try {
      // The token it gets is the one the first member's call then uses.
      await core.upstream.authorize();
      if (attempt > 0) core.log({ level: 'info', message: 'the service answered and accepted the API key' });
      return;
    } catch (error) {
      if (
        error instanceof ApiError &&
        error.kind === 'http' &&
        (error.status === 401 || error.status === 403)
      ) {
        const refused = new ApiKeyRefusedError(error.status, safeCode(error));
        core.log({ level: 'error', message: refused.message, status: error.status, code: refused.code });
        throw refused;
      }
      if (attempt === 0) {
        const code = error instanceof ApiError ? safeCode(error) : (error as Error).name;
        const seconds = core.limits.apiKeyCheckRetryMs / 1000;
        core.log({
          level: 'warn',
          message: `the service at ${new URL(upstreamUrl).origin} could not check the API key; trying again every ${seconds} s`,
          ...(error instanceof ApiError && error.status ? { status: error.status } : {}),
          code,
        });
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, core.limits.apiKeyCheckRetryMs);
        timer.unref?.();
        closed.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}

/** Logged once at start by a proxy without `publicUrl`: its members' answers do not come live. */
const NO_PUBLIC_URL_WARNING =
  'no public URL, so no webhook is registered: live answers fall back to polling (about 10 s late); ' +
  'set CONSULT_PUBLIC_URL (or the publicUrl option) to push them';

/** An error from reading a request body the client aborted or framed wrongly. */
function isBodyAborted(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || error.message === 'aborted';
}

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

  root.onError((error) => {
    if (error instanceof StoreUnavailableError) {
      // One JSON line, the kind of failure only: no command, no key, no member.
      core.log({ level: 'error', message: 'store unavailable', code: error.reason });
      return problem(error);
    }
    if (error instanceof ProblemError) return problem(error);
    // The client went away or broke its own body (a cut-off upload, bad chunked framing): its
    // mistake, answered as such, and not an error of ours to page anyone about.
    if (isBodyAborted(error)) {
      return problem(
        ProblemError.badRequest({ code: 'invalid_body', detail: 'The request body could not be read.' }),
      );
    }
    core.log({ level: 'error', message: 'unexpected error', code: error.name });
    return problem(ProblemError.internal('Something went wrong.'));
  });

  app.use(requestLog(core));
  app.use(noStore);
  // JSON (and problem+json) goes gzipped to browsers that accept it; the event stream never does,
  // so each event reaches the page as it is written.
  app.use(compress({ contentTypeFilter: /^application\/(?:[\w.-]+\+)?json\b/i }));
  // Origins whose refused preflight was logged, and when: at most once per origin in ten minutes.
  const preflightsLogged = new Map<string, number>();
  const warnRefusedPreflight = (origin: string, path: string): void => {
    const now = Date.now();
    if (now - (preflightsLogged.get(origin) ?? -Infinity) < 600_000) return;
    // Bounded whatever the senders put in Origin.
    if (preflightsLogged.size >= 100) preflightsLogged.clear();
    preflightsLogged.set(origin, now);
    const { named, fix } = refusedOrigin(origin);
    core.log({
      level: 'warn',
      message: `refused a preflight from ${named}, so its browser refuses the call: ${fix}`,
      method: 'OPTIONS',
      path,
      code: 'origin_not_allowed',
    });
  };
  const corsHeaders = cors({
    origin: (origin) => ((options.allowedOrigins ?? []).includes(origin) ? origin : null),
    allowMethods: ['GET', 'POST', 'DELETE'],
    allowHeaders: ['authorization', 'content-type', 'idempotency-key'],
    // The browser's client honours Retry-After (S15); across origins it must be exposed to read it.
    exposeHeaders: ['retry-after'],
    maxAge: 600,
  });
  // Hono's cors answers every OPTIONS with 204; only a real preflight (Origin and
  // Access-Control-Request-Method) gets that, any other OPTIONS is an unknown route (S4).
  app.use(async (c, next) => {
    // CORS is about browsers' requests across origins, which carry Origin; a request without one
    // needs no CORS headers (and leaves the response as the route makes it, with no copy).
    const origin = header(c, 'origin');
    if (origin === undefined) return next();
    if (c.req.method === 'OPTIONS' && !(origin && header(c, 'access-control-request-method'))) {
      return next();
    }
    const allowed = (options.allowedOrigins ?? []).includes(origin);
    // A preflight from an origin not allowed gets no CORS headers, so the browser shows only its
    // own CORS error: the log says which origin and what allows it, once per origin a while.
    if (!allowed && c.req.method === 'OPTIONS') warnRefusedPreflight(origin, c.req.path);
    const preflight = await corsHeaders(c, next);
    // A portal on another configured origin sends its own sign-in cookie to POST /session;
    // no other origin is told that credentials are welcome.
    if (allowed) {
      (preflight ?? c.res).headers.set('access-control-allow-credentials', 'true');
    }
    return preflight;
  });
  // HEAD would run every GET route (and open event streams) with nothing to show for it (S4).
  app.use(async (c, next) => {
    if (c.req.method === 'HEAD') throw ProblemError.notFound('No such route.');
    await next();
  });
  // A load balancer's health checks are never rate limited.
  // `/healthz`: the process is up. `/readyz`: it can serve, its store answering too; a balancer
  // that routes by it stops sending requests while the store is down, and resumes by itself.
  app.get('/healthz', () => json({ ok: true }));
  app.get('/readyz', async () => {
    try {
      await core.store.ping?.();
      return json({ ok: true });
    } catch (error) {
      const reason = error instanceof StoreUnavailableError ? error.reason : 'error';
      const down = json({ ok: false, store: reason }, 503);
      down.headers.set('retry-after', String(STORE_RETRY_AFTER_SECONDS));
      return down;
    }
  });
  app.use(checkOrigin(core));
  app.use(limitBody(limits.bodyBytes));
  app.use(requireJson);
  // The upstream's webhooks come before the per-address limit: they are not a browser's traffic,
  // and each is trusted by its signature alone (checked first), never by the address it came from.
  app.route('/', webhookRoutes(core));
  // Sign-ins have limits of their own (successful ones per address, failed ones per address), so
  // neither a flood nor someone else's failed attempts keep a member from renewing a token.
  app.route('/', sessionRoutes(core));
  // Other requests that are not a signed-in member's, per address.
  app.use(limitAnonymousPerAddress(core, limits.perAddressPerMinute));
  app.route('/', eventRoutes(core));
  app.route('/', memberRoutes(core));
  // Everything else does not exist for browsers (S4): no upstream call is made.
  app.all('*', () => {
    throw ProblemError.notFound('No such route.');
  });

  if (!options.clientAddress) {
    core.log({
      level: 'warn',
      message: 'per-address rate limits are off: pass clientAddress (the Node entry uses the socket address)',
    });
  }
  if (!options.publicUrl) {
    core.log({ level: 'warn', message: NO_PUBLIC_URL_WARNING });
  }

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
