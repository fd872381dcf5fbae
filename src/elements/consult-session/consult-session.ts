import { provide } from '@lit/context';
import { html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ConsultElement } from '../shared/consult-element.js';
import { ConsultUnreadChangedEvent, SessionExpiredEvent } from '../shared/events.js';
import { LocalizeController } from '../shared/localize.js';
import { answeredWords } from '../shared/status.js';
import type { Connection } from '../../session/member-state.js';
import {
  SessionManager,
  sessionContext,
  type SessionGrant,
  type SessionStatus,
} from '../../session/session.js';
import { styles } from './consult-session.styles.js';

/**
 * @tagname consult-session
 * @summary Signs the member in through the partner's proxy and gives the elements inside it their
 * session: one widget token, renewed before it expires, and one live event stream.
 *
 * When the session cannot start, the content stays in place and each element inside says what
 * went wrong and offers to try again. When it has ended (the member signed out, or it expired and
 * could not be renewed), a notice says so in place of the content, with the partner's own way to
 * sign in from the `signed-out` slot.
 *
 * @slot - The elements that use the session.
 * @slot signed-out - The partner's way to sign in (a link or a button), shown in the notice when the session has ended.
 *
 * @event session-expired - The session ended and could not be renewed; sign the member in again.
 * @event consult-unread-changed - The number of answers the member has not seen yet changed (`{ count }`): badge your own navigation with it.
 *
 * @csspart base - The wrapper of the content, and of the notice that replaces it when the session has ended.
 * @csspart notice - The notice shown when the session has ended.
 * @csspart connection - The one "Reconnecting…" notice while the service cannot be reached.
 * @cssprop --consult-connection-top - How far below the top of the screen the "Reconnecting…" notice stays while the page scrolls (below a sticky header of the portal's own). Default 0.5rem.
 * @csspart retry-button - Its "Sign in again" button, after an expiry (not after signing out).
 */
export class ConsultSession extends ConsultElement {
  static override styles = [...ConsultElement.styles, styles];

  /** The proxy's base URL. */
  @property() endpoint = '/consult';

  /** Replaces the request to `{endpoint}/session`: a function that returns `{ token, expiresAt, user }`. */
  @property({ attribute: false }) tokenProvider?: () => Promise<SessionGrant>;

  /** JSON sent to `{endpoint}/session` for the partner's `authenticate` hook. */
  @property({ attribute: false }) signInBody?: Record<string, unknown>;

  /**
   * How long answers usually take, in hours: a waiting question tells the member "Most questions
   * are answered within 24 hours". Set it to what your service promises.
   */
  @property({ type: Number, attribute: 'reply-hours' }) replyHours = 24;

  /**
   * The emergency number members should call (for example `112` or `911`): an urgent navigator
   * reply shows it as a large call link. Without it, members are told to call their local
   * emergency number.
   */
  @property({ attribute: 'emergency-number' }) emergencyNumber?: string;

  /**
   * The URL of the push service worker (the package's `consult-push-sw.js`, or `{endpoint}/push/sw.js`
   * when the proxy serves it on the page's origin). With it, after the member sends a question, the
   * elements offer "Tell me on this device when a doctor answers" (asking the browser only on a tap);
   * signing out or another member signing in ends it on the device. Needs `push` on the proxy
   * (README "Notifications").
   */
  @property({ attribute: 'push-worker' }) pushWorker?: string;

  /**
   * Lets the member turn the service's own notifications (the user's `shouldNotify`) on or off
   * where the notifications offer shows (after a question is sent, under a waiting question's note).
   * Needs `serviceNotifications` on the proxy (README "Notifications").
   */
  @property({ type: Boolean, attribute: 'service-notifications' }) serviceNotifications = false;

  /** The fetch used for every call. Default the global fetch. */
  @property({ attribute: false }) fetch?: typeof fetch;

  /** The session the elements inside use. */
  @provide({ context: sessionContext })
  @state()
  manager: SessionManager = new SessionManager({ endpoint: this.endpoint });

  @state() private status: SessionStatus = 'idle';
  @state() private endedBy?: 'expired' | 'signed-out' | 'refused';

  private readonly localize = new LocalizeController(this, 'session');

  protected override get memberLanguage(): string | undefined {
    return this.manager.member.current?.language;
  }

  #signedInOnce = false;

  #onStatus = (event: Event) => {
    const { status, reason } = (
      event as CustomEvent<{ status: SessionStatus; reason?: 'expired' | 'signed-out' | 'refused' }>
    ).detail;
    const wasReady = this.status === 'ready';
    // Whether a member was signed in here since the page opened (or since they signed out).
    if (status === 'ready') this.#signedInOnce = true;
    if (reason === 'signed-out') this.#signedInOnce = false;
    this.endedBy = status === 'expired' ? (reason ?? (wasReady ? 'expired' : 'refused')) : undefined;
    // The content that had focus is about to be replaced by the notice: focus follows it there.
    const hadFocus = this.matches(':focus-within');
    this.status = status;
    if (hadFocus && status === 'expired') {
      void this.updateComplete.then(() =>
        this.renderRoot.querySelector<HTMLElement>('[part~="notice"]')?.focus(),
      );
    }
    if (status === 'expired')
      this.emit(new SessionExpiredEvent({ reason: reason ?? (wasReady ? 'expired' : 'refused') }));
  };

  /** The unread count last told to the page. */
  #unread = 0;

  /** An answer arrived: one announcement for the page, naming who gave it. */
  #onAnswer = (event: Event): void => {
    const { consultationId } = (event as CustomEvent<{ consultationId: string }>).detail;
    const record = this.manager.state.consultation(consultationId);
    if (record) this.manager.announcer.announce(answeredWords(record, this.localize.language));
  };

  #onAnnouncement = (): void => this.requestUpdate();

  /** The connection the page last showed. */
  #connection: Connection = 'online';

  #onState = (): void => {
    const { connection } = this.manager.state;
    if (connection !== this.#connection) {
      this.#connection = connection;
      // One notice for the whole session, heard once, instead of an error in every element.
      if (connection === 'reconnecting') this.manager.announcer.announce(this.localize.t('reconnecting'));
      this.requestUpdate();
    }
    const count = this.manager.state.unread.length;
    if (count === this.#unread) return;
    this.#unread = count;
    this.emit(new ConsultUnreadChangedEvent({ count }));
  };

  /** Stops hearing the browser's `online` and `offline` for the session. */
  #unfollowBrowser?: () => void;

  /**
   * A tap on a notification (`push-worker`): the worker tells this tab which consultation, or opens
   * the page with `?consultation=<id>`. The page's list shows it, once the member's list is there.
   */
  #openFromPush = (event: Event): void => {
    const data = (event as MessageEvent).data as { type?: unknown; consultationId?: unknown } | null;
    if (data?.type === 'consult-open-consultation' && typeof data.consultationId === 'string')
      this.#openConsultation(data.consultationId);
  };

  #openConsultation(consultationId: string): void {
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(consultationId)) return;
    void this.manager
      .ready()
      .then(async () => {
        // The list takes it once it has read the member's consultations: a few seconds at most.
        for (let tries = 0; tries < 40; tries++) {
          if (this.manager.state.placement.showConsultation(consultationId)) return;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      })
      .catch(() => undefined);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#unfollowBrowser = this.manager.follow();
    globalThis.navigator?.serviceWorker?.addEventListener('message', this.#openFromPush);
    this.manager.addEventListener('status', this.#onStatus);
    this.manager.state.addEventListener('change', this.#onState);
    this.manager.state.addEventListener('answer', this.#onAnswer);
    this.manager.announcer.addEventListener('change', this.#onAnnouncement);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#unfollowBrowser?.();
    globalThis.navigator?.serviceWorker?.removeEventListener('message', this.#openFromPush);
    this.manager.removeEventListener('status', this.#onStatus);
    this.manager.state.removeEventListener('change', this.#onState);
    this.manager.state.removeEventListener('answer', this.#onAnswer);
    this.manager.announcer.removeEventListener('change', this.#onAnnouncement);
  }

  /** Ends the session: forgets the token and the member's drafts. */
  signOut(): void {
    this.manager.signOut();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('pushWorker')) this.manager.usePush(this.pushWorker?.trim() || undefined);
    if (changed.has('serviceNotifications')) this.manager.serviceNotifications = this.serviceNotifications;
    if (changed.has('emergencyNumber'))
      this.manager.emergencyNumber = this.emergencyNumber?.trim() || undefined;
    if (changed.has('replyHours')) {
      const hours = Number(this.replyHours);
      this.manager.replyHours = Number.isFinite(hours) && hours > 0 ? hours : 24;
    }
    if (
      changed.has('endpoint') ||
      changed.has('tokenProvider') ||
      changed.has('signInBody') ||
      changed.has('fetch')
    ) {
      this.manager.configure({
        endpoint: this.endpoint,
        ...(this.tokenProvider ? { signIn: this.tokenProvider } : {}),
        ...(this.signInBody ? { signInBody: this.signInBody } : {}),
        ...(this.fetch ? { fetch: this.fetch } : {}),
      });
      if (this.hasUpdated) void this.manager.ready().catch(() => undefined);
    }
  }

  protected override firstUpdated(): void {
    // Opened from a notification with no tab open: the page's address names the consultation.
    const opened = this.pushWorker ? new URLSearchParams(location.search).get('consultation') : null;
    if (opened) this.#openConsultation(opened);
    // After the first update, so properties a host sets right after creating the element are in
    // place; and once it has completed, since signing in changes the state this element renders.
    void this.updateComplete.then(() => this.manager.ready()).catch(() => undefined);
  }

  protected override render() {
    // Only the session's own notice takes the member's direction: the partner's content inside keeps the page's.
    // The one announcer of the session: every element inside speaks through these two regions.
    const { announcer } = this.manager;
    const regions = html`<div class="visually-hidden" role="status">${announcer.polite}</div>
      <div class="visually-hidden" role="alert">${announcer.assertive}</div>`;
    const reconnecting =
      this.#connection === 'reconnecting'
        ? html`<p
            part="connection"
            class="notice warning"
            lang=${this.localize.language}
            dir=${this.localize.dir}
          >
            ${this.localize.t('reconnecting')}
          </p>`
        : nothing;
    if (this.status !== 'expired')
      return html`<div part="base">${reconnecting}<slot></slot></div>
        ${regions}`;
    const signedOut = this.endedBy === 'signed-out';
    return html`<div part="base">
      <div
        part="notice"
        class="notice info"
        role=${signedOut ? 'status' : 'alert'}
        tabindex="-1"
        lang=${this.localize.language}
        dir=${this.localize.dir}
      >
        <p>
          ${
            signedOut
              ? this.localize.t('signedOut')
              : // A first visit with no member signed in has not ended anything: it asks to sign in.
                !this.#signedInOnce
                ? this.localize.t('notSignedIn')
                : this.localize.t('expired')
          }
        </p>
        <slot name="signed-out">
          ${
            signedOut
              ? ''
              : html`<button
                  part="retry-button"
                  type="button"
                  @click=${() => void this.manager.retry().catch(() => undefined)}
                >
                  ${this.#signedInOnce ? this.localize.t('signIn') : this.localize.t('signInFirst')}
                </button>`
          }
        </slot>
      </div>
    </div>`;
  }
}
