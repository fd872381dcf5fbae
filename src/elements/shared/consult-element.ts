import { consume } from '@lit/context';
import { LitElement, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ApiError } from '../../client/errors.js';
import { ConsultErrorEvent, SessionExpiredEvent } from './events.js';
import { SessionManager, sessionContext, type SessionUser } from './session.js';
import { hostStyles } from './styles.js';

/** The package version, for the guard against two different copies on one page. */
export const VERSION = '0.1.0';

/**
 * The base of every element: shared host styles and tokens, typed events, `theme`, and a
 * `define()` that warns instead of throwing when the tag is taken (two copies of the bundle on one
 * partner page must not break it).
 */
export class ConsultElement extends LitElement {
  static override styles = [hostStyles];
  static readonly version = VERSION;

  /** `light` or `dark` forces a look; without it the member's system preference is followed. */
  @property({ reflect: true }) theme?: 'light' | 'dark';

  /** Registers the element under `tag` unless that tag is taken; warns when another copy holds it. */
  static define(tag: string, registry: CustomElementRegistry = customElements): void {
    const existing = registry.get(tag) as (CustomElementConstructor & { version?: string }) | undefined;
    if (!existing) {
      registry.define(tag, this);
    } else if (existing !== this) {
      console.warn(
        `consult-elements: <${tag}> is already defined${existing.version ? ` by version ${existing.version}` : ''}; ` +
          `this copy (${VERSION}) was not registered. Load the bundle once, or register the class under another name.`,
      );
    }
  }

  /**
   * Focus is in this element, or nowhere (the button that had it was just removed): moving it
   * after an update takes it from no one.
   */
  protected focusIsFree(): boolean {
    const active = document.activeElement;
    return Boolean(this.shadowRoot?.activeElement) || !active || active === document.body;
  }

  /** Dispatches one of the elements' typed events from this element. */
  protected emit(event: Event): boolean {
    return this.dispatchEvent(event);
  }
}

/**
 * An element that talks to the proxy: it takes its session from an enclosing
 * `<consult-session>`, from its `session` property, or on its own from its `endpoint`.
 */
export class SessionElement extends ConsultElement {
  /** The proxy's base URL, for an element used without `<consult-session>`. */
  @property() endpoint?: string;

  /** A session set from JavaScript; wins over the enclosing `<consult-session>`. */
  @property({ attribute: false }) session?: SessionManager;

  @consume({ context: sessionContext, subscribe: true })
  @state()
  protected contextSession?: SessionManager;

  /** The member, once the session knows them. */
  @state() protected user?: SessionUser;

  #watched?: SessionManager;
  #onStatus = () => this.#syncFromSession();

  /** The session in use, or undefined when the element has neither a context nor an endpoint. */
  get activeSession(): SessionManager | undefined {
    return (
      this.session ??
      this.contextSession ??
      (this.endpoint ? SessionManager.forEndpoint(this.endpoint) : undefined)
    );
  }

  /** Read by the localize controller: the member's language comes after the element's own `lang`. */
  get memberLanguage(): string | undefined {
    return this.user?.language;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Moved on the page: disconnecting stopped watching the session, and no property changed to restart it.
    if (this.hasUpdated) this.#watch(this.activeSession);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#watch(undefined);
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (changed.has('session') || changed.has('contextSession') || changed.has('endpoint')) {
      this.#watch(this.activeSession);
    }
  }

  /** Called when the session in use changes (another member, or a different session). */
  protected sessionChanged(_session: SessionManager | undefined): void {}

  /**
   * Reports a failure the member saw: a `consult-error` event (ids and codes only), and
   * `session-expired` when the session could not be renewed.
   */
  protected reportError(error: unknown, operation?: string): void {
    const apiError = error instanceof ApiError ? error : undefined;
    if (error instanceof DOMException && error.name === 'AbortError') return;
    this.emit(
      new ConsultErrorEvent({
        code: apiError?.code ?? 'unexpected',
        status: apiError?.status ?? 0,
        ...(operation ? { operation } : {}),
      }),
    );
  }

  #watch(session: SessionManager | undefined): void {
    if (session === this.#watched) return;
    this.#watched?.removeEventListener('status', this.#onStatus);
    this.#watched = session;
    session?.addEventListener('status', this.#onStatus);
    this.#syncFromSession();
    this.sessionChanged(session);
  }

  #syncFromSession(): void {
    const session = this.#watched;
    const previous = this.user;
    this.user = session?.user;
    // An element on its own tells the page; inside <consult-session>, the session element does.
    const standalone = !this.session && !this.contextSession;
    if (standalone && session?.status === 'expired' && previous)
      this.emit(new SessionExpiredEvent({ reason: 'expired' }));
    if (previous?.id !== this.user?.id) this.requestUpdate();
  }
}
