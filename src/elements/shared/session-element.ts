import type { PropertyValues, TemplateResult, nothing } from 'lit';
import { property } from 'lit/decorators.js';
import { ApiError } from '../../client/errors.js';
import type { MemberState } from '../../session/member-state.js';
import type { SessionManager } from '../../session/session.js';
import { tellDeveloper } from '../../session/developer-hints.js';
import { ConsultElement } from './consult-element.js';
import { ConsultErrorEvent } from './events.js';
import { MemberController } from './member-controller.js';
import { AnnounceController } from './announce-controller.js';
import { cancelSend, sendLabel } from './send-label.js';

/**
 * An element that talks to the proxy: it takes its session from an enclosing
 * `<consult-session>`, from its `session` property, or on its own from its `endpoint`, and reads
 * the member and their state through its `MemberController` (`this.member`), which keeps no copy.
 *
 * When the member signs out or another member signs in, the controller puts the element's view of
 * them back as before anyone signed in and renders it at once, before any other script runs.
 */
export class SessionElement extends ConsultElement {
  /** The proxy's base URL, for an element used without `<consult-session>`. */
  @property() endpoint?: string;

  /** A session set from JavaScript; wins over the enclosing `<consult-session>`. */
  @property({ attribute: false }) session?: SessionManager;

  /**
   * The element shows the member's consultations: while it is connected, the session keeps them
   * current (the live stream, or polling when the proxy cannot push).
   */
  static watchesConsultations = false;

  /** Public properties that hold the member's data: they go back to their first values when the member changes. */
  static memberProperties: readonly string[] = [];

  /** The member and their state, read through the session in use. */
  protected readonly member = new MemberController(this);

  readonly #announcer = new AnnounceController(this, this.member);

  /** The member's state in the session in use. @internal */
  get memberState(): MemberState | undefined {
    return this.member.state;
  }

  /** The session in use, or undefined when the element has neither a context nor an endpoint. @internal */
  get activeSession(): SessionManager | undefined {
    return this.member.session;
  }

  protected override get memberLanguage(): string | undefined {
    return this.member.current?.language;
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    this.member.follow(true);
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

  /** Tells screen readers `text`, assertively when `urgent`, once for the page. */
  protected announce(text: string, urgent = false): void {
    this.#announcer.announce(text, urgent);
  }

  /** The element's own live region, rendered only when no `<consult-session>` speaks for it. */
  protected renderAnnouncement(): TemplateResult | typeof nothing {
    return this.#announcer.render();
  }

  /** A send button's words: its own, `busy` while sending, "Waiting to send…" while the service cannot be reached. */
  protected sendLabel(sending: boolean, idle: string, busy: string): string {
    return sendLabel(this.memberState, this.resolvedLanguage, [sending, idle, busy]);
  }

  /** "Cancel sending", while a send waits for the connection: `cancel` stops the wait, the text stays. */
  protected renderCancelSend(sending: boolean, cancel: () => void): TemplateResult | typeof nothing {
    return cancelSend(this.memberState, this.resolvedLanguage, sending, cancel);
  }

  /**
   * Reports a failure the member saw: a `consult-error` event (ids and codes only). An abort (the
   * member changed) is no failure.
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
}
