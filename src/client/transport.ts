/**
 * One HTTP exchange of an operation: its URL, its headers, the per-attempt time limit and the
 * caller's signal, and its answer read whole and mapped to a value or an `ApiError`. Retrying and
 * tokens are the caller's (src/client/operation-client.ts).
 */
import { ApiError, httpError } from './errors.js';
import type { Operation, ProxyRoute, RequestInput } from './operations.js';
import { abortable, parseRetryAfter } from './retry.js';

/** What the client reads of a response; a `Response` fits. */
export interface FetchResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** What the client passes to its fetch: `RequestInit`, and the attempt's time limit. */
export interface FetchInit extends RequestInit {
  /** For a fetch that `enforcesLimits`: the whole answer must have come within this, or it rejects. 0 for none. */
  timeoutMs?: number;
}

/**
 * `fetch` as the client calls it; `globalThis.fetch` fits. A fetch marked `enforcesLimits` keeps
 * an attempt's limits itself: it rejects with the signal's reason as soon as `init.signal` aborts,
 * and with a `TimeoutError` once `init.timeoutMs` has passed without the whole answer, the body
 * included. The client then leaves both to it instead of watching them with a controller and a
 * timer of its own.
 */
export type FetchLike = ((input: string, init: FetchInit) => Promise<FetchResponse>) & {
  enforcesLimits?: boolean;
};

export interface TransportOptions {
  baseUrl: string;
  fetch: FetchLike | undefined;
  timeoutMs: number;
  now: () => number;
  /** Kept only to make sure an echoing server cannot put it into an error. */
  apiKey: string | undefined;
}

/** What one attempt sends beside the request's own parts. */
export interface AttemptCredentials {
  token?: string | undefined;
  idempotencyKey?: string | undefined;
  signal?: AbortSignal | undefined;
  keepalive?: boolean | undefined;
}

export class Transport {
  readonly #baseUrl: string;
  readonly #fetch: FetchLike;
  readonly #fetchEnforcesLimits: boolean;
  readonly #timeoutMs: number;
  readonly #now: () => number;
  readonly #apiKey: string | undefined;

  constructor(options: TransportOptions) {
    this.#baseUrl = resolveBaseUrl(options.baseUrl);
    const customFetch = options.fetch;
    // Called as a plain function, never as a method of the client.
    this.#fetch = customFetch
      ? (input, init) => customFetch(input, init)
      : (input, init) => fetch(input, init);
    this.#fetchEnforcesLimits = customFetch?.enforcesLimits === true;
    this.#timeoutMs = options.timeoutMs;
    this.#now = options.now;
    this.#apiKey = options.apiKey;
  }

  /** One HTTP exchange, limited by the per-attempt timeout and the caller's signal. */
  async attempt(
    operation: Operation | ProxyRoute,
    url: string,
    body: unknown,
    { token, idempotencyKey, signal, keepalive }: AttemptCredentials,
  ): Promise<unknown> {
    signal?.throwIfAborted();
    const headers: Record<string, string> = { accept: 'application/json, application/problem+json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;

    const init: FetchInit = { method: operation.method, headers, keepalive };
    if (body !== undefined) init.body = JSON.stringify(body);
    let response: FetchResponse;
    let text: string;
    try {
      ({ response, text } = await this.#exchange(url, init, signal));
    } catch (cause) {
      if (signal?.aborted) throw signal.reason;
      throw cause instanceof DOMException && cause.name === 'TimeoutError'
        ? new ApiError({
            kind: 'timeout',
            status: 0,
            code: 'timeout',
            title: 'Request timed out',
            detail: `No complete response within ${this.#timeoutMs} ms.`,
            operation: operation.name,
            cause,
          })
        : new ApiError({
            kind: 'network',
            status: 0,
            code: 'network_error',
            title: 'Network error',
            detail: 'The service could not be reached.',
            operation: operation.name,
            cause,
          });
    }

    if (!response.ok) {
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), this.#now());
      throw httpError({
        operation: operation.name,
        status: response.status,
        statusText: response.statusText,
        body: text,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        secrets: [this.#apiKey ?? '', token ?? ''],
      });
    }
    if (response.status === 204 || text.trim() === '') return undefined;
    try {
      return JSON.parse(text);
    } catch (cause) {
      throw new ApiError({
        kind: 'http',
        status: response.status,
        code: 'invalid_response',
        title: 'Invalid response',
        detail: 'The response body is not JSON.',
        operation: operation.name,
        cause,
      });
    }
  }

  /** The request's URL; throws a `TypeError` for a path parameter that could change the path. */
  url(template: string, { params = {}, query }: RequestInput): string {
    const path = template.replace(/\{(\w+)\}/g, (_, key: string) => pathSegment(key, params[key]));
    return `${this.#baseUrl}${path}${query ? `?${new URLSearchParams(query).toString()}` : ''}`;
  }

  /**
   * Sends one request and reads its answer whole, within the per-attempt timeout and the caller's
   * signal. Rejects with a `TimeoutError` when the time ran out.
   */
  async #exchange(
    url: string,
    init: FetchInit,
    signal: AbortSignal | undefined,
  ): Promise<{ response: FetchResponse; text: string }> {
    if (this.#fetchEnforcesLimits) {
      // The fetch keeps both limits itself: `init` (this attempt's own) just carries them.
      init.timeoutMs = this.#timeoutMs;
      if (signal) init.signal = signal;
      const response = await this.#fetch(url, init);
      return { response, text: await response.text() };
    }
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer =
      this.#timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            controller.abort(new DOMException('The request timed out.', 'TimeoutError'));
          }, this.#timeoutMs)
        : undefined;
    init.signal = controller.signal;
    try {
      // A fetch that ignored its signal would otherwise hold the call past a timeout or an abort.
      const response = await abortable(this.#fetch(url, init), controller.signal);
      return { response, text: await abortable(response.text(), controller.signal) };
    } catch (cause) {
      throw timedOut ? (controller.signal.reason as DOMException) : cause;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

/** Encodes a path parameter so that no value, `../x` included, can change which path is called. */
function pathSegment(name: string, value: string | undefined): string {
  // `.` and `..` (even percent-encoded) would be resolved away by URL parsing, and '' would leave an empty segment.
  if (value === undefined || value === '' || value === '.' || value === '..') {
    throw new TypeError(`${name} must be a non-empty identifier.`);
  }
  return encodeURIComponent(value);
}

function resolveBaseUrl(baseUrl: string): string {
  const page = (globalThis as { location?: { href?: string } }).location?.href;
  let url: URL;
  try {
    url = new URL(baseUrl, page);
  } catch {
    throw new TypeError(
      `baseUrl "${baseUrl}" is not an absolute URL and there is no page location to resolve it.`,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
