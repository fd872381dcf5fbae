/**
 * What every client shares: the options, tokens (from an API key or a token provider), retries and
 * typed errors around each call, and the methods made from the operations table
 * (src/client/operations.ts). `ConsultClient` (all 20 operations) and the browser's `SessionClient`
 * (the member's) are this with the methods they name.
 */
import { TokenManager, type TokenProvider } from './auth.js';
import { ApiError } from './errors.js';
import {
  CREATE_ACCESS_TOKEN,
  toOperation,
  type Caller,
  type Operation,
  type ProxyRoute,
  type OperationDefinition,
  type OperationDefinitions,
  type OperationName,
  type RequestInput,
} from './operations.js';
import {
  DEFAULT_RETRY,
  MAX_UNREACHABLE_RETRIES,
  abortable,
  backoffDelay,
  canRetry,
  isTransient,
  newIdempotencyKey,
  sleep,
  type RetryOptions,
} from './retry.js';
import { Transport, type FetchLike } from './transport.js';
import type { AccessToken } from './types.js';

/** The last argument of every method. */
export interface RequestOptions {
  /** Aborting rejects the call with the signal's reason, at once, also while waiting to retry; never retried. */
  signal?: AbortSignal;
  /** For creates: the `Idempotency-Key` to send (default: a fresh random one per call, reused on its retries). */
  idempotencyKey?: string;
  /**
   * Sent even if the page is being left (fetch's `keepalive`), for a small write the member would
   * miss on their next visit, such as a read mark.
   */
  keepalive?: boolean;
}

/**
 * The method of operation `N`, answering `R`: the table's arguments for it (their names and types),
 * then the {@link RequestOptions}.
 */
export type OperationMethod<N extends OperationName, R> = (
  ...args: [...Parameters<OperationDefinitions[N]['request']>, options?: RequestOptions]
) => Promise<R>;

interface BaseOptions {
  /** Where the operations live, for example `https://api.example.com` or `/consult` (resolved against the page). */
  baseUrl: string;
  /** Default `globalThis.fetch`. Called as a plain function, never as a method of the client. */
  fetch?: FetchLike;
  /** Limit of each attempt, body included; 0 for none. Default 15000. */
  timeoutMs?: number;
  retry?: RetryOptions;
  /** Renew the token this long before it expires, but never earlier than half its lifetime. Default 30000. */
  refreshBeforeExpiryMs?: number;
  /** Test hook: random number in [0, 1) for backoff jitter. Default `Math.random`. */
  random?: () => number;
  /** Test hook: wait between attempts; must reject with `signal.reason` on abort. Default a `setTimeout` sleep. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Test hook: the clock, in milliseconds since the epoch, for token expiry and `Retry-After` dates. Default `Date.now`. */
  now?: () => number;
}

/** Browser: tokens come from the partner's proxy. */
interface TokenProviderOptions extends BaseOptions {
  tokenProvider: TokenProvider;
  apiKey?: never;
  subPartnerName?: never;
}

/** Node back office: the client exchanges the API key for access tokens itself (operation 1). */
interface ApiKeyOptions extends BaseOptions {
  apiKey: string;
  subPartnerName?: string;
  tokenProvider?: never;
}

/** No credentials: calls go out without Authorization (and the server answers 401). */
interface AnonymousOptions extends BaseOptions {
  tokenProvider?: undefined;
  apiKey?: undefined;
  subPartnerName?: undefined;
}

export type ConsultClientOptions = TokenProviderOptions | ApiKeyOptions | AnonymousOptions;

export class OperationClient {
  readonly #transport: Transport;
  readonly #timeoutMs: number;
  readonly #retry: Required<RetryOptions>;
  readonly #random: () => number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #now: () => number;
  readonly #tokens: TokenManager | undefined;

  constructor(options: ConsultClientOptions) {
    if (options.tokenProvider && options.apiKey !== undefined) {
      throw new TypeError('ConsultClient takes either tokenProvider or apiKey, not both.');
    }
    this.#timeoutMs = options.timeoutMs ?? 15000;
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#random = options.random ?? Math.random;
    this.#sleep = options.sleep ?? sleep;
    this.#now = options.now ?? Date.now;
    const { apiKey, subPartnerName } = options;
    this.#transport = new Transport({
      baseUrl: options.baseUrl,
      fetch: options.fetch,
      timeoutMs: this.#timeoutMs,
      now: this.#now,
      apiKey,
    });

    const tokenOptions = { now: this.#now, refreshBeforeExpiryMs: options.refreshBeforeExpiryMs ?? 30000 };
    if (options.tokenProvider) {
      this.#tokens = new TokenManager(options.tokenProvider, tokenOptions);
    } else if (apiKey !== undefined) {
      const body = subPartnerName === undefined ? { apiKey } : { apiKey, subPartnerName };
      const exchange = toOperation('createAccessToken', CREATE_ACCESS_TOKEN, 'server');
      this.#tokens = new TokenManager(async (signal) => {
        const requestedAt = this.#now();
        const grant = (await this.call(exchange, { body }, signal ? { signal } : {})) as AccessToken;
        return { token: grant.accessToken, expiresAt: requestedAt + grant.expiresIn * 1000 };
      }, tokenOptions);
    }
  }

  /** Forgets the cached token and any token request in flight; the next call asks for a new one. */
  clearToken(): void {
    this.#tokens?.clear();
  }

  /**
   * Gets an access token now (exchanging the API key, or asking the token provider), or reuses the
   * one held: a server checks its key at start with it, and its first call then needs no exchange.
   */
  async authorize(options: { signal?: AbortSignal } = {}): Promise<void> {
    await this.#tokens?.get(options.signal);
  }

  /**
   * Every call goes through here: token, attempts with a timeout each, one token renewal on 401, retries with
   * backoff where safe (S15), and errors mapped to ApiError.
   */
  protected async call(
    operation: Operation | ProxyRoute,
    input: RequestInput,
    options: RequestOptions = {},
  ): Promise<unknown> {
    const { signal, keepalive } = options;
    signal?.throwIfAborted();
    const url = this.#transport.url(operation.path, input);
    const idempotencyKey = operation.creates ? (options.idempotencyKey ?? newIdempotencyKey()) : undefined;
    const tokens = operation.auth ? this.#tokens : undefined;
    let renewedAfter401 = false;
    /** How long this call has waited between attempts, for the unreachable window. */
    let waited = 0;

    for (let retry = 0; ;) {
      const token = await tokens?.get(signal);
      try {
        return await this.#transport.attempt(operation, url, input.body, {
          token,
          idempotencyKey,
          signal,
          keepalive,
        });
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (!(error instanceof ApiError)) throw error;
        if (error.status === 401 && tokens && token !== undefined) {
          // The server refused the token: forget it, renew once and repeat at once. A second 401 is final.
          tokens.invalidate(token);
          if (renewedAfter401) throw error;
          renewedAfter401 = true;
          continue;
        }
        if (!isTransient(error) || !canRetry(operation, idempotencyKey)) throw error;
        // An unreachable service (a restart, a deploy) is waited out up to the window; anything
        // else transient gets `retries` more tries.
        const unreachable =
          this.#retry.retries > 0 &&
          error.kind === 'network' &&
          waited < this.#retry.unreachableWindowMs &&
          retry < this.#retry.retries + MAX_UNREACHABLE_RETRIES;
        if (retry >= this.#retry.retries && !unreachable) throw error;
        if (error.retryAfterMs !== undefined && error.retryAfterMs > this.#retry.maxRetryAfterMs) throw error;
        const backoff = backoffDelay(retry, this.#retry, this.#random);
        // Past the retries, each wait is at least the base delay: the window is spent waiting, not hammering.
        const delay =
          error.retryAfterMs ??
          (retry >= this.#retry.retries ? Math.max(backoff, this.#retry.baseDelayMs) : backoff);
        retry++;
        waited += delay;
        await abortable(this.#sleep(delay, signal), signal);
      }
    }
  }

  /**
   * Gives the class one method per row of `definitions`, as the row says: the method's arguments
   * make the request, and the argument after them is its `RequestOptions`. A subclass calls it once,
   * in a static block, and declares the methods' types beside it.
   */
  protected static defineOperations(
    definitions: Partial<Record<OperationName, OperationDefinition>>,
    caller: Caller,
  ): void {
    for (const [name, definition] of Object.entries(definitions) as [OperationName, OperationDefinition][]) {
      const sent = toOperation(name, definition, caller);
      const request = definition.request as (...args: unknown[]) => RequestInput;
      const arity = request.length;
      Object.defineProperty(this.prototype, name, {
        configurable: true,
        writable: true,
        value(this: OperationClient, ...args: unknown[]) {
          return this.call(sent, request(...args.slice(0, arity)), args[arity] as RequestOptions | undefined);
        },
      });
    }
  }
}
