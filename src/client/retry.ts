/**
 * When and how long to wait before trying a call again (docs/security.md S14, S15), and the abort-aware waiting it needs.
 */
import type { ApiError } from './errors.js';

export interface RetryOptions {
  /** Extra attempts after the first; 0 turns retrying off. Default 2. */
  retries?: number;
  /** Backoff before the first retry, doubled for each further one (before jitter). Default 250. */
  baseDelayMs?: number;
  /** Cap of the backoff. Default 8000. */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for: the error is thrown at once. Default 30000. */
  maxRetryAfterMs?: number;
  /**
   * When the service cannot be reached at all (a network error, as while a server restarts), a
   * call that is safe to repeat keeps trying, beyond `retries`, until it has waited this long in
   * all. Default 4000: longer than a restart or a deploy's switch-over takes. Off with `retries: 0`.
   */
  unreachableWindowMs?: number;
}

export const DEFAULT_RETRY: Readonly<Required<RetryOptions>> = {
  retries: 2,
  baseDelayMs: 250,
  maxDelayMs: 8000,
  maxRetryAfterMs: 30000,
  unreachableWindowMs: 4000,
};

/** However short the waits come out, an unreachable service is tried at most this many extra times. */
export const MAX_UNREACHABLE_RETRIES = 12;

/** Statuses that say "try again later"; 500 is not one of them: the call may have had effects. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** An operation may be retried if it is safe to repeat by nature, or if it is a create carrying an idempotency key. */
export function canRetry(
  operation: { readonly retrySafe: boolean; readonly creates: boolean },
  idempotencyKey?: string,
): boolean {
  return operation.retrySafe || (operation.creates && Boolean(idempotencyKey));
}

/** Network errors, timeouts, 429, 502, 503 and 504 are worth another try; every other error is final. */
export function isTransient(error: ApiError): boolean {
  return error.kind !== 'http' || RETRY_STATUSES.has(error.status);
}

/** Full-jitter exponential backoff: a random wait between 0 and min(max, base * 2^retryIndex). */
export function backoffDelay(
  retryIndex: number,
  options: Pick<Required<RetryOptions>, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number,
): number {
  return Math.floor(random() * Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retryIndex));
}

/** `Retry-After` in milliseconds from now: delta seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Waits `ms`; rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Settles like `promise`, or rejects with `signal.reason` as soon as the signal aborts, whichever comes first, so a
 * caller is never held by work that ignores its signal.
 */
export function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * A fresh random `Idempotency-Key` (a v4 UUID). `crypto.randomUUID` exists only on secure origins, so fall back to
 * `crypto.getRandomValues`, which exists everywhere.
 */
export function newIdempotencyKey(): string {
  const { crypto } = globalThis;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
