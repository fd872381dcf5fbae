import { canonicalJson } from '../server/canonical-json.js';
import { createMiddleware } from 'hono/factory';
import type { SandboxCore, SandboxEnv } from './context.js';
import { ProblemError } from '../server/problems.js';
import { tooDeep } from '../server/validation.js';

export interface RequestLogEntry {
  method: string;
  path: string;
  query?: string;
  status: number;
  at: string;
  durationMs: number;
  /** The user the request concerned, where one is known. */
  userId?: string;
  idempotencyKey?: string;
}

/** Records every request for `GET /_sandbox/requests`, the witness tests use for upstream calls. */
export const requestLog = (log: RequestLogEntry[]) =>
  createMiddleware<SandboxEnv>(async (c, next) => {
    const started = Date.now();
    await next();
    const url = new URL(c.req.url);
    if (url.pathname === '/_sandbox/requests') return;
    const userId = c.get('subjectUserId');
    const idempotencyKey = c.req.header('idempotency-key');
    log.push({
      method: c.req.method,
      path: url.pathname,
      ...(url.search ? { query: url.search } : {}),
      status: c.res.status,
      at: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      ...(userId ? { userId } : {}),
      ...(idempotencyKey ? { idempotencyKey } : {}),
    });
  });

/** Latency, server errors and rate limiting on demand (`POST /_sandbox/faults`), before any work is done. */
export const faults = (core: SandboxCore, random: () => number) =>
  createMiddleware<SandboxEnv>(async (_c, next) => {
    const { latencyMs, errorRate, rateLimitRate } = core.faults;
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    if (rateLimitRate > 0 && random() < rateLimitRate) {
      throw ProblemError.tooManyRequests(1, { detail: 'Slow down and retry after a second.' });
    }
    if (errorRate > 0 && random() < errorRate) {
      throw ProblemError.unavailable({ code: 'sandbox_fault', detail: 'A fault injected by the sandbox.' });
    }
    await next();
  });

/** Bearer access tokens from operation 1; missing, unknown and expired ones get 401. */
export const requireToken = (core: SandboxCore) =>
  createMiddleware<SandboxEnv>(async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const challenge = { 'www-authenticate': 'Bearer realm="partner-health", error="invalid_token"' };
    if (!match) {
      throw ProblemError.unauthorized({
        code: 'missing_token',
        detail: 'Send an access token as "Authorization: Bearer <token>".',
        headers: {
          'www-authenticate': 'Bearer realm="partner-health"',
        },
      });
    }
    const session = core.tokens.get(match[1] ?? '');
    if (!session)
      throw ProblemError.unauthorized({
        code: 'invalid_token',
        detail: 'The access token is not known.',
        headers: challenge,
      });
    if (session.expiresAt <= core.clock.now()) {
      core.tokens.delete(session.token);
      throw ProblemError.unauthorized({
        code: 'token_expired',
        detail: 'The access token has expired.',
        headers: challenge,
      });
    }
    c.set('partner', session);
    await next();
  });

interface IdempotencyRecord {
  fingerprint: string;
  expiresAt: number;
  outcome: Promise<{ status: number; body: string; contentType: string; subjectUserId?: string } | undefined>;
}

const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Creates honour `Idempotency-Key`: the same key with the same request answers the first success
 * again (with `Idempotent-Replayed: true`); the same key with another request is a 422. Keys are
 * scoped to the partner's sub-partner; failures are not recorded, so they can be retried.
 */
export const idempotency = (core: SandboxCore, records: Map<string, IdempotencyRecord>) =>
  createMiddleware<SandboxEnv>(async (c, next) => {
    const key = c.req.header('idempotency-key');
    if (!key) return next();
    if (key.length > 255) {
      throw ProblemError.badRequest({
        detail: 'Idempotency-Key must be at most 255 characters.',
        errors: [{ field: 'Idempotency-Key', message: 'must be at most 255 characters' }],
      });
    }
    const now = core.clock.now();
    for (const [k, r] of records) if (r.expiresAt <= now) records.delete(k);

    const text = await c.req.text();
    let body: unknown = text;
    try {
      const parsed: unknown = JSON.parse(text);
      if (!tooDeep(parsed)) body = parsed;
    } catch {
      // An unparseable (or too deep) body is compared as text; the route itself answers 400.
    }
    const fingerprint = `${c.req.method} ${new URL(c.req.url).pathname} ${canonicalJson(body)}`;
    const scope = `${c.get('partner').subPartnerName ?? ''}\n${key}`;

    const existing = records.get(scope);
    if (existing) {
      if (existing.fingerprint !== fingerprint) {
        throw ProblemError.idempotencyKeyReused();
      }
      const outcome = await existing.outcome;
      if (outcome) {
        // A replay concerns the same user as the original, for the request log.
        if (outcome.subjectUserId) c.set('subjectUserId', outcome.subjectUserId);
        return c.body(outcome.body, outcome.status as 200, {
          'content-type': outcome.contentType,
          'idempotent-replayed': 'true',
        });
      }
    }

    let settle!: (value: Awaited<IdempotencyRecord['outcome']>) => void;
    const record: IdempotencyRecord = {
      fingerprint,
      expiresAt: now + IDEMPOTENCY_TTL_MS,
      outcome: new Promise((resolve) => (settle = resolve)),
    };
    records.set(scope, record);
    try {
      await next();
    } finally {
      const response = c.res;
      if (response.status >= 200 && response.status < 300) {
        const subjectUserId = c.get('subjectUserId');
        settle({
          status: response.status,
          body: await response.clone().text(),
          contentType: response.headers.get('content-type') ?? 'application/json',
          ...(subjectUserId ? { subjectUserId } : {}),
        });
      } else {
        records.delete(scope);
        settle(undefined);
      }
    }
  });

export type IdempotencyRecords = Map<string, IdempotencyRecord>;
