import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { limitBody } from '../server/body-limit.js';
import { ProblemError } from '../server/problems.js';
import { compressLargeJson } from './compress.js';
import type { Identified, ProxyCore, ProxyEnv } from './context.js';
import { EVENT_STREAM_HEADERS, isHardened, NO_STORE_HEADERS } from './http.js';
import { declaresBody, header } from '../server/request-header.js';
import { isEnded } from './sessions.js';
import {
  DEFAULT_WIDGET_TOKEN_TTL_SECONDS,
  MAX_WIDGET_TOKEN_TTL_SECONDS,
  verifyWidgetToken,
  type WidgetIdentity,
} from './widget-token.js';

/**
 * What every answer gets on its way out, in one step rather than a middleware each: a large JSON
 * answer gzipped for a browser that takes it (compress.ts), the no-store headers on any answer
 * made elsewhere, and one log line per request (S17).
 */
export const finishAnswers = (core: ProxyCore) =>
  createMiddleware<ProxyEnv>(async (c, next) => {
    const started = Date.now();
    await next();
    try {
      compressLargeJson(c);
      keepFromCaches(c);
    } catch (error) {
      // Logged as what it becomes: the error handler's 500.
      logRequest(core, c, started, 500);
      throw error;
    }
    logRequest(core, c, started, c.res.status);
  });

/** One log line per request: method, path, status, time and member; never headers or bodies (S17). */
function logRequest(core: ProxyCore, c: Context<ProxyEnv>, started: number, status: number): void {
  const member = c.get('member');
  core.log({
    level: status >= 500 ? 'error' : 'info',
    message: 'request',
    method: c.req.method,
    path: c.req.path,
    status,
    durationMs: Date.now() - started,
    ...(member ? { userId: member.userId } : {}),
  });
}

/**
 * Health data is never cached by browsers or intermediaries, and no response is ever read as
 * anything but the type it declares. The proxy's own answers (`json`) carry both headers as they
 * are made (their event streams too); anything else gets them here.
 */
function keepFromCaches(c: Context): void {
  if (isHardened(c.res)) return;
  const headers = c.res.headers;
  for (const [name, value] of Object.entries(
    EVENT_STREAM.test(headers.get('content-type') ?? '') ? EVENT_STREAM_HEADERS : NO_STORE_HEADERS,
  )) {
    if (headers.get(name) !== value) c.header(name, value);
  }
}

const EVENT_STREAM = /^text\/event-stream\b/i;

/**
 * What a request must be before anything reads it, in one step rather than a middleware each: a
 * state-changing call from a browser comes from an allowed origin (S9), and a body is within the
 * limit, then JSON (S5). A request that declares no body, a member's read, passes once its
 * method is known.
 */
export const checkRequests = (core: ProxyCore) => {
  const withinLimit = limitBody(core.limits.bodyBytes);
  return createMiddleware<ProxyEnv>((c, next) => {
    const { method } = c.req;
    const changesState = method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
    if (changesState) assertAllowedOrigin(core, c);
    if (!declaresBody(c)) return next();
    return withinLimit(c, () => {
      if (method !== 'GET') assertJsonBody(c);
      return next();
    });
  });
};

/** A request body is JSON, declared as such; anything else is a 415 before any work is done. */
function assertJsonBody(c: Context): void {
  const type = (header(c, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== 'application/json' && !/^application\/[\w.+-]+\+json$/.test(type)) {
    throw new ProblemError(415, {
      code: 'unsupported_media_type',
      title: 'Unsupported media type',
      detail: 'Request bodies must be JSON, sent with content-type: application/json.',
    });
  }
}

/**
 * Names a refused origin with the setting that allows it (a dev server on another port is the
 * usual cause). The origin is repeated only when it is one: the header is the sender's to fill.
 */
export function refusedOrigin(origin: string): { named: string; fix: string } {
  return {
    named:
      origin.length <= 200 && URL.canParse(origin) && new URL(origin).origin === origin
        ? `the origin ${origin}`
        : 'an origin that is not a URL',
    fix: 'add it to CONSULT_ALLOWED_ORIGINS (the allowedOrigins option) if its pages may call the proxy',
  };
}

/**
 * A state-changing call from a browser must come from the page's own origin or a configured one
 * (S9). Requests without `Origin` (server to server, the upstream's webhooks) are not browsers.
 */
function assertAllowedOrigin(core: ProxyCore, c: Context): void {
  const origin = header(c, 'origin');
  if (!origin) return;
  // The configured public origin when there is one. Without it, the page's own host: the
  // scheme is left out, since behind a TLS-terminating proxy the request arrives as http.
  const sameOrigin = core.options.publicUrl
    ? origin === new URL(core.options.publicUrl).origin
    : URL.canParse(origin) && new URL(origin).host === (header(c, 'host') ?? new URL(c.req.url).host);
  if (sameOrigin || (core.options.allowedOrigins ?? []).includes(origin)) return;
  const { named, fix } = refusedOrigin(origin);
  core.log({
    level: 'warn',
    message: `refused a request from ${named}: ${fix}`,
    method: c.req.method,
    path: c.req.path,
    code: 'origin_not_allowed',
  });
  throw ProblemError.forbidden({
    code: 'origin_not_allowed',
    detail: `Requests from ${named} are not allowed: ${fix}.`,
  });
}

/** The rate-limit window, and the slices it is counted in. */
const WINDOW_MS = 60_000;
const SLICE_MS = 10_000;
const EARLIER_SLICES = WINDOW_MS / SLICE_MS - 1;

/**
 * Per bucket, what the window's earlier slices counted, as read at the start of the current slice.
 * A slice that has passed is never counted in again, so each instance reads them once per slice
 * and a request costs one store call, not two.
 */
const earlierCounts = new WeakMap<ProxyCore, Map<string, { slice: number; count: number }>>();
const MAX_CACHED_BUCKETS = 10_000;

/** The store keys of the earlier slices in the window, newest first. */
function earlierKeys(bucket: string, slice: number): string[] {
  const keys: string[] = [];
  for (let i = 1; i <= EARLIER_SLICES; i++) keys.push(`rate:${bucket}:${slice - i * SLICE_MS}`);
  return keys;
}

const sum = (values: (string | undefined)[]) =>
  values.reduce((total, value) => total + Number(value ?? 0), 0);

/** What the window's earlier slices counted, when read already in this slice. */
function countedBeforeIfKnown(core: ProxyCore, bucket: string, slice: number): number | undefined {
  const cached = earlierCounts.get(core)?.get(bucket);
  return cached?.slice === slice ? cached.count : undefined;
}

async function countedBefore(core: ProxyCore, bucket: string, slice: number): Promise<number> {
  let cache = earlierCounts.get(core);
  if (!cache) earlierCounts.set(core, (cache = new Map()));
  const count = sum(await core.store.getMany(earlierKeys(bucket, slice)));
  // The bucket moves to the end; the least recently counted one makes room.
  cache.delete(bucket);
  if (cache.size >= MAX_CACHED_BUCKETS) cache.delete(cache.keys().next().value as string);
  cache.set(bucket, { slice, count });
  return count;
}

/**
 * At most `limit` requests in any 60 seconds, counted in 10-second slices in the store: a sliding
 * window, so a burst at the end of one minute and another at the start of the next are counted
 * together (two fixed windows would let twice the limit through in a moment). Over the limit is a
 * 429 with Retry-After (S6).
 */
export async function enforceRateLimit(core: ProxyCore, bucket: string, limit: number): Promise<void> {
  const now = Date.now();
  const slice = now - (now % SLICE_MS);
  const counting = core.store.increment(`rate:${bucket}:${slice}`, WINDOW_MS + SLICE_MS);
  const known = countedBeforeIfKnown(core, bucket, slice);
  const [current, before] =
    known === undefined
      ? await Promise.all([counting, countedBefore(core, bucket, slice)])
      : [await counting, known];
  if (current + before > limit) {
    // Wait until the oldest slice that still counts leaves the window.
    const keys = earlierKeys(bucket, slice);
    const counts = await core.store.getMany(keys);
    const oldestIndex = counts.findLastIndex((value) => Number(value ?? 0) > 0);
    const oldest = oldestIndex < 0 ? slice : slice - (oldestIndex + 1) * SLICE_MS;
    const retryAfter = Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000));
    throw ProblemError.tooManyRequests(retryAfter);
  }
}

/**
 * The per-address limit for requests that are not a signed-in member's: no token, or one that is
 * not ours. A member's requests carry a valid token and count against the member's own limit
 * instead, so a flood of junk from an address (an office, a mobile carrier's gateway) does not
 * lock out the members behind it. Sign-ins (`POST /session`) have limits of their own.
 */
export const limitAnonymousPerAddress = (core: ProxyCore, limit: number) =>
  createMiddleware<ProxyEnv>(async (c, next) => {
    // A member's token first: one verified by an earlier request is known at once, and then no address is needed.
    if (!(await tokenIdentity(core, c))) {
      const address = core.options.clientAddress?.(c);
      if (address) await enforceRateLimit(core, `address:${address}`, limit);
    }
    await next();
  });

/** Tokens verified, each kept until it expires: a member's next call skips the signature check. */
const verifiedTokens = new WeakMap<ProxyCore, Map<string, WidgetIdentity>>();
const MAX_CACHED_TOKENS = 10_000;

/** The token of an `Authorization: Bearer` header, if the request has one. */
const bearerToken = (c: Context): string | undefined =>
  /^Bearer\s+(\S+)$/i.exec(header(c, 'authorization') ?? '')?.[1];

/**
 * The member the request's widget token names, if it is valid: verified once per token while it
 * lasts, and looked up once per request (the per-address limit and the member routes both ask).
 * A token verified before is known at once, without a wait.
 */
function tokenIdentity(core: ProxyCore, c: Context<ProxyEnv>): Identified {
  let known = c.get('tokenIdentity');
  if (known === undefined) {
    const token = bearerToken(c);
    c.set('tokenIdentity', (known = token ? identityOf(core, token) : null));
  }
  return known;
}

function identityOf(core: ProxyCore, token: string): WidgetIdentity | Promise<WidgetIdentity | undefined> {
  let cache = verifiedTokens.get(core);
  if (!cache) verifiedTokens.set(core, (cache = new Map()));
  const cached = cache.get(token);
  if (cached && cached.expiresAt > Date.now()) return cached;
  if (cached) cache.delete(token);
  return verifyWidgetToken(
    core.options.sessionSecret,
    token,
    Math.min(
      core.options.widgetTokenTtlSeconds ?? DEFAULT_WIDGET_TOKEN_TTL_SECONDS,
      MAX_WIDGET_TOKEN_TTL_SECONDS,
    ),
  ).then((identity) => {
    if (identity) {
      // The oldest entry makes room: a Map keeps insertion order.
      if (cache.size >= MAX_CACHED_TOKENS) cache.delete(cache.keys().next().value as string);
      cache.set(token, identity);
    }
    return identity;
  });
}

/** Only a valid widget token names the member (S2); every member route sits behind this. */
export const requireMember = (core: ProxyCore) =>
  createMiddleware<ProxyEnv>(async (c, next) => {
    const known = tokenIdentity(core, c);
    const identity = known instanceof Promise ? await known : known;
    // Asked beside the session check (on Redis, in the same round trip): a signed token whose
    // session ended counts against its member's limit too, so its refusals are limited as well.
    const counted =
      identity && enforceRateLimit(core, `member:${identity.userId}`, core.limits.perMemberPerMinute);
    counted?.catch(() => undefined);
    if (!identity || (await isEnded(core, identity))) {
      const token = bearerToken(c);
      throw ProblemError.unauthorized({
        code: token ? 'session_expired' : 'session_required',
        detail: token ? 'The session has expired or is not valid; sign in again.' : 'Sign in to continue.',
        headers: { 'www-authenticate': 'Bearer realm="consult"' },
      });
    }
    await counted;
    c.set('member', identity);
    await next();
  });

export function member(c: Context<ProxyEnv>) {
  return c.get('member');
}
