import { html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { SessionElement } from '../shared/session-element.js';
import { FocusController } from '../shared/focus.js';
import { NavigatorHandoffEvent } from '../shared/events.js';
import { addEnglish, LocalizeController, translate } from '../shared/localize.js';
import { waitingToSend } from '../shared/send-label.js';
import type { ChatMessage, Conversation } from '../../session/conversation.js';
import type { Eligibility, SessionManager } from '../../session/session.js';
import { styles } from './navigator-chat.styles.js';
import { navigator } from '../translations/en-navigator.js';
import { chatMessage } from './message.js';
import { composer, composerProblem, MAX_LENGTH, welcome, type ComposerError } from './composer.js';
import { chatLog } from './log.js';
import { ChatDelivery } from './delivery.js';
import { chatStatus, statusNotice } from './chat-status.js';
import { ChatDraft } from './chat-draft.js';
import { ClockController } from '../shared/clock.js';

// This element's English comes with its code, not with the loader.
addEnglish({ navigator });

export { hasPhysicalKeyboard } from './composer.js';

/**
 * @tagname navigator-chat
 * @summary A chat with the health navigator: general health guidance, example questions sent with
 * one tap, the emergency number first on an urgent reply, and a hand-over to a doctor's question
 * form when the navigator suggests one.
 *
 * The conversation starts when the member sends their first message, so no conversation is created for
 * members who never use the chat. Replies are rendered as sanitized markdown; a message that could not
 * be sent stays in the list with a retry that reuses its idempotency key. What the member is typing,
 * and messages that were not sent, survive a reload in the member's draft store.
 *
 * @event navigator-message - A message was sent or received: `{ conversationId, messageId, role }`.
 * @event navigator-handoff - The member chose "Ask a doctor about this": `{ conversationId, handedTo }`;
 *   the text goes to the form directly, never into the event.
 * @event consult-error - Something failed in a way the member saw: `{ code, status, operation }`.
 * @event session-expired - Used alone with `endpoint`: the session ended and could not be renewed.
 *
 * @csspart base - The wrapper of everything.
 * @csspart log - The list of messages, a polite live region.
 * @csspart suggestion - An example question offered before the first message.
 * @csspart message - Each message in the list, the member's or the navigator's, with its sender and time.
 * @csspart retry-button - The button that sends a failed message again.
 * @csspart emergency-call - On an urgent reply, the emergency number to call (a `tel:` link), or the words to call the local one.
 * @csspart handoff-button - "Ask a doctor about this" on a reply that suggests a doctor.
 * @csspart typing - The typing indicator while the navigator answers.
 * @csspart composer - The form at the bottom.
 * @csspart input - The composer's text area, where the member types a message.
 * @csspart send-button - The composer's button that sends the message.
 *
 * @cssprop --consult-chat-max-height - How tall the message list grows before it scrolls. Default 28rem.
 */
export class NavigatorChat extends SessionElement {
  static override styles = [...SessionElement.styles, styles];

  /** The id of the `<consult-form>` that "Ask a doctor about this" fills; default the session's first form. */
  @property({ attribute: 'for' }) htmlFor?: string;

  /** Example questions offered before the first message; default three localized examples. */
  @property({ attribute: false }) suggestions?: string[];

  @state() private draft = '';
  @state() private composerError?: ComposerError;
  @state() private restored = false;
  @state() private handoff?: { key: string; handedTo: 'consult-form' | 'none' };
  /** The log is scrolled down: older messages are above what the member sees. */
  @state() private olderAbove = false;
  /** The clock relative times are told against. */
  readonly #clock = new ClockController(this);

  private readonly localize = new LocalizeController(this, 'navigator');
  readonly #focus = new FocusController(this);
  readonly #draft = new ChatDraft(() => this.member.current?.id);
  /** Whether the member's draft was put back in the composer. */
  readonly #view = this.member.keep(() => ({ draftLoaded: false }));
  /** Waits for what the member sends, and tells the page and the member what arrived. */
  readonly #delivery = new ChatDelivery({
    state: () => this.memberState,
    session: () => this.activeSession,
    persist: () => this.#persist(),
    arrived: () => (this.restored = false),
    emit: (event) => this.emit(event),
    urgentWords: (number) => (number ? this.localize.t('urgentCall', { number }) : this.localize.t('urgent')),
    announce: (text, urgent) => this.announce(text, urgent),
    putBack: (text) => (this.draft = [text, this.draft].filter((t) => t.trim()).join('\n\n')),
    reportError: (error, operation) => this.reportError(error, operation),
    settled: () => {
      if (this.composerError === 'wait') this.composerError = undefined;
      this.#persist();
    },
  });

  /**
   * The member's plan as the member state knows it (checked when the navigator first suggests a
   * doctor, or by the page's form): no offer without it; a check that failed still offers it.
   */
  get #eligibility(): Eligibility | 'unknown' | undefined {
    const plan = this.member.current ? this.memberState?.plan : undefined;
    return plan?.status === 'ready' ? plan.value : plan?.status === 'error' ? 'unknown' : undefined;
  }

  /**
   * The member's conversation, kept in the session's member state (memory only: the proxy has no
   * way to read a conversation back); this element is a view of it.
   */
  get #conversation(): Conversation | undefined {
    return this.member.current ? this.memberState?.conversation : undefined;
  }

  get #messages(): readonly ChatMessage[] {
    return this.#conversation?.messages ?? [];
  }

  get #sending(): boolean {
    return this.#conversation?.sending ?? false;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    // Alone with an endpoint, the element signs in itself; inside <consult-session> this joins its sign-in.
    if (!this.member.current) this.member.signInIfIdle();
    // The member's draft comes back once we know who they are (a new member starts from an empty chat).
    else if (!this.#view.draftLoaded) {
      this.#view.draftLoaded = true;
      const saved = this.#draft.load();
      this.draft = saved.text;
      this.restored = saved.restored;
    }
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    // New messages, or the typing cue: the log shows its end.
    const shown = `${this.#messages.length}:${this.#sending}`;
    if (shown !== this.#shown) {
      this.#shown = shown;
      const log = this.renderRoot.querySelector<HTMLElement>('[part=log]');
      if (log) log.scrollTop = log.scrollHeight;
    }
  }

  #retrySession(session: SessionManager): void {
    // After "try again" the button is gone: focus goes to the composer, or to the error again.
    this.#focus.whenSettled(() => {
      const status = this.activeSession?.status;
      return Boolean(this.member.current) || status === 'error' || status === 'expired';
    }, '[part=input], .notice[tabindex]');
    void session.retry().catch(() => undefined);
  }

  /** What the log showed at the last update: its length and whether the navigator was typing. */
  #shown = '';

  #persist(): void {
    if (!this.member.current) return;
    this.#draft.save(this.draft, this.#messages, Boolean(this.#conversation?.id) || this.restored);
  }

  #focusInput(): void {
    this.renderRoot.querySelector<HTMLTextAreaElement>('[part=input]')?.focus();
  }

  #submit(): void {
    const text = this.draft;
    const problem = composerProblem(text, this.#sending);
    if (problem) {
      this.composerError = problem;
      return;
    }
    const conversation = this.#conversation;
    if (!conversation) return;
    this.composerError = undefined;
    this.draft = '';
    void this.#delivery.deliver(conversation.send(text.trim(), this.#delivery.beforeReplies), text.trim());
  }

  /** "Cancel sending": the message waiting for the connection leaves the chat, its text back in the composer. */
  #cancelSend = (): void => {
    this.#conversation?.cancel();
    this.#focusInput();
  };

  /** A message waits for the connection: the words that say so, else undefined. */
  get #waiting(): string | undefined {
    return waitingToSend(this.memberState, this.#sending)
      ? translate(this.localize.language, 'session', 'waitingToSend')
      : undefined;
  }

  #retry(message: ChatMessage): void {
    const conversation = this.#conversation;
    if (!conversation) return;
    if (this.#sending) {
      this.composerError = 'wait';
      return;
    }
    // The retry button goes away as the message is sent again: focus stays in the element, in the composer.
    const hadFocus = Boolean(this.shadowRoot?.activeElement);
    // Sent now, so it moves to the end (its reply then follows it), with its key.
    void this.#delivery.deliver(conversation.retry(message.key, this.#delivery.beforeReplies), message.text);
    if (hadFocus) this.#focusInput();
  }

  #handOff(reply: ChatMessage): void {
    const text =
      reply.prompt ??
      this.#messages.filter((m) => m.role === 'member' && m.status === 'sent').at(-1)?.text ??
      '';
    // The session's placement takes the member to its form, with the text and focus in its box.
    const placed = this.memberState?.placement.startQuestion(text, { formId: this.htmlFor }) ?? false;
    const handedTo = placed ? 'consult-form' : 'none';
    this.handoff = { key: reply.key, handedTo };
    this.emit(new NavigatorHandoffEvent({ conversationId: reply.conversationId ?? '', handedTo }));
  }

  #onInput(event: InputEvent): void {
    this.draft = (event.target as HTMLTextAreaElement).value;
    if (this.composerError === 'empty' && this.draft.trim()) this.composerError = undefined;
    if (this.composerError === 'tooLong' && this.draft.length <= MAX_LENGTH) this.composerError = undefined;
    this.#persist();
  }

  #onKeydown(event: KeyboardEvent): void {
    // Enter sends; Shift+Enter keeps its newline; Enter that confirms an input method's composition is not a send.
    if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
    event.preventDefault();
    this.#submit();
  }

  #onSubmit(event: SubmitEvent): void {
    event.preventDefault();
    this.#submit();
    this.#focusInput();
  }

  /** A suggestion is a question the member can ask with one tap: it is sent as it is. */
  #useSuggestion(text: string): void {
    this.draft = text;
    this.composerError = undefined;
    this.#submit();
    this.#focusInput();
  }

  protected override render() {
    const session = this.activeSession;
    const status = chatStatus(session, this.member.fromContext, Boolean(this.member.current));
    return html`<div
      part="base"
      lang=${this.localize.language}
      dir=${this.localize.dir}
      aria-busy=${status === 'connecting' ? 'true' : 'false'}
    >
      ${
        status === 'chat'
          ? this.#renderChat()
          : statusNotice(this.localize, status, () => session && this.#retrySession(session))
      }
    </div>`;
  }

  #renderChat() {
    return html`
      ${this.#messages.length === 0 ? this.#renderWelcome() : nothing}
      ${chatLog(this.localize, {
        messages: this.#messages,
        olderAbove: this.olderAbove,
        // Waiting for the connection, nobody is typing: the message itself says it waits.
        typing: this.#sending && !this.#waiting,
        onScroll: this.#onScroll,
        renderMessage: (m, firstOfGroup) => this.#renderMessage(m, firstOfGroup),
      })}
      ${this.#renderComposer()}
    `;
  }

  #renderWelcome() {
    const t = this.localize;
    return welcome(t, {
      restored: this.restored,
      suggestions: this.suggestions ?? [t.t('suggestion1'), t.t('suggestion2'), t.t('suggestion3')],
      onSuggestion: (text) => this.#useSuggestion(text),
    });
  }

  /** Older messages are above the visible part of the log: a cue says so. */
  #onScroll = (event: Event): void => {
    const olderAbove = (event.target as HTMLElement).scrollTop > 8;
    if (olderAbove !== this.olderAbove) this.olderAbove = olderAbove;
  };

  #renderMessage(m: ChatMessage, firstOfGroup: boolean) {
    return chatMessage(m, firstOfGroup, {
      localize: this.localize,
      format: this.localize.format,
      now: this.#clock.now,
      language: this.resolvedLanguage,
      emergencyNumber: this.activeSession?.emergencyNumber,
      sending: this.#sending,
      waiting: this.#waiting,
      eligibility: this.#eligibility,
      handedTo: this.handoff?.key === m.key ? this.handoff.handedTo : undefined,
      onRetry: () => this.#retry(m),
      onHandOff: () => this.#handOff(m),
    });
  }

  #renderComposer() {
    return composer(this.localize, {
      draft: this.draft,
      error: this.composerError,
      sending: this.#sending,
      sendLabel: this.sendLabel(this.#sending, this.localize.t('send'), this.localize.t('send')),
      cancelSend: this.renderCancelSend(this.#sending, this.#cancelSend),
      onInput: (event) => this.#onInput(event),
      onKeydown: (event) => this.#onKeydown(event),
      onSubmit: (event) => this.#onSubmit(event),
    });
  }
}
