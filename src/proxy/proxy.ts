/**
 * `createProxy(options)`: the partner-hosted proxy as a Hono app, a plain web-standard fetch
 * handler that runs on Node and on edge runtimes alike. Mount it under a base path of your portal,
 * for example `app.route('/consult', createProxy({...}))`.
 */
import { Hono } from 'hono';
import { limitBody } from '../server/body-limit.js';
import { cors } from 'hono/cors';
import { ConsultClient } from '../client/client.js';
import { ProblemError, problemResponse } from '../server/problems.js';
import type { ProxyCore, ProxyEnv } from './context.js';
import { checkOrigin, limitPerAddress, noStore, requestLog, requireJson } from './middleware.js';
import { checkOptions, DEFAULT_LIMITS, type ProxyLogEntry, type ProxyOptions } from './options.js';
import { eventRoutes } from './routes/events.js';
import { memberRoutes } from './routes/member.js';
import { sessionRoutes } from './routes/session.js';
import { webhookRoutes } from './routes/webhooks.js';
import { endMemberSessions } from './sessions.js';
import { MemoryStore } from './store.js';

export type ConsultProxy = Hono<ProxyEnv> & {
  /** Settles when the proxy's webhook is registered upstream (immediately without `publicUrl`). */
  readonly ready: Promise<void>;
  /** Deletes the webhook this proxy registered. */
  close(): Promise<void>;
  /**
   * Ends every widget session of the member with this `uniqueId` (your id for them), in every
   * instance sharing the store: their tokens are refused and their open streams close. Call it
   * when your portal signs the member out or blocks them. False when no such member is known.
   */
  endMemberSessions(uniqueId: string): Promise<boolean>;
};

const consoleLogger = (entry: ProxyLogEntry): void => {
  const line = JSON.stringify({ time: new Date().toISOString(), ...entry });
  if (entry.level === 'error') console.error(line);
  else console.log(line);
};

/** An error from reading a request body the client aborted or framed wrongly. */
function isBodyAborted(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || error.message === 'aborted';
}

export function createProxy(options: ProxyOptions): ConsultProxy {
  checkOptions(options);
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const upstreamFetch =
    options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  let webhookSecret = options.webhookSecret;

  const core: ProxyCore = {
    options,
    limits,
    store: options.store ?? new MemoryStore(),
    log: options.logger ?? consoleLogger,
    webhookSecret: () => webhookSecret,
    // The upstream token lives only in this client's memory: single-flight, refreshed before
    // expiry, one refresh and one retry on 401 (S7). Redirects are never followed (S6).
    upstream: new ConsultClient({
      baseUrl: options.upstreamUrl,
      apiKey: options.apiKey,
      ...(options.subPartnerName ? { subPartnerName: options.subPartnerName } : {}),
      timeoutMs: limits.upstreamTimeoutMs,
      retry: { retries: 1 },
      fetch: (input, init) => upstreamFetch(input, { ...init, redirect: 'manual' }),
    }),
  };

  const app = new Hono<ProxyEnv>();
  app.onError((error, c) => {
    if (error instanceof ProblemError) return problemResponse(c, error);
    // The client went away or broke its own body (a cut-off upload, bad chunked framing): its
    // mistake, answered as such, and not an error of ours to page anyone about.
    if (isBodyAborted(error)) {
      return problemResponse(
        c,
        new ProblemError(400, 'invalid_body', 'Invalid request', 'The request body could not be read.'),
      );
    }
    core.log({ level: 'error', message: 'unexpected error', code: error.name });
    return problemResponse(
      c,
      new ProblemError(500, 'internal_error', 'Internal error', 'Something went wrong.'),
    );
  });

  app.use(requestLog(core));
  app.use(noStore);
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
    if (
      c.req.method === 'OPTIONS' &&
      !(c.req.header('origin') && c.req.header('access-control-request-method'))
    ) {
      return next();
    }
    const preflight = await corsHeaders(c, next);
    // A portal on another configured origin sends its own sign-in cookie to POST /session;
    // no other origin is told that credentials are welcome.
    const origin = c.req.header('origin');
    if (origin && (options.allowedOrigins ?? []).includes(origin)) {
      (preflight ?? c.res).headers.set('access-control-allow-credentials', 'true');
    }
    return preflight;
  });
  // HEAD would run every GET route (and open event streams) with nothing to show for it (S4).
  app.use(async (c, next) => {
    if (c.req.method === 'HEAD') throw new ProblemError(404, 'not_found', 'Not found', 'No such route.');
    await next();
  });
  // A load balancer's health checks are never rate limited.
  app.get('/healthz', (c) => c.json({ ok: true }));
  app.use(checkOrigin(core));
  app.use(limitBody(limits.bodyBytes));
  app.use(requireJson);
  // The upstream's webhooks come before the per-address limit: they are not a browser's traffic.
  app.route('/', webhookRoutes(core));
  app.use(limitPerAddress(core, 'address', limits.perAddressPerMinute));
  app.route('/', sessionRoutes(core));
  app.route('/', eventRoutes(core));
  app.route('/', memberRoutes(core));
  // Everything else does not exist for browsers (S4): no upstream call is made.
  app.all('*', () => {
    throw new ProblemError(404, 'not_found', 'Not found', 'No such route.');
  });

  if (!options.clientAddress) {
    core.log({
      level: 'warn',
      message: 'per-address rate limits are off: pass clientAddress (the Node entry uses the socket address)',
    });
  }

  let registeredWebhookId: string | undefined;
  const ready = options.publicUrl
    ? core.upstream
        .createWebhook({ url: `${options.publicUrl.replace(/\/$/, '')}/webhooks` })
        .then((webhook) => {
          registeredWebhookId = webhook.webhookId;
          webhookSecret = webhook.secret ?? webhookSecret;
          core.log({ level: 'info', message: 'webhook registered upstream' });
        })
    : Promise.resolve();
  ready.catch((error: unknown) =>
    core.log({
      level: 'error',
      message: 'webhook registration failed',
      code: (error as { code?: string }).code ?? 'error',
    }),
  );

  return Object.assign(app, {
    ready,
    endMemberSessions: async (uniqueId: string) => {
      const userId =
        (await core.store.get(`user:${uniqueId}`)) ??
        (await core.upstream.searchUsersByQuery(uniqueId)).find((u) => u.uniqueId === uniqueId)?.id;
      if (!userId) return false;
      await endMemberSessions(core, userId);
      return true;
    },
    close: async () => {
      if (registeredWebhookId) await core.upstream.deleteWebhook(registeredWebhookId).catch(() => undefined);
      registeredWebhookId = undefined;
    },
  });
}
