/**
 * The bearer token: kept in memory only, fetched once for any number of concurrent callers, renewed before it
 * expires, and dropped when the server refuses it (docs/security.md S7, S8).
 */
import { abortable } from './retry.js';

/** What a token provider returns. */
export interface TokenGrant {
  token: string;
  /**
   * When the token stops working: a `Date`, an ISO date string, or a number of milliseconds since the epoch (a
   * number below 1e11 is read as seconds since the epoch). Unreadable: the token is used until the server refuses it.
   */
  expiresAt: number | string | Date;
}

/**
 * Fetches a token, for example a widget token from the partner's proxy. The signal aborts when every call waiting
 * for the token has been aborted.
 */
export type TokenProvider = (signal?: AbortSignal) => Promise<TokenGrant>;

export interface TokenManagerOptions {
  now: () => number;
  /** Renew this long before expiry, but never earlier than half way through the token's lifetime. */
  refreshBeforeExpiryMs: number;
}

interface CachedToken {
  token: string;
  refreshAt: number;
}

interface Flight {
  promise: Promise<CachedToken>;
  controller: AbortController;
  waiters: number;
}

/** Milliseconds since the epoch; `Infinity` when `expiresAt` cannot be read. */
export function expiryTime(expiresAt: TokenGrant['expiresAt']): number {
  let time: number;
  if (expiresAt instanceof Date) time = expiresAt.getTime();
  else if (typeof expiresAt === 'number') time = expiresAt < 1e11 ? expiresAt * 1000 : expiresAt;
  else time = Date.parse(expiresAt);
  // A token without a readable expiry is still worth using: a 401 will tell us when it is not.
  return Number.isNaN(time) ? Infinity : time;
}

/** Single-flight token cache in front of a {@link TokenProvider}. */
export class TokenManager {
  readonly #provider: TokenProvider;
  readonly #options: TokenManagerOptions;
  #current: CachedToken | undefined;
  #flight: Flight | undefined;

  constructor(provider: TokenProvider, options: TokenManagerOptions) {
    this.#provider = provider;
    this.#options = options;
  }

  /** A usable token: the cached one, or the result of the one provider call in flight (started if need be). */
  async get(signal?: AbortSignal): Promise<string> {
    signal?.throwIfAborted();
    const current = this.#current;
    if (current && this.#options.now() < current.refreshAt) return current.token;

    const flight = (this.#flight ??= this.#start());
    flight.waiters++;
    try {
      return (await abortable(flight.promise, signal)).token;
    } finally {
      flight.waiters--;
      // The last waiter gave up: nobody wants this token any more, so stop fetching it.
      if (flight.waiters === 0 && signal?.aborted && this.#flight === flight) {
        this.#flight = undefined;
        flight.controller.abort(signal.reason);
      }
    }
  }

  /**
   * Forgets the cached token: the next call asks the provider again. A provider call already in
   * flight still answers the calls waiting for it, but is not cached; a member who signs out or is
   * replaced leaves no token behind.
   */
  clear(): void {
    this.#current = undefined;
    this.#flight = undefined;
  }

  /** Forgets `token` after the server refused it, unless it has already been replaced by a newer one. */
  invalidate(token: string): void {
    if (this.#current?.token === token) this.#current = undefined;
  }

  #start(): Flight {
    const controller = new AbortController();
    const isCurrent = () => this.#flight?.controller === controller;
    // Started on a later tick, so a provider that throws at once still settles after `#flight` is set.
    const promise = Promise.resolve()
      .then(() => this.#provider(controller.signal))
      .then((grant) => {
        if (typeof grant?.token !== 'string' || grant.token === '') {
          throw new TypeError('The token provider returned no token.');
        }
        const cached = this.#cache(grant);
        if (isCurrent()) this.#current = cached;
        return cached;
      })
      .finally(() => {
        // A failure is not cached: the next call asks the provider again.
        if (isCurrent()) this.#flight = undefined;
      });
    // Every waiter may have left already; the outcome must not become an unhandled rejection.
    promise.catch(() => undefined);
    return { promise, controller, waiters: 0 };
  }

  #cache(grant: TokenGrant): CachedToken {
    const now = this.#options.now();
    const expiresAt = expiryTime(grant.expiresAt);
    const margin = Math.min(this.#options.refreshBeforeExpiryMs, Math.max(0, expiresAt - now) / 2);
    return { token: grant.token, refreshAt: expiresAt - margin };
  }
}
