import { consume, ContextRoot } from '@lit/context';
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ApiError } from '../../client/errors.js';
import { VERSION } from '../../version.js';
import { ConsultErrorEvent, SessionExpiredEvent } from './events.js';
import {
  directionOf,
  isLoaded,
  loadLanguage,
  onTranslationsChanged,
  resolveLanguage,
  translate,
  type LocalizedHost,
} from './localize.js';
import type { MemberState } from '../../session/member-state.js';
import { SessionManager, sessionContext, type SessionUser } from '../../session/session.js';
import { checkAttributes, tellDeveloper } from '../../session/developer-hints.js';
import { hostStyles } from './styles.js';

export { VERSION };

type ElementClass = typeof ConsultElement;

/**
 * Elements load one chunk at a time, in no fixed order: a <consult-form> may be defined before the
 * <consult-session> around it. The context root keeps its request for the session and answers it
 * once the session element is defined. Attached once per page.
 */
if (typeof document !== 'undefined' && !document.documentElement.hasAttribute('data-consult-context-root')) {
  document.documentElement.setAttribute('data-consult-context-root', '');
  new ContextRoot().attach(document.documentElement);
}

/** The name each class was registered under first: how elements find the tags of their dependencies. */
const registeredNames = new WeakMap<CustomElementConstructor, string>();

/** Every connected element: a change of language anywhere on the page renders them again. */
const connected = new Set<ConsultElement>();
let languageObserver: MutationObserver | undefined;
let stopListening: (() => void) | undefined;

function watchLanguages(): void {
  if (languageObserver) return;
  const renderAll = () => {
    for (const element of connected) element.requestUpdate();
  };
  // `lang` or `dir` on <html>, on a <consult-session> or on any other ancestor in the page.
  languageObserver = new MutationObserver(renderAll);
  languageObserver.observe(document.documentElement, {
    attributes: true,
    attributeFilter: ['lang', 'dir'],
    subtree: true,
  });
  stopListening = onTranslationsChanged(renderAll);
}

function unwatchLanguages(): void {
  if (connected.size > 0) return;
  languageObserver?.disconnect();
  languageObserver = undefined;
  stopListening?.();
}

/**
 * The one error notice of the elements: what failed, in words, and "Try again". It can take focus,
 * so focus can follow a retry that failed again.
 */
export function errorNotice(text: string, retry: string, onRetry: () => void): TemplateResult {
  return html`<div part="notice" class="notice error" role="alert" tabindex="-1">
    <p>${text}</p>
    <button part="retry-button" type="button" @click=${onRetry}>${retry}</button>
  </div>`;
}

/**
 * The base of every element: shared host styles and tokens, reactive `lang` and `dir`, strings in
 * the element's language (loaded before it renders, so there is no flash of English), typed events,
 * and a `define()` that never throws.
 */
export class ConsultElement extends LitElement implements LocalizedHost {
  static override styles = [hostStyles];
  static readonly version = VERSION;

  /**
   * Elements this one renders, by their default tag: `define()` registers them too, and the
   * element renders each under whatever name it ended up registered as (`tagOf`).
   */
  static dependencies: Record<string, ElementClass> = {};

  /**
   * Registers the element as `name`. A class already registered under another name is registered
   * again as an anonymous subclass, so a second name always works; a name taken by something else
   * only warns (two copies of the bundle on one partner page must not break it).
   *
   * On a server there is nothing to register and nobody to warn: with no `customElements` at all
   * it does nothing, and on Lit's stand-in registry (Node, where there is no `document`) a name
   * already taken stays silent. A server framework may load the package once per bundle it builds
   * (Next.js's server and client component layers), all on the one stand-in registry; the elements
   * are registered for real in the browser.
   */
  static define(
    name: string,
    registry: CustomElementRegistry | undefined = globalThis.customElements,
  ): CustomElementConstructor {
    if (!registry) return this;
    for (const [dependencyName, dependency] of Object.entries(this.dependencies)) {
      if (!registeredNames.has(dependency)) dependency.define(dependencyName, registry);
    }
    const existing = registry.get(name) as (CustomElementConstructor & { version?: string }) | undefined;
    if (existing) {
      if (existing !== this && !(existing.prototype instanceof this) && typeof document !== 'undefined') {
        console.warn(
          `consult-elements: <${name}> is already defined${existing.version ? ` by version ${existing.version}` : ' by another script'}; ` +
            `this copy (${VERSION}) was not registered. Load the bundle once, or register the class under another name.`,
        );
      }
      return existing;
    }
    if (!registeredNames.has(this)) registeredNames.set(this, name);
    // What a page set on the plain elements already there (a script, Vue's `.prop`) would hide the
    // accessors: it is taken off them and set again through the accessors once they are upgraded, so
    // it reads back at once, and Lit's own replay at the first update (which it does for an element
    // upgraded later) cannot undo a value set in between (test/browser/before-defined.test.ts).
    const early = [...(globalThis.document?.querySelectorAll(name) ?? [])].map((element) => {
      const own = { ...element };
      for (const key in own) Reflect.deleteProperty(element, key);
      return [element, own] as const;
    });
    try {
      registry.define(name, this);
      return this;
    } catch (error) {
      // One constructor, one name: a second name gets a subclass of its own.
      if (!(error instanceof DOMException && error.name === 'NotSupportedError')) throw error;
      const alias = class extends this {};
      registry.define(name, alias);
      return alias;
    } finally {
      for (const [element, own] of early) Object.assign(element, own);
    }
  }

  /** The tag an element class is registered under, for rendering it; its default name otherwise. */
  static tagOf(element: ElementClass, fallback: string): string {
    return registeredNames.get(element) ?? fallback;
  }

  /**
   * A new element of one of this element's `dependencies`, under the name its class is registered
   * as. Made with `createElement`, never from markup: the one HTML sink stays the markdown renderer.
   */
  static createDependency<T extends HTMLElement>(element: ElementClass, fallback: string): T {
    return document.createElement(ConsultElement.tagOf(element, fallback)) as T;
  }

  /** The language of the element's text (BCP 47). Without it: the session's, the member's, then the page's. */
  @property() override lang = '';

  /** `ltr` or `rtl`; without it, the direction of the language in use. */
  @property() override dir = '';

  /** `light` or `dark` forces a look; without it the member's system preference is followed. */
  @property({ reflect: true }) theme?: 'light' | 'dark';

  #language = 'en';

  /** The language this update renders in, resolved once per update. @internal */
  get resolvedLanguage(): string {
    return this.#language;
  }

  /** The direction this update renders in. @internal */
  get resolvedDir(): 'ltr' | 'rtl' {
    return this.dir === 'rtl' || this.dir === 'ltr' ? this.dir : directionOf(this.#language);
  }

  /** The member's language, when a session knows it; it comes after an explicit `lang`. */
  protected get memberLanguage(): string | undefined {
    return undefined;
  }

  readonly #internals = this.attachInternals();

  override connectedCallback(): void {
    super.connectedCallback();
    connected.add(this);
    watchLanguages();
    this.#useSystemFontIfPageHasNone();
    // A misspelt attribute does nothing, silently, and a property a framework set as an attribute
    // (bound before the element was defined) never arrives: the console says so, once.
    if (!this.hasUpdated) {
      const { observedAttributes, elementProperties } = this.constructor as typeof LitElement;
      checkAttributes(this, observedAttributes, elementProperties);
    }
  }

  /**
   * A page that sets no font leaves the browser's default serif (Times): the elements then use the
   * system's UI font. A page font, or `--consult-font-family`, is always kept.
   */
  #useSystemFontIfPageHasNone(): void {
    const states = this.#internals.states as Set<string> | undefined;
    if (!states) return;
    states.delete('system-font');
    if (/^(?:"?times(?: new roman)?"?|serif)$/i.test(getComputedStyle(this).fontFamily.trim()))
      states.add('system-font');
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    connected.delete(this);
    unwatchLanguages();
  }

  /**
   * Resolves the language before each update and waits for its strings, so the element renders
   * in the new language at once rather than in English first.
   */
  protected override async scheduleUpdate(): Promise<void> {
    const language = this.#resolveLanguage();
    if (!isLoaded(language)) {
      // A language chunk that cannot load (offline) leaves the element in English, not blank.
      await loadLanguage(language).catch(() => undefined);
    }
    this.#language = isLoaded(language) ? language : 'en';
    await super.scheduleUpdate();
  }

  #resolveLanguage(): string {
    // A lang on the enclosing <consult-session> configures all its elements, like their own.
    const session = this.parentElement?.closest('consult-session')?.getAttribute('lang');
    const inherited = this.parentElement?.closest('[lang]')?.getAttribute('lang');
    return resolveLanguage(this.lang, session, this.memberLanguage, inherited, document.documentElement.lang);
  }

  /**
   * Focus is in this element, or nowhere (the button that had it was just removed): moving it
   * after an update takes it from no one.
   * @internal
   */
  focusIsFree(): boolean {
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
 *
 * When the member signs out or another member signs in, `memberChanged()` runs and the element
 * renders again at once, before any other script runs.
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

  /** What this element tells screen readers itself, when no `<consult-session>` speaks for it. */
  @state() protected announcement = '';

  #watched?: SessionManager;
  #memberId?: string;
  #onStatus = () => this.#syncFromSession();
  /** The member state changed: the element renders from it again. */
  #onState = () => this.requestUpdate();

  /**
   * The element shows the member's consultations: while it is connected, the session keeps them
   * current (the live stream, or polling when the proxy cannot push).
   */
  static watchesConsultations = false;

  #unwatch?: () => void;

  /** The member's state in the session in use. @internal */
  get memberState(): MemberState | undefined {
    return this.activeSession?.state;
  }

  /** The session in use, or undefined when the element has neither a context nor an endpoint. @internal */
  get activeSession(): SessionManager | undefined {
    return (
      this.session ??
      this.contextSession ??
      (this.endpoint ? SessionManager.forEndpoint(this.endpoint) : undefined)
    );
  }

  protected override get memberLanguage(): string | undefined {
    return this.user?.language;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Moved on the page: disconnecting stopped watching the session, and no property changed to restart it.
    if (this.hasUpdated) this.#watch(this.activeSession);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // Detached is not signed out: the member and their data stay until the session says otherwise.
    this.#watched?.removeEventListener('status', this.#onStatus);
    this.#watched?.state.removeEventListener('change', this.#onState);
    this.#watched = undefined;
    this.#unwatch?.();
    this.#unwatch = undefined;
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (changed.has('session') || changed.has('contextSession') || changed.has('endpoint')) {
      this.#watch(this.activeSession);
    }
  }

  protected override firstUpdated(changed: PropertyValues): void {
    super.firstUpdated(changed);
    // Not inside a <consult-session> (defined or not yet), no endpoint, no session set: nothing to talk to.
    setTimeout(() => {
      if (this.isConnected && !this.activeSession && !this.closest('consult-session')) {
        tellDeveloper('noSession', this.localName);
      }
    });
  }

  /**
   * Before the member is known: starts signing in, once. A sign-in that failed is tried again only
   * from a "try again" (`retry()`), never by rendering again.
   */
  protected signInIfIdle(): void {
    const session = this.activeSession;
    if (session?.status === 'idle' && this.isConnected) void session.ready().catch(() => undefined);
  }

  /**
   * How the member's data can be had: `loading` while signing in, `error` when signing in failed
   * or there is no session, `ready` once the member is known.
   */
  protected get signInStatus(): 'loading' | 'error' | 'ready' {
    const session = this.activeSession;
    if (!session || session.status === 'error') return 'error';
    return this.user ? 'ready' : 'loading';
  }

  /** Called when the session in use changes (another member, or a different session). */
  protected sessionChanged(_session: SessionManager | undefined): void {}

  /**
   * The member signed out or another one signed in: the element drops every piece of the previous
   * member's data it holds (properties, render state, pending requests). Runs before the next render.
   */
  protected memberChanged(): void {}

  /** The session's announcer speaks for this element: its session is the enclosing `<consult-session>`'s. */
  get #sessionSpeaks(): boolean {
    const session = this.activeSession;
    return session !== undefined && session === this.contextSession;
  }

  /**
   * Tells screen readers `text`, assertively when `urgent`: through the session's one announcer
   * (heard once however many elements tell it), or this element's own live region when it is
   * used alone.
   */
  protected announce(text: string, urgent = false): void {
    if (this.#sessionSpeaks) this.activeSession?.announcer.announce(text, urgent);
    // The same words twice in a row would not be read again: make them differ invisibly.
    else this.announcement = this.announcement === text ? `${text}\u00a0` : text;
  }

  /** The element's own live region, rendered only when no `<consult-session>` speaks for it. */
  protected renderAnnouncement(): TemplateResult | typeof nothing {
    if (this.#sessionSpeaks) return nothing;
    return html`<div class="visually-hidden" role="status">${this.announcement}</div>`;
  }

  /** A send of this element is waiting for the service to be reachable again. */
  protected waitingToSend(sending: boolean): boolean {
    return sending && this.memberState?.connection === 'reconnecting';
  }

  /** A send button's words: its own, `busy` while sending, "Waiting to send…" while the service cannot be reached. */
  protected sendLabel(sending: boolean, idle: string, busy: string): string {
    if (!sending) return idle;
    return this.waitingToSend(true) ? translate(this.resolvedLanguage, 'session', 'waitingToSend') : busy;
  }

  /** "Cancel sending", while a send waits for the connection: `cancel` stops the wait, the text stays. */
  protected renderCancelSend(sending: boolean, cancel: () => void): TemplateResult | typeof nothing {
    if (!this.waitingToSend(sending)) return nothing;
    return html`<button type="button" class="cancel" @click=${cancel}>
      ${translate(this.resolvedLanguage, 'session', 'cancelSend')}
    </button>`;
  }

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
    this.#watched?.state.removeEventListener('change', this.#onState);
    this.#watched = session;
    session?.addEventListener('status', this.#onStatus);
    session?.state.addEventListener('change', this.#onState);
    this.#unwatch?.();
    this.#unwatch =
      session && (this.constructor as typeof SessionElement).watchesConsultations
        ? session.watch()
        : undefined;
    this.#syncFromSession();
    this.sessionChanged(session);
  }

  #syncFromSession(): void {
    const session = this.#watched;
    const previous = this.user;
    const user = session?.user;
    // Signed out (no member any more) or another member: nothing of the previous one may remain.
    const changed = this.#memberId !== undefined && this.#memberId !== user?.id;
    this.#memberId = user?.id;
    this.user = user;
    if (changed) {
      this.announcement = '';
      this.memberChanged();
      // Rendered now, not at the next frame: no script may find the previous member's words meanwhile.
      if (this.hasUpdated && this.isConnected) {
        this.requestUpdate();
        this.performUpdate();
      }
    }
    // An element on its own tells the page; inside <consult-session>, the session element does.
    const standalone = !this.session && !this.contextSession;
    if (standalone && session?.status === 'expired' && previous)
      this.emit(new SessionExpiredEvent({ reason: 'expired' }));
    // Signing in, failed, ended: what the element shows may follow the session's status.
    this.requestUpdate();
  }
}
