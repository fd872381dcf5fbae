/**
 * The request that signs the member in (`POST {endpoint}/session`) and the one that ends their
 * session on the proxy (`DELETE`): retries while the proxy is busy or restarting, the wait through
 * an outage, and the words the console has for a page that blocks them (docs/security.md S8).
 */
import { ApiError } from '../client/errors.js';
import { backoffDelay, parseRetryAfter, sleep } from '../client/retry.js';
import type { SessionGrant } from '../client/browser-types.js';
import {
  BLOCKED_BY_POLICY,
  ORIGIN_REFUSED,
  blockedByContentPolicy,
  refusedByCors,
  tellDeveloper,
} from './developer-hints.js';
import { unreachable } from './member-state.js';

/** A sign-in that hangs ends as an error with a retry, not as a spinner that never stops. */
const SIGN_IN_TIMEOUT_MS = 15_000;
/** Sign-in is tried again this many times when the proxy is busy or restarting. */
const SIGN_IN_RETRIES = 3;
const SIGN_IN_RETRY_STATUSES = new Set([429, 502, 503, 504]);
/** The longest wait between sign-in attempts, whatever Retry-After asks. */
const SIGN_IN_MAX_WAIT_MS = 5_000;
/** While the proxy or the service cannot be reached, sign-in is tried again after 2 s, doubling up to 30 s. */
const OUTAGE_WAIT = { baseDelayMs: 2_000, maxDelayMs: 30_000 };

export interface SignInRequest {
  /** `{endpoint}/session`. */
  url: string;
  /** The session's fetch. */
  fetch: typeof fetch;
  /** Whether the host gave its own fetch (a CORS refusal cannot be told then). */
  ownFetch: boolean;
  /** JSON for the partner's `authenticate` hook. */
  body: Record<string, unknown>;
  /** The proxy or the service did not answer: the page shows its one "Reconnecting…" notice. */
  unreachable(): void;
  /** Whether the session still wants this sign-in (it was not configured again or signed out). */
  current(): boolean;
}

/**
 * Sign-in while the proxy or the service cannot be reached: the one "Reconnecting…" notice shows
 * at the first failure, the elements keep their places (and the question box its text), and
 * sign-in is tried again quietly, sooner when the browser says it is online again, until it
 * gets through or the session is configured again or signed out.
 */
export async function signInThroughOutage(request: SignInRequest): Promise<SessionGrant> {
  return throughOutage(
    // A restarting proxy is tried a few times at once; an outage then once per wait.
    (failures) => requestSession(request, failures === 0 ? SIGN_IN_RETRIES : 0),
    {
      outage: unreachable,
      current: () => request.current(),
      unreachable: (error) => {
        request.unreachable();
        const { status, code } = error as ApiError;
        // A CORS refusal has said so already, naming the origin to allow.
        if (code !== ORIGIN_REFUSED)
          tellDeveloper('unreachable', new URL(request.url, globalThis.location?.href).href, status, code);
      },
    },
  );
}

/** How a sign-in waits out an outage: what counts as one, whether it is still wanted, and who is told. */
export interface OutageWait {
  /** The failure is an outage (nothing answered, or a gateway's 502, 503 or 504), not a refusal. */
  outage(error: unknown): boolean;
  /** Whether the session still wants this sign-in. */
  current(): boolean;
  /** Told at each failure that is an outage. */
  unreachable(error: unknown): void;
}

/**
 * Tries `attempt` until it answers: an outage is waited out (2 s, doubling up to 30 s, or until the
 * browser says it is online again) and tried again; any other failure, or a sign-in no longer
 * wanted, is thrown.
 */
export async function throughOutage<T>(
  attempt: (failures: number) => Promise<T>,
  wait: OutageWait,
): Promise<T> {
  for (let failures = 0; ; failures++) {
    // The browser may say it is online again while a try is still failing: heard then, the next
    // try goes at once instead of after a wait that no later word would cut short.
    const online = onlineSignal();
    try {
      return await attempt(failures);
    } catch (error) {
      if (!wait.outage(error) || !wait.current()) throw error;
      wait.unreachable(error);
      // The next try after the wait, or as soon as the browser says it is online again.
      await online.within(backoffDelay(failures, OUTAGE_WAIT, Math.random));
      if (!wait.current()) throw error;
    } finally {
      online.stop();
    }
  }
}

/** Hears the browser's `online` from now on; `within` settles at it (at once if heard) or after `ms`. */
function onlineSignal(): { within(ms: number): Promise<void>; stop(): void } {
  let heard = false;
  let wake: (() => void) | undefined;
  const listener = () => {
    heard = true;
    wake?.();
  };
  globalThis.addEventListener?.('online', listener);
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    within: (ms) =>
      heard
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            wake = resolve;
            timer = setTimeout(resolve, ms);
          }),
    stop: () => {
      globalThis.removeEventListener?.('online', listener);
      clearTimeout(timer);
    },
  };
}

/**
 * A host's own sign-in (`tokenProvider`) failed as an outage does: the browser is offline, its
 * fetch found nothing to answer (a `TypeError`, as fetch throws then), or its error carries a
 * gateway's status (502, 503, 504) or the client's own unreachable error. Anything else (a refusal,
 * a bug) is a failure the member is told of, with "Try again".
 */
export function hostSignInUnreachable(error: unknown): boolean {
  if (unreachable(error)) return true;
  if (globalThis.navigator?.onLine === false) return true;
  const status = (error as { status?: unknown } | null)?.status;
  if (status === 502 || status === 503 || status === 504) return true;
  return error instanceof TypeError && FETCH_FAILED.test(error.message);
}

/** What fetch's TypeError says when nothing answered, in Chromium, Firefox and Safari. */
const FETCH_FAILED = /failed to fetch|networkerror|load failed|network connection was lost/i;

/** How long to wait before sign-in attempt `retry + 2`: the proxy's Retry-After, else a backoff. */
function signInDelay(retry: number, response?: Response): number {
  const asked = response ? parseRetryAfter(response.headers.get('retry-after'), Date.now()) : undefined;
  if (asked !== undefined) return Math.min(asked, SIGN_IN_MAX_WAIT_MS);
  return backoffDelay(retry, { baseDelayMs: 500, maxDelayMs: SIGN_IN_MAX_WAIT_MS }, Math.random) + 250;
}

async function requestSession(request: SignInRequest, retries: number): Promise<SessionGrant> {
  const { url } = request;
  const once = () =>
    request.fetch(url, {
      method: 'POST',
      // The portal's own sign-in cookie goes along, also to a proxy on another origin.
      credentials: 'include',
      signal: AbortSignal.timeout(SIGN_IN_TIMEOUT_MS),
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(request.body),
    });
  // A busy or restarting proxy (429, 502, 503, 504, or no answer at all; a timeout is final) is
  // tried again a few times, honouring Retry-After, before the member sees a failure.
  const attempt = async (): Promise<Response> => {
    for (let retry = 0; ; retry++) {
      let response: Response | undefined;
      try {
        response = await once();
      } catch (error) {
        const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
        // Refused by the page's policy (said once, not retried), or by the CORS of a proxy on
        // another origin that answers (said once, then waited out like an outage).
        const refused = (await blockedByContentPolicy(url))
          ? BLOCKED_BY_POLICY
          : !request.ownFetch && (await refusedByCors(url))
            ? ORIGIN_REFUSED
            : undefined;
        if (refused)
          throw new ApiError({
            kind: 'network',
            status: 0,
            code: refused,
            title: 'Refused before it was sent',
            operation: 'session',
            cause: error,
          });
        if (timedOut || retry >= retries) throw error;
      }
      if (response && (retry >= retries || !SIGN_IN_RETRY_STATUSES.has(response.status))) return response;
      // Not answered twice in a row: the member is told now, not after every try.
      if (retry >= 1 && response?.status !== 429) request.unreachable();
      await sleep(signInDelay(retry, response));
    }
  };
  let response: Response;
  try {
    response = await attempt();
    // One retry on 401 (a portal session renewed a moment ago), then the session has ended.
    if (response.status === 401) response = await attempt();
    if (response.status === 404)
      tellDeveloper('sessionNotFound', new URL(url, globalThis.location?.href).href);
  } catch (cause) {
    if (cause instanceof ApiError) throw cause;
    const timedOut = cause instanceof DOMException && cause.name === 'TimeoutError';
    throw new ApiError({
      kind: timedOut ? 'timeout' : 'network',
      status: 0,
      code: timedOut ? 'timeout' : 'network_error',
      title: timedOut ? 'Sign-in timed out' : 'Network error',
      operation: 'session',
      cause,
    });
  }
  if (!response.ok) {
    const problem = (await response.json().catch(() => ({}))) as {
      code?: string;
      title?: string;
      detail?: string;
    };
    throw new ApiError({
      kind: 'http',
      status: response.status,
      code: problem.code ?? `http_${response.status}`,
      title: problem.title ?? 'Sign-in failed',
      operation: 'session',
      ...(problem.detail ? { detail: problem.detail } : {}),
    });
  }
  return (await response.json()) as SessionGrant;
}

/** `DELETE {endpoint}/session` with the token, sent even if the page is being left; its outcome does not matter here. */
export function endOnProxy(url: string, fetchImpl: typeof fetch, token: string, pushEndpoint?: string): void {
  void Promise.resolve()
    .then(() =>
      fetchImpl(url, {
        method: 'DELETE',
        credentials: 'include',
        keepalive: true,
        headers: {
          authorization: `Bearer ${token}`,
          ...(pushEndpoint ? { 'content-type': 'application/json' } : {}),
        },
        // This device's push subscription, which the proxy forgets with the session.
        ...(pushEndpoint ? { body: JSON.stringify({ pushEndpoint }) } : {}),
      }),
    )
    .catch(() => undefined);
}
