/**
 * The member's session with the partner's proxy: the widget token (from `{endpoint}/session`, or
 * a host's `signIn` function), the typed client that uses it, and the live event stream.
 * `<consult-session>` provides one to the elements inside it through `@lit/context`; an element
 * used alone shares one per endpoint.
 *
 * Token rules (docs/security.md S8): one sign-in request in flight, renewal before expiry (by the
 * client), one retry on 401, then `expired` and no loop. The token lives only in memory.
 */
import { createContext } from '@lit/context';
import { SessionClient } from './session-client.js';
import { ApiError } from '../client/errors.js';
import { expiryTime } from '../client/auth.js';
import { backoffDelay, parseRetryAfter, sleep } from '../client/retry.js';
import {
  type BrowserClient,
  type ConsultationEvent,
  type MemberView,
  type SessionGrant,
} from '../client/browser-types.js';
import { clearDrafts, clearDraftsExcept } from './drafts.js';
import {
  BLOCKED_BY_POLICY,
  ORIGIN_REFUSED,
  blockedByContentPolicy,
  refusedByCors,
  tellDeveloper,
} from './developer-hints.js';
import { Announcer } from './announcer.js';
import { EventStream } from './event-stream.js';
import { MemberState, unreachable, type Eligibility, type MemberStateOptions } from './member-state.js';

export type { SessionGrant };
/** The member as the proxy describes them. */
export type SessionUser = MemberView;

export type SessionStatus = 'idle' | 'signing-in' | 'ready' | 'expired' | 'error';

export type { Eligibility };

export interface SessionOptions {
  /** The proxy's base URL, for example `/consult`. */
  endpoint: string;
  /** Replaces the request to `{endpoint}/session`. */
  signIn?: () => Promise<SessionGrant>;
  /** JSON sent to `{endpoint}/session` for the partner's `authenticate` hook. Default `{}`. */
  signInBody?: Record<string, unknown>;
  /** Default the global fetch. */
  fetch?: typeof fetch;
  /** The member state's polling pace (tests set a faster one). */
  poll?: MemberStateOptions['poll'];
  /** The member state's polling timer (tests record the waits). */
  pollTimer?: MemberStateOptions['timer'];
}

/** A grant, with its expiry in ms and whether it was fetched because the proxy refused the one before. */
type Grant = SessionGrant & { expiresAtMs: number; afterRefusal: boolean };

/** A sign-in that hangs ends as an error with a retry, not as a spinner that never stops. */
const SIGN_IN_TIMEOUT_MS = 15_000;
/** Sign-in is tried again this many times when the proxy is busy or restarting. */
const SIGN_IN_RETRIES = 3;
const SIGN_IN_RETRY_STATUSES = new Set([429, 502, 503, 504]);
/** The longest wait between sign-in attempts, whatever Retry-After asks. */
const SIGN_IN_MAX_WAIT_MS = 5_000;
/** While the proxy or the service cannot be reached, sign-in is tried again after 2 s, doubling up to 30 s. */
const OUTAGE_WAIT = { baseDelayMs: 2_000, maxDelayMs: 30_000 };

export class SessionManager extends EventTarget {
  static readonly #byEndpoint = new Map<string, SessionManager>();

  /** One shared session per endpoint for elements used without `<consult-session>`. */
  static forEndpoint(endpoint: string): SessionManager {
    let session = SessionManager.#byEndpoint.get(endpoint);
    if (!session) SessionManager.#byEndpoint.set(endpoint, (session = new SessionManager({ endpoint })));
    return session;
  }

  status: SessionStatus = 'idle';
  user: SessionUser | undefined;
  /** True while the live event stream is open; elements poll while it is not. */
  live = false;
  /** How long answers usually take, in hours, as the partner tells members (`reply-hours`). */
  replyHours = 24;
  /** The number to call in an emergency, as the partner sets it (`emergency-number`); none by default. */
  emergencyNumber: string | undefined;

  #options: SessionOptions;
  #grant: Grant | undefined;
  /** A token the proxy refused; the next sign-in answers that refusal. */
  #refused: string | undefined;
  #handedOut: string | undefined;
  #signingIn: Promise<Grant> | undefined;
  #listeners = 0;
  readonly #stream = new EventStream({
    url: () => `${this.#options.endpoint.replace(/\/$/, '')}/events`,
    token: async () => {
      await this.ready();
      if (!this.#grant) throw new Error('no session');
      return this.#grant.token;
    },
    fetch: (url, init) => this.#fetch(url, init),
    // A refused token: the next round signs in again once; a fresh token refused too has ended
    // the session (see #fetch), and the stream stops.
    refused: () => {
      this.#grant = undefined;
      return this.status !== 'expired';
    },
    onEvent: (name, data) => {
      if (name === 'consultation') this.#hint(data);
      else if (name === 'ready') this.#onReady(data);
      else if (name === 'session-expired') void this.#signIn().catch(() => undefined);
    },
    onLive: (live) => this.#setLive(live),
    onSilent: (url) => tellDeveloper('streamSilent', new URL(url, globalThis.location?.href).href),
    // Updates may have been missed: what is shown is read again.
    onResync: () => this.dispatchEvent(new Event('resync')),
  });

  /**
   * The member's state: plan, consultations, prescription requests sent, unread answers, how
   * answers arrive. The elements render from it; it is emptied when the member changes.
   */
  readonly state: MemberState;

  /** What screen readers hear from every element of the session, said once. */
  readonly announcer = new Announcer();

  constructor(options: SessionOptions) {
    super();
    this.#options = options;
    this.#client = this.#createClient();
    this.state = new MemberState({
      client: () => this.client,
      ...(options.poll ? { poll: options.poll } : {}),
      ...(options.pollTimer ? { timer: options.pollTimer } : {}),
    });
    this.addEventListener('resync', () => this.state.resync());
  }

  /** The browser says the network is back: the state checks the connection now, not at its next wait. */
  #onOnline = (): void => this.state.reconnect();
  /** Polling pauses while the page is hidden. */
  #onVisibility = (): void => this.state.visibilityChanged();

  /** The page's signals, listened to only while an element shows the member's consultations. */
  #listenToPage(on: boolean): void {
    const method = on ? 'addEventListener' : 'removeEventListener';
    if (typeof window !== 'undefined') window[method]('online', this.#onOnline);
    if (typeof document !== 'undefined') document[method]('visibilitychange', this.#onVisibility);
  }

  /** The typed client, calling the proxy with this session's token. */
  get client(): BrowserClient {
    return this.#client;
  }

  /** Made again whenever the options change, so every call goes to the endpoint configured now. */
  #client: SessionClient;

  /**
   * Set when the page's Content Security Policy refused the sign-in: not asked again, until
   * `configure()`. A refusal by the proxy's CORS is waited out like an outage instead: a load
   * balancer answering 502 without CORS headers during a deploy looks the same from the page.
   */
  #blockedByPolicy?: ApiError;

  #createClient(): SessionClient {
    return new SessionClient({
      baseUrl: this.#options.endpoint,
      // Read at each call, so a host may set `fetch` after the session was made.
      fetch: (input, init) => this.#fetch(input, init),
      // A token is handed out once: asking again (expiry, or a 401) means a fresh sign-in.
      tokenProvider: async () => {
        const current = this.#grant;
        const grant =
          current && current.token !== this.#handedOut && current.expiresAtMs - Date.now() > 30_000
            ? current
            : await this.#signIn();
        this.#handedOut = grant.token;
        return { token: grant.token, expiresAt: grant.expiresAtMs };
      },
    });
  }

  /**
   * Every call to the proxy. A token the proxy refuses right after a sign-in that answered an
   * earlier refusal ends the session (S8): the next step would be a loop.
   */
  async #fetch(input: string, init: RequestInit = {}): Promise<Response> {
    const response = await (this.#options.fetch ?? globalThis.fetch.bind(globalThis))(input, init);
    const sent = new Headers(init.headers).get('authorization')?.replace(/^Bearer\s+/i, '');
    const grant = this.#grant;
    if (sent && grant && sent === grant.token) {
      if (response.status === 401) {
        if (grant.afterRefusal) this.#end('refused');
        else this.#refused = sent;
      } else if (response.ok) {
        grant.afterRefusal = false;
      }
    }
    return response;
  }

  /**
   * Whether the member may ask a doctor: the form and the navigator's hand-off ask the same
   * question, so one check (for a minute) answers both. `fresh` checks again, for a "try again".
   */
  async eligibility({ fresh = false }: { fresh?: boolean } = {}): Promise<Eligibility> {
    await this.ready();
    return this.state.checkPlan({ fresh });
  }

  /** Forgets the token everywhere, the client's cache included, so no later call can use it. */
  #forgetToken(): void {
    this.#grant = undefined;
    this.#handedOut = undefined;
    this.#refused = undefined;
    this.#client.clearToken();
  }

  #end(reason: 'signed-out' | 'refused'): void {
    this.#forgetToken();
    this.#stream.stop();
    this.#setStatus('expired', reason);
  }

  get endpoint(): string {
    return this.#options.endpoint;
  }

  /** Signs in if needed and answers the member. Rejects when the session cannot be had. */
  async ready(): Promise<SessionUser> {
    const grant = this.#grant && this.#grant.expiresAtMs > Date.now() ? this.#grant : await this.#signIn();
    return grant.user;
  }

  /** Replaces the options (a host setting `signIn`, `fetch` or another endpoint) and starts over. */
  configure(options: Partial<SessionOptions>): void {
    this.#forgetToken();
    this.#options = { ...this.#options, ...options };
    this.#blockedByPolicy = undefined;
    // A sign-in still on its way was asked of the old options: its answer is not used.
    this.#configuration++;
    this.#signingIn = undefined;
    this.#client = this.#createClient();
    this.#setStatus('idle');
    // An open stream is reopened at the endpoint configured now.
    if (this.#listeners > 0) {
      this.#stream.stop();
      this.#stream.start();
    }
  }

  /** Counts `configure()` calls: a sign-in answers only the configuration it was asked under. */
  #configuration = 0;

  /**
   * Ends the session: tells the proxy (which refuses the token from then on, everywhere), and
   * forgets the token and the member's drafts here (S16).
   */
  signOut(): void {
    const token = this.#grant?.token;
    if (token) this.#endOnProxy(token);
    if (this.user) clearDrafts(this.user.id);
    this.user = undefined;
    // The member's scope aborts first: nothing in flight for them may land after this.
    this.state.signOut();
    this.announcer.clear();
    // A sign-in still waiting out an outage stops waiting.
    this.#configuration++;
    this.#end('signed-out');
  }

  /** `DELETE {endpoint}/session` with the token, sent even if the page is being left; its outcome does not matter here. */
  #endOnProxy(token: string): void {
    const fetchImpl = this.#options.fetch ?? globalThis.fetch.bind(globalThis);
    void Promise.resolve()
      .then(() =>
        fetchImpl(`${this.#options.endpoint.replace(/\/$/, '')}/session`, {
          method: 'DELETE',
          credentials: 'include',
          keepalive: true,
          headers: { authorization: `Bearer ${token}` },
        }),
      )
      .catch(() => undefined);
  }

  /** Tries again after an error or expiry. */
  async retry(): Promise<SessionUser> {
    this.#setStatus('idle');
    return this.ready();
  }

  /**
   * Keeps the member's consultations current while anyone shows them: the live stream is open,
   * and the state polls when the proxy cannot push. Answers the function that stops watching.
   */
  watch(): () => void {
    const unwatch = this.state.watch();
    if (++this.#listeners === 1) {
      this.#stream.start();
      this.#listenToPage(true);
    }
    let watching = true;
    return () => {
      if (!watching) return;
      watching = false;
      unwatch();
      if (--this.#listeners === 0) {
        this.#stream.stop();
        this.#listenToPage(false);
      }
    };
  }

  #setStatus(status: SessionStatus, reason?: string): void {
    this.status = status;
    this.dispatchEvent(new CustomEvent('status', { detail: { status, reason } }));
  }

  /**
   * One sign-in in flight at a time; a 401 from the proxy ends the session instead of looping, and
   * an ended session signs in again only through `retry()` or `configure()`.
   */
  #signIn(): Promise<Grant> {
    if (this.#signingIn) return this.#signingIn;
    // The page's policy refused the proxy: every element's next try would be refused the same way.
    if (this.#blockedByPolicy) {
      this.#setStatus('error');
      return Promise.reject(this.#blockedByPolicy);
    }
    if (this.status === 'expired')
      return Promise.reject(
        new ApiError({
          kind: 'http',
          status: 401,
          code: 'session_expired',
          title: 'Session expired',
          operation: 'session',
        }),
      );
    this.#setStatus('signing-in');
    // Settles in a later task in any case, so it is always cleared after it was set.
    const signingIn: Promise<Grant> = this.#attemptSignIn(this.#configuration).finally(() => {
      if (this.#signingIn === signingIn) this.#signingIn = undefined;
    });
    this.#signingIn = signingIn;
    return signingIn;
  }

  async #attemptSignIn(configuration: number): Promise<Grant> {
    try {
      const grant = this.#options.signIn
        ? await this.#options.signIn()
        : await this.#waitOutOutage(configuration, (retries) => this.#requestSession(retries));
      // Configured again meanwhile (another endpoint or sign-in): this grant is for the old one.
      if (configuration !== this.#configuration) return await this.#signIn();
      const withExpiry: Grant = {
        ...grant,
        expiresAtMs: expiryTime(grant.expiresAt),
        afterRefusal: this.#refused !== undefined,
      };
      this.#refused = undefined;
      // Another member now: nothing of the previous one's may remain, in the client or in storage.
      if (this.user && this.user.id !== grant.user.id) this.#client.clearToken();
      clearDraftsExcept(grant.user.id);
      this.#grant = withExpiry;
      this.user = grant.user;
      if (this.state.member && this.state.member.id !== grant.user.id) this.announcer.clear();
      this.state.setMember(grant.user);
      this.state.setReachable(true);
      this.#setStatus('ready');
      // Signed in again after the session ended: the stream comes back for whoever still listens.
      if (this.#listeners > 0) this.#stream.start();
      return withExpiry;
    } catch (error) {
      if (configuration !== this.#configuration) throw error;
      if (error instanceof ApiError && error.code === BLOCKED_BY_POLICY) this.#blockedByPolicy = error;
      // A host's own tokenProvider may throw its own error with `status: 401`: that ends the session too.
      const unauthorized = (error as { status?: unknown } | null)?.status === 401;
      this.#grant = undefined;
      this.#setStatus(unauthorized ? 'expired' : 'error', unauthorized ? 'refused' : undefined);
      throw error;
    }
  }

  /**
   * Sign-in while the proxy or the service cannot be reached: the one "Reconnecting…" notice shows
   * at the first failure, the elements keep their places (and the question box its text), and
   * sign-in is tried again quietly, sooner when the browser says it is online again, until it
   * gets through or the session is configured again or signed out.
   */
  async #waitOutOutage(
    configuration: number,
    request: (retries: number) => Promise<SessionGrant>,
  ): Promise<SessionGrant> {
    for (let failures = 0; ; failures++) {
      try {
        // A restarting proxy is tried a few times at once; an outage then once per wait.
        return await request(failures === 0 ? SIGN_IN_RETRIES : 0);
      } catch (error) {
        if (!unreachable(error) || configuration !== this.#configuration) throw error;
        this.state.setReachable(false);
        const { status, code } = error as ApiError;
        // A CORS refusal has said so already, naming the origin to allow.
        if (code !== ORIGIN_REFUSED)
          tellDeveloper(
            'unreachable',
            new URL(this.#sessionUrl(), globalThis.location?.href).href,
            status,
            code,
          );
        // The next try after the wait, or as soon as the browser says it is online again.
        await new Promise((resolve) => {
          setTimeout(resolve, backoffDelay(failures, OUTAGE_WAIT, Math.random));
          globalThis.addEventListener?.('online', resolve, { once: true });
        });
        if (configuration !== this.#configuration) throw error;
      }
    }
  }

  #sessionUrl(): string {
    return `${this.#options.endpoint.replace(/\/$/, '')}/session`;
  }

  /** How long to wait before sign-in attempt `retry + 2`: the proxy's Retry-After, else a backoff. */
  #signInDelay(retry: number, response?: Response): number {
    const asked = response ? parseRetryAfter(response.headers.get('retry-after'), Date.now()) : undefined;
    if (asked !== undefined) return Math.min(asked, SIGN_IN_MAX_WAIT_MS);
    return backoffDelay(retry, { baseDelayMs: 500, maxDelayMs: SIGN_IN_MAX_WAIT_MS }, Math.random) + 250;
  }

  async #requestSession(retries: number): Promise<SessionGrant> {
    const fetchImpl = this.#options.fetch ?? globalThis.fetch.bind(globalThis);
    const url = this.#sessionUrl();
    const once = () =>
      fetchImpl(url, {
        method: 'POST',
        // The portal's own sign-in cookie goes along, also to a proxy on another origin.
        credentials: 'include',
        signal: AbortSignal.timeout(SIGN_IN_TIMEOUT_MS),
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(this.#options.signInBody ?? {}),
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
            : !this.#options.fetch && (await refusedByCors(url))
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
        if (retry >= 1 && response?.status !== 429) this.state.setReachable(false);
        await sleep(this.#signInDelay(retry, response));
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

  #setLive(live: boolean): void {
    this.state.setLive(live);
    if (this.live === live) return;
    this.live = live;
    this.dispatchEvent(new CustomEvent('live', { detail: { live } }));
  }

  /** The stream's first event says whether the proxy pushes answers (it has a webhook) or the page polls. */
  #onReady(data: string): void {
    try {
      const ready = JSON.parse(data) as { webhooks?: unknown };
      this.state.setDelivery(ready.webhooks === false ? 'poll' : 'push');
    } catch {
      // An older proxy's ready event: it pushes.
    }
  }

  /** An event is a hint: the consultation is re-read by the state, never taken from the event. */
  #hint(data: string): void {
    let hint: Partial<ConsultationEvent>;
    try {
      hint = JSON.parse(data) as typeof hint;
    } catch {
      return;
    }
    if (hint.consultationId) this.state.hint(hint.consultationId);
  }
}

export const sessionContext = createContext<SessionManager | undefined>(Symbol('consult-session'));
