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
import { type BrowserClient, type MemberView, type SessionGrant } from '../client/browser-types.js';
import { tellDeveloper } from './developer-hints.js';
import { Announcer } from './announcer.js';
import { LiveUpdates } from './live-updates.js';
import type { PushDevice } from '../push/device.js';
import { DeviceNotifications } from './device-notifications.js';
import { MemberScope } from './member-scope.js';
import { MemberState, type Eligibility, type MemberStateOptions } from './member-state.js';
import { NetworkSignals } from './network-signals.js';
import { WidgetGrant, type Grant } from './widget-grant.js';
import { endOnProxy } from './sign-in-request.js';
import { SignInFlow } from './sign-in-flow.js';

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

/** A gateway's answer when the proxy or the service behind it does not answer. */
const GATEWAY_FAILURES: ReadonlySet<number> = new Set([502, 503, 504]);

export class SessionManager extends EventTarget {
  static readonly #byEndpoint = new Map<string, SessionManager>();

  /** One shared session per endpoint for elements used without `<consult-session>`. */
  static forEndpoint(endpoint: string): SessionManager {
    let session = SessionManager.#byEndpoint.get(endpoint);
    if (!session) SessionManager.#byEndpoint.set(endpoint, (session = new SessionManager({ endpoint })));
    return session;
  }

  status: SessionStatus = 'idle';

  /** The member, once signed in: `member.current`, read from the one place that holds it. */
  get user(): SessionUser | undefined {
    return this.state.member;
  }

  /** True while the live event stream is open (`state.link.live`); elements poll while it is not. */
  get live(): boolean {
    return this.state.link.live;
  }
  /** How long answers usually take, in hours, as the partner tells members (`reply-hours`). */
  replyHours = 24;
  /** The number to call in an emergency, as the partner sets it (`emergency-number`); none by default. */
  emergencyNumber: string | undefined;

  #options: SessionOptions;
  /** The widget token, in memory only. */
  readonly #grant = new WidgetGrant();
  /**
   * The member's state: plan, consultations, prescription requests sent, unread answers, how
   * answers arrive. The elements render from it; it is emptied when the member changes.
   */
  readonly state: MemberState;

  /** What screen readers hear from every element of the session, said once. */
  readonly announcer = new Announcer();

  /**
   * Sign-in, sign-out and member change: the one place that knows of them. Its `change` event
   * tells the elements, synchronously, that the member changed.
   */
  readonly member: MemberScope;

  constructor(options: SessionOptions) {
    super();
    this.#options = options;
    this.#client = this.#createClient();
    this.state = new MemberState({
      client: () => this.client,
      ...(options.poll ? { poll: options.poll } : {}),
      ...(options.pollTimer ? { timer: options.pollTimer } : {}),
    });
    this.member = new MemberScope(this.state, this.announcer, () => this.#client.clearToken());
    this.#live = new LiveUpdates({
      state: this.state,
      url: () => `${this.#options.endpoint.replace(/\/$/, '')}/events`,
      token: () => this.#signedInToken(),
      fetch: (url, init) => this.#fetch(url, init, 'stream'),
      // A refused token: the next round signs in again once; a fresh token refused too has ended
      // the session (see #fetch), and the stream stops.
      refused: () => {
        this.#grant.drop();
        return this.status !== 'expired';
      },
      signInAgain: () => void this.#signIn().catch(() => undefined),
      onLive: (live) => this.dispatchEvent(new CustomEvent('live', { detail: { live } })),
      onSilent: (url) => tellDeveloper('streamSilent', new URL(url, globalThis.location?.href).href),
      // Updates may have been missed: what is shown is read again.
      onResync: () => this.dispatchEvent(new Event('resync')),
    });
    this.addEventListener('resync', () => this.state.resync());
    // Another member signed in on this device (in this tab, or on an earlier visit): the one
    // before is told nothing here any more (S30).
    this.addEventListener('status', () => this.#keepPushForMember());
  }

  /** The member's notifications, on this device and by the service. */
  readonly #notifications = new DeviceNotifications({
    endpoint: () => this.#options.endpoint,
    token: () => this.#signedInToken(),
    fetch: () => this.#fetchImpl,
    language: () => this.member.current?.language ?? globalThis.document?.documentElement.lang ?? 'en',
    member: () => this.member.current?.id,
  });

  /** Offers notifications with the service worker at `worker`; undefined offers none. */
  usePush(worker: string | undefined): void {
    if (!this.#notifications.use(worker)) return;
    this.#keepPushForMember();
    this.dispatchEvent(new Event('push'));
  }

  /** The member's widget token once signed in (signing in first when needed); rejects without a session. */
  async #signedInToken(): Promise<string> {
    await this.ready();
    const token = this.#grant.current?.token;
    if (!token) throw new Error('no session');
    return token;
  }

  /** Why the session ended, while it is `expired`: signed out here, or a sign-in refused. */
  #endedBy: string | undefined;

  #keepPushForMember(): void {
    // A sign-in the portal refused (its session ended: idle, elsewhere, or `endMemberSessions`)
    // leaves no member here, whether the page offered notifications before or after: the device
    // is told nothing more.
    if (this.status === 'expired' && this.#endedBy === 'refused')
      void this.#notifications.end(undefined)?.catch(() => undefined);
    else this.#notifications.keepOnlyFor(this.status === 'ready' ? this.member.current?.id : undefined);
  }

  /** `service-notifications` on `<consult-session>`: the member may turn the service's own notifications on or off. */
  serviceNotifications = false;

  /**
   * The member's choice of the service's own notifications (`shouldNotify`, where the proxy allows
   * it with `serviceNotifications`): read, or set to `shouldNotify`. `null` while the member has not
   * chosen here; rejects where the proxy does not offer it.
   */
  serviceNotify(shouldNotify?: boolean): Promise<boolean | null> {
    return this.#notifications.serviceNotify(shouldNotify);
  }

  /** This device's notifications, when the session offers them (`push-worker`). */
  pushDevice(): Promise<PushDevice | undefined> {
    return this.#notifications.device();
  }

  /** The live stream and the page's signals, while an element shows the member's consultations. */
  readonly #live: LiveUpdates;

  /** The typed client, calling the proxy with this session's token. */
  get client(): BrowserClient {
    return this.#client;
  }

  /** Made again whenever the options change, so every call goes to the endpoint configured now. */
  #client: SessionClient;

  #createClient(): SessionClient {
    return new SessionClient({
      baseUrl: this.#options.endpoint,
      // Read at each call, so a host may set `fetch` after the session was made.
      fetch: (input, init) => this.#fetch(input, init),
      // A token is handed out once: asking again (expiry, or a 401) means a fresh sign-in.
      tokenProvider: () => this.#grant.handOut(() => this.#signIn()),
    });
  }

  /**
   * Every call to the proxy. A token the proxy refuses right after a sign-in that answered an
   * earlier refusal ends the session (S8): the next step would be a loop.
   */
  async #fetch(
    input: string,
    init: RequestInit = {},
    what: 'request' | 'stream' = 'request',
  ): Promise<Response> {
    let response: Response;
    try {
      response = await this.#fetchImpl(input, init);
    } catch (error) {
      // Nothing answered (not a request called off): the first sign of a lost connection.
      if (!(error instanceof DOMException && error.name === 'AbortError'))
        this.state.link.requestFailed(what);
      throw error;
    }
    if (GATEWAY_FAILURES.has(response.status)) this.state.link.requestFailed(what);
    else this.state.link.requestAnswered();
    const sent = new Headers(init.headers).get('authorization')?.replace(/^Bearer\s+/i, '');
    if (this.#grant.answered(sent, response)) this.#end('refused');
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
    this.#grant.forget();
    this.#client.clearToken();
  }

  #end(reason: 'signed-out' | 'refused'): void {
    this.#forgetToken();
    this.#live.stop();
    this.#setStatus('expired', reason);
  }

  get endpoint(): string {
    return this.#options.endpoint;
  }

  /** Signs in if needed and answers the member. Rejects when the session cannot be had. */
  async ready(): Promise<SessionUser> {
    const grant = this.#grant.unexpired ?? (await this.#signIn());
    return grant.user;
  }

  /** Replaces the options (a host setting `signIn`, `fetch` or another endpoint) and starts over. */
  configure(options: Partial<SessionOptions>): void {
    this.#forgetToken();
    this.#options = { ...this.#options, ...options };
    // A sign-in still on its way was asked of the old options: its answer is not used.
    this.#signIns.reconfigured();
    this.#client = this.#createClient();
    this.#setStatus('idle');
    // An open stream is reopened at the endpoint configured now.
    this.#live.resume(true);
  }

  /**
   * Ends the session: tells the proxy (which refuses the token from then on, everywhere), and
   * forgets the token and the member's drafts here (S16).
   */
  signOut(): void {
    const token = this.#grant.current?.token;
    // The proxy hears of it at once (S19), even from a page about to be left, and forgets this
    // device's push subscription in the same request; the browser then unsubscribes it (S30).
    if (token) endOnProxy(this.#sessionUrl(), this.#fetchImpl, token, this.#notifications.knownEndpoint());
    void this.#notifications.end(undefined)?.catch(() => undefined);
    this.member.signedOut();
    // A sign-in still waiting out an outage stops waiting.
    this.#signIns.stopWaiting();
    this.#end('signed-out');
  }

  /** Tries again after an error or expiry. */
  async retry(): Promise<SessionUser> {
    this.#setStatus('idle');
    return this.ready();
  }

  /**
   * The browser's word on the network, heard while an element follows the session: `offline`
   * shows the one "Reconnecting…" notice at once, `online` checks the connection at once instead
   * of at the next wait.
   */
  readonly #network = new NetworkSignals({
    // An ended session shows its own notice, and a new sign-in says whether it got through.
    offline: () => {
      if (this.status !== 'expired') this.state.link.setReachable(false);
    },
    // With a member, one cheap read says whether the service answers; a sign-in waiting out the
    // outage tries again by itself; otherwise there is nothing to check.
    online: () => {
      if (this.state.member) this.state.link.reconnect();
      else if (this.status !== 'signing-in') this.state.link.setReachable(true);
    },
  });

  /** Follows the browser's `online` and `offline` (see `#network`); answers the function that stops. */
  follow(): () => void {
    return this.#network.follow();
  }

  /**
   * Keeps the member's consultations current while anyone shows them: the live stream is open,
   * and the state polls when the proxy cannot push. Answers the function that stops watching.
   */
  watch(): () => void {
    return this.#live.watch();
  }

  #setStatus(status: SessionStatus, reason?: string): void {
    this.status = status;
    this.#endedBy = status === 'expired' ? reason : undefined;
    this.dispatchEvent(new CustomEvent('status', { detail: { status, reason } }));
  }

  /** The sign-in: one in flight at a time, and none by itself after it failed or the session ended. */
  readonly #signIns = new SignInFlow({
    status: () => this.status,
    setStatus: (status, reason) => this.#setStatus(status, reason),
    options: () => this.#options,
    sessionUrl: () => this.#sessionUrl(),
    fetchImpl: () => this.#fetchImpl,
    unreachable: () => this.state.link.setReachable(false),
    signedIn: (answer) => {
      const grant = this.#grant.fromSignIn(answer);
      // Another member now: nothing of the previous one's may remain, in the client or in storage.
      this.member.signedIn(answer.user);
      this.#grant.keep(grant);
      this.state.link.setReachable(true);
      this.#setStatus('ready');
      // Signed in again after the session ended: the stream comes back for whoever still listens.
      this.#live.resume();
      return grant;
    },
    failed: () => this.#grant.drop(),
  });

  #signIn(): Promise<Grant> {
    return this.#signIns.signIn();
  }

  #sessionUrl(): string {
    return `${this.#options.endpoint.replace(/\/$/, '')}/session`;
  }

  /** The host's fetch, read at each call, or the global one. */
  get #fetchImpl(): typeof fetch {
    return this.#options.fetch ?? globalThis.fetch.bind(globalThis);
  }
}

export const sessionContext = createContext<SessionManager | undefined>(Symbol('consult-session'));
