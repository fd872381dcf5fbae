/**
 * Typed client for the 20 operations of the partner health consultation service (spec section 4). The same class
 * runs in the browser against the partner's proxy with a widget token, and in Node against the upstream with the
 * API key. It uses only web-standard globals: fetch, AbortController, URL, crypto.getRandomValues, setTimeout.
 */
import { TokenManager, type TokenProvider } from './auth.js';
import { ApiError, httpError } from './errors.js';
import {
  DEFAULT_RETRY,
  MAX_UNREACHABLE_RETRIES,
  abortable,
  backoffDelay,
  canRetry,
  isTransient,
  newIdempotencyKey,
  parseRetryAfter,
  sleep,
  type RetryOptions,
} from './retry.js';
import type {
  AccessToken,
  AddFollowUpRequest,
  Consultation,
  CreateAccessTokenRequest,
  CreateConsultationRequest,
  CreatePrescriptionRequest,
  CreateSubscriptionRequest,
  CreateUserRequest,
  CreateWebhookRequest,
  NavigatorConversation,
  NavigatorReply,
  PrescriptionRequest,
  SearchUsersRequest,
  SendNavigatorMessageRequest,
  Subscription,
  UpdateUserRequest,
  User,
  Webhook,
  WebhookEvent,
} from './types.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One row of {@link OPERATIONS}. */
export interface Operation {
  /** The client method. */
  readonly name: string;
  /** Operation number in spec section 4. */
  readonly number: number;
  readonly method: HttpMethod;
  /** Path template; `{name}` is a path parameter. */
  readonly path: string;
  /** Sent with the bearer token; only the token operation is not. */
  readonly auth: boolean;
  /** Creates a record: sent with an `Idempotency-Key`, and retried only with one. */
  readonly creates: boolean;
  /** Safe to repeat without an idempotency key: reads, PUT, DELETE and the read-only POSTs. */
  readonly retrySafe: boolean;
}

const read = { auth: true, creates: false, retrySafe: true } as const;
const create = { auth: true, creates: true, retrySafe: false } as const;

/**
 * The 20 operations, in spec order, each a constant of its own: a client that offers only some of
 * them (the browser's, src/session/session-client.ts) carries only those. The client's methods are
 * built on them; the proxy and tests enumerate `OPERATIONS`.
 */
export const createAccessTokenOperation = {
  name: 'createAccessToken',
  number: 1,
  method: 'POST',
  path: '/partner/authorization/token',
  ...read,
  auth: false,
} as const satisfies Operation;
export const createUserOperation = {
  name: 'createUser',
  number: 2,
  method: 'POST',
  path: '/user',
  ...create,
} as const satisfies Operation;
export const getUserOperation = {
  name: 'getUser',
  number: 3,
  method: 'GET',
  path: '/user/{userId}',
  ...read,
} as const satisfies Operation;
export const updateUserOperation = {
  name: 'updateUser',
  number: 4,
  method: 'PUT',
  path: '/user/{userId}',
  ...read,
} as const satisfies Operation;
export const searchUsersByQueryOperation = {
  name: 'searchUsersByQuery',
  number: 5,
  method: 'GET',
  path: '/user/search',
  ...read,
} as const satisfies Operation;
export const searchUsersByBodyOperation = {
  name: 'searchUsersByBody',
  number: 6,
  method: 'POST',
  path: '/user/search',
  ...read,
} as const satisfies Operation;
export const createSubscriptionOperation = {
  name: 'createSubscription',
  number: 7,
  method: 'POST',
  path: '/user/{userId}/subscription',
  ...create,
} as const satisfies Operation;
export const getUserSubscriptionsOperation = {
  name: 'getUserSubscriptions',
  number: 8,
  method: 'GET',
  path: '/user/{userId}/subscriptions',
  ...read,
} as const satisfies Operation;
export const getSubscriptionOperation = {
  name: 'getSubscription',
  number: 9,
  method: 'GET',
  path: '/user/{userId}/subscription/{subscriptionId}',
  ...read,
} as const satisfies Operation;
export const getSubscriptionHistoryOperation = {
  name: 'getSubscriptionHistory',
  number: 10,
  method: 'GET',
  path: '/user/{userId}/subscription/{subscriptionId}/history',
  ...read,
} as const satisfies Operation;
export const createConsultationOperation = {
  name: 'createConsultation',
  number: 11,
  method: 'POST',
  path: '/consultation',
  ...create,
} as const satisfies Operation;
export const getConsultationOperation = {
  name: 'getConsultation',
  number: 12,
  method: 'GET',
  path: '/consultation/{consultationId}',
  ...read,
} as const satisfies Operation;
export const addConsultationFollowUpOperation = {
  name: 'addConsultationFollowUp',
  number: 13,
  method: 'POST',
  path: '/consultation/{consultationId}',
  ...create,
} as const satisfies Operation;
export const getCaseHistoryOperation = {
  name: 'getCaseHistory',
  number: 14,
  method: 'GET',
  path: '/user/{userId}/case-history',
  ...read,
} as const satisfies Operation;
export const createWebhookOperation = {
  name: 'createWebhook',
  number: 15,
  method: 'POST',
  path: '/webhook',
  ...create,
} as const satisfies Operation;
export const deleteWebhookOperation = {
  name: 'deleteWebhook',
  number: 16,
  method: 'DELETE',
  path: '/webhook/{webhookId}',
  ...read,
} as const satisfies Operation;
export const formatWebhookEventOperation = {
  name: 'formatWebhookEvent',
  number: 17,
  method: 'POST',
  path: '/webhook/format-event',
  ...read,
} as const satisfies Operation;
export const startNavigatorConversationOperation = {
  name: 'startNavigatorConversation',
  number: 18,
  method: 'POST',
  path: '/v2/health-navigator/users/{userId}/conversations',
  ...create,
} as const satisfies Operation;
export const sendNavigatorMessageOperation = {
  name: 'sendNavigatorMessage',
  number: 19,
  method: 'POST',
  path: '/v2/health-navigator/messages',
  ...create,
} as const satisfies Operation;
export const createPrescriptionRequestOperation = {
  name: 'createPrescriptionRequest',
  number: 20,
  method: 'POST',
  path: '/prescription',
  ...create,
} as const satisfies Operation;

export const OPERATIONS = [
  createAccessTokenOperation,
  createUserOperation,
  getUserOperation,
  updateUserOperation,
  searchUsersByQueryOperation,
  searchUsersByBodyOperation,
  createSubscriptionOperation,
  getUserSubscriptionsOperation,
  getSubscriptionOperation,
  getSubscriptionHistoryOperation,
  createConsultationOperation,
  getConsultationOperation,
  addConsultationFollowUpOperation,
  getCaseHistoryOperation,
  createWebhookOperation,
  deleteWebhookOperation,
  formatWebhookEventOperation,
  startNavigatorConversationOperation,
  sendNavigatorMessageOperation,
  createPrescriptionRequestOperation,
] as const;

export type OperationName = (typeof OPERATIONS)[number]['name'];

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

/** The last argument of every method. */
export interface RequestOptions {
  /** Aborting rejects the call with the signal's reason, at once, also while waiting to retry; never retried. */
  signal?: AbortSignal;
  /** For creates: the `Idempotency-Key` to send (default: a fresh random one per call, reused on its retries). */
  idempotencyKey?: string;
}

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

interface RequestInput {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

/**
 * What every client shares: the base URL, tokens (from an API key or a token provider), timeouts,
 * retries and errors. Its subclasses name the operations they offer.
 */
export class OperationClient {
  readonly #baseUrl: string;
  readonly #fetch: FetchLike;
  readonly #fetchEnforcesLimits: boolean;
  readonly #timeoutMs: number;
  readonly #retry: Required<RetryOptions>;
  readonly #random: () => number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #now: () => number;
  readonly #tokens: TokenManager | undefined;
  // Kept only to make sure an echoing server cannot put it into an error.
  readonly #apiKey: string | undefined;

  constructor(options: ConsultClientOptions) {
    this.#baseUrl = resolveBaseUrl(options.baseUrl);
    const customFetch = options.fetch;
    this.#fetch = customFetch
      ? (input, init) => customFetch(input, init)
      : (input, init) => fetch(input, init);
    this.#fetchEnforcesLimits = customFetch?.enforcesLimits === true;
    this.#timeoutMs = options.timeoutMs ?? 15000;
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#random = options.random ?? Math.random;
    this.#sleep = options.sleep ?? sleep;
    this.#now = options.now ?? Date.now;

    if (options.tokenProvider && options.apiKey !== undefined) {
      throw new TypeError('ConsultClient takes either tokenProvider or apiKey, not both.');
    }
    const tokenOptions = { now: this.#now, refreshBeforeExpiryMs: options.refreshBeforeExpiryMs ?? 30000 };
    const { apiKey, subPartnerName } = options;
    this.#apiKey = apiKey;
    if (options.tokenProvider) {
      this.#tokens = new TokenManager(options.tokenProvider, tokenOptions);
    } else if (apiKey !== undefined) {
      const body = subPartnerName === undefined ? { apiKey } : { apiKey, subPartnerName };
      this.#tokens = new TokenManager(async (signal) => {
        const requestedAt = this.#now();
        const grant = await this.call<AccessToken>(
          createAccessTokenOperation,
          { body },
          signal ? { signal } : {},
        );
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
  protected async call<T>(
    operation: Operation,
    input: RequestInput,
    options: RequestOptions = {},
  ): Promise<T> {
    const { signal } = options;
    signal?.throwIfAborted();
    const url = this.#url(operation.path, input);
    const idempotencyKey = operation.creates ? (options.idempotencyKey ?? newIdempotencyKey()) : undefined;
    const tokens = operation.auth ? this.#tokens : undefined;
    let renewedAfter401 = false;
    /** How long this call has waited between attempts, for the unreachable window. */
    let waited = 0;

    for (let retry = 0; ;) {
      const token = await tokens?.get(signal);
      try {
        return (await this.#attempt(operation, url, input.body, { token, idempotencyKey, signal })) as T;
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

  /** One HTTP exchange, limited by the per-attempt timeout and the caller's signal. */
  async #attempt(
    operation: Operation,
    url: string,
    body: unknown,
    { token, idempotencyKey, signal }: { token?: string; idempotencyKey?: string; signal?: AbortSignal },
  ): Promise<unknown> {
    signal?.throwIfAborted();
    const headers: Record<string, string> = { accept: 'application/json, application/problem+json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;

    const init: FetchInit = { method: operation.method, headers };
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

  #url(template: string, { params = {}, query }: RequestInput): string {
    const path = template.replace(/\{(\w+)\}/g, (_, key: string) => pathSegment(key, params[key]));
    return `${this.#baseUrl}${path}${query ? `?${new URLSearchParams(query).toString()}` : ''}`;
  }
}

/** The typed client for all 20 operations of the service, for a server (with an API key) or a browser. */
export class ConsultClient extends OperationClient {
  /** Operation 1: exchange an API key for an access token (sent without Authorization). */
  createAccessToken(body: CreateAccessTokenRequest, options?: RequestOptions): Promise<AccessToken> {
    return this.call(createAccessTokenOperation, { body }, options);
  }

  /** Operation 2: create a user account. */
  createUser(body: CreateUserRequest, options?: RequestOptions): Promise<User> {
    return this.call(createUserOperation, { body }, options);
  }

  /** Operation 3: get a user account. */
  getUser(userId: string, options?: RequestOptions): Promise<User> {
    return this.call(getUserOperation, { params: { userId } }, options);
  }

  /** Operation 4: update a user account. */
  updateUser(userId: string, body: UpdateUserRequest, options?: RequestOptions): Promise<User> {
    return this.call(updateUserOperation, { params: { userId }, body }, options);
  }

  /** Operation 5: search user accounts by `uniqueId` in the query. */
  searchUsersByQuery(uniqueId: string, options?: RequestOptions): Promise<User[]> {
    return this.call(searchUsersByQueryOperation, { query: { uniqueId } }, options);
  }

  /** Operation 6: search user accounts by body. */
  searchUsersByBody(body: SearchUsersRequest, options?: RequestOptions): Promise<User[]> {
    return this.call(searchUsersByBodyOperation, { body }, options);
  }

  /** Operation 7: create a subscription for a user. */
  createSubscription(
    userId: string,
    body: CreateSubscriptionRequest = {},
    options?: RequestOptions,
  ): Promise<Subscription> {
    return this.call(createSubscriptionOperation, { params: { userId }, body }, options);
  }

  /** Operation 8: get all subscriptions of a user. */
  getUserSubscriptions(userId: string, options?: RequestOptions): Promise<Subscription[]> {
    return this.call(getUserSubscriptionsOperation, { params: { userId } }, options);
  }

  /** Operation 9: get a subscription. */
  getSubscription(userId: string, subscriptionId: string, options?: RequestOptions): Promise<Subscription> {
    return this.call(getSubscriptionOperation, { params: { userId, subscriptionId } }, options);
  }

  /** Operation 10: get the renewal history of a subscription. */
  getSubscriptionHistory(
    userId: string,
    subscriptionId: string,
    options?: RequestOptions,
  ): Promise<Subscription[]> {
    return this.call(getSubscriptionHistoryOperation, { params: { userId, subscriptionId } }, options);
  }

  /** Operation 11: create a consultation. */
  createConsultation(body: CreateConsultationRequest, options?: RequestOptions): Promise<Consultation> {
    return this.call(createConsultationOperation, { body }, options);
  }

  /** Operation 12: get a consultation. */
  getConsultation(consultationId: string, options?: RequestOptions): Promise<Consultation> {
    return this.call(getConsultationOperation, { params: { consultationId } }, options);
  }

  /** Operation 13: add a follow-up question to a consultation. */
  addConsultationFollowUp(
    consultationId: string,
    body: AddFollowUpRequest,
    options?: RequestOptions,
  ): Promise<Consultation> {
    return this.call(addConsultationFollowUpOperation, { params: { consultationId }, body }, options);
  }

  /** Operation 14: get all consultations of a user. */
  getCaseHistory(userId: string, options?: RequestOptions): Promise<Consultation[]> {
    return this.call(getCaseHistoryOperation, { params: { userId } }, options);
  }

  /** Operation 15: register a webhook. */
  createWebhook(body: CreateWebhookRequest, options?: RequestOptions): Promise<Webhook> {
    return this.call(createWebhookOperation, { body }, options);
  }

  /** Operation 16: delete a webhook. */
  deleteWebhook(webhookId: string, options?: RequestOptions): Promise<void> {
    return this.call(deleteWebhookOperation, { params: { webhookId } }, options);
  }

  /** Operation 17: format a webhook event from an arbitrary object. */
  formatWebhookEvent(payload: Record<string, unknown>, options?: RequestOptions): Promise<WebhookEvent> {
    return this.call(formatWebhookEventOperation, { body: payload }, options);
  }

  /** Operation 18: start a health navigator conversation for a user. */
  startNavigatorConversation(
    userId: string,
    body: Record<string, unknown> = {},
    options?: RequestOptions,
  ): Promise<NavigatorConversation> {
    return this.call(startNavigatorConversationOperation, { params: { userId }, body }, options);
  }

  /** Operation 19: send a message in a health navigator conversation. */
  sendNavigatorMessage(body: SendNavigatorMessageRequest, options?: RequestOptions): Promise<NavigatorReply> {
    return this.call(sendNavigatorMessageOperation, { body }, options);
  }

  /** Operation 20: create a prescription request. */
  createPrescriptionRequest(
    body: CreatePrescriptionRequest,
    options?: RequestOptions,
  ): Promise<PrescriptionRequest> {
    return this.call(createPrescriptionRequestOperation, { body }, options);
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
