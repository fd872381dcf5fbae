import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ifDefined } from 'lit/directives/if-defined.js';
import { repeat } from 'lit/directives/repeat.js';
import { ApiError } from '../../client/errors.js';
import { newIdempotencyKey } from '../../client/retry.js';
import { MAX_QUESTIONS_PER_CONSULTATION } from '../../client/types.js';
import { ConsultThread } from '../consult-thread/consult-thread.js';
import { errorNotice, SessionElement } from '../shared/consult-element.js';
import { DraftController } from '../shared/draft.js';
import { FocusController } from '../shared/focus.js';
import { ConsultSubmittedEvent } from '../shared/events.js';
import { LocalizeController, translate } from '../shared/localize.js';
import type { Eligibility } from '../../session/session.js';
import { styles } from './consult-form.styles.js';
import { questionField } from './question-field.js';
import {
  fingerprint,
  fromDraft,
  newQuestion,
  placeText,
  questionError,
  toDraft,
  type FormDraft,
  type Question,
} from './questions.js';

/**
 * @tagname consult-form
 * @summary The member's question to a doctor: one to three questions, limits shown before they
 * bite, an emergency notice, and a submit that never creates two consultations.
 *
 * The draft (text and idempotency key) is kept in sessionStorage per member, so a reload loses
 * nothing and a retry after a timeout sends the same key. After sending, the new consultation's
 * `<consult-thread>` is shown.
 *
 * @slot emergency - Replaces the default emergency notice shown above the questions.
 * @slot no-subscription - Shown when the member has no active subscription: explain the partner's offer.
 * @slot inactive - Shown when the member's account is not active.
 *
 * @event consult-submitted - A consultation was created: `{ consultationId, questions }` (a count, never text).
 * @event consult-error - Loading or sending failed: `{ code, status, operation }`.
 *
 * @csspart base - The wrapper of every state.
 * @csspart form - The form.
 * @csspart question - Each question: label, text box, counter and messages.
 * @csspart character-count - The characters-left counter of a question near its limit.
 * @csspart counter - How many questions are used and left.
 * @csspart add-button - The "add another question" button.
 * @csspart submit-button - The send button.
 * @csspart hint - Why the send button waits, while the member's plan is being checked.
 * @csspart notice - Status notices: loading, errors, no subscription, inactive account, sent.
 * @csspart retry-button - "Try again" in an error notice.
 * @csspart emergency - The emergency notice.
 *
 * @cssprop --consult-form-gap - Space between the form's blocks. Default `--consult-spacing` (1rem).
 */
export class ConsultForm extends SessionElement {
  static override styles = [...SessionElement.styles, styles];
  static override dependencies = { 'consult-thread': ConsultThread };
  static override acceptsHandoff = true;

  /** True while the questions are being sent; the submit button is disabled meanwhile. */
  @property({ type: Boolean, reflect: true }) busy = false;

  @state() private questions: Question[] = [newQuestion()];
  /** Empty questions are flagged only once the member tried to send. */
  @state() private triedToSend = false;
  @state() private sendError?: 'failed' | 'network';
  /** A refusal from the service on send, which outranks what was read on load. */
  /** The question just sent has its answer: the "sent" notice has done its work. */
  @state() private answered = false;
  @state() private refused?: Exclude<Eligibility, 'eligible'>;
  /** Sent, and shown here: the page has no list for it to open in. */
  @state() private submitted?: { consultationId: string };
  /** Sent, and opened in the page's list: the form is fresh, with a note that links to it. */
  @state() private sentTo?: { consultationId: string };

  private readonly localize = new LocalizeController(this, 'form');

  /** The member whose draft is in the form. */
  #owner?: string;
  /** The key for the request `for`: the same content always goes with the same key. */
  #key?: { value: string; for: string };
  #saveTimer?: ReturnType<typeof setTimeout>;
  #sending?: AbortController;
  #pendingText?: string;
  readonly #focus = new FocusController(this);
  /** The sent consultation's thread, kept while it is shown. */
  #thread?: ConsultThread;
  readonly #draft = new DraftController<FormDraft>(
    () => this.#owner,
    () => 'consult-form',
  );

  /** The member's plan as the member state knows it; the form is typeable while it is checked. */
  get #plan(): { status: 'idle' | 'loading' | 'ready' | 'error'; value?: Eligibility; error?: unknown } {
    const signIn = this.signInStatus;
    if (signIn !== 'ready') return { status: signIn };
    return this.memberState?.plan ?? { status: 'error' };
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    const user = this.user;
    if (!user) {
      // Signing in sets the member, which renders this element again for them.
      this.signInIfIdle();
      return;
    }
    // The member's draft comes back while their plan is checked: the form is typeable meanwhile.
    this.#restoreDraft(user.id);
    if (this.isConnected && this.#plan.status === 'idle') this.#checkPlan(false);
  }

  /** Whether the form could be sent at the last update: text handed over waits for that. */
  #wasReady = false;

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    const ready = this.#formReady;
    if (ready && !this.#wasReady) this.#applyPendingText(true);
    this.#wasReady = ready;
  }

  #checkPlan(fresh: boolean): void {
    this.memberState
      ?.checkPlan({ fresh })
      .catch((error: unknown) =>
        this.reportError(error, error instanceof ApiError ? error.operation : 'getUserSubscriptions'),
      );
  }

  /**
   * Puts `text` in the first empty question (a new one if all are filled and there is room)
   * and focuses it. Before the form is ready, or while sending, the text waits for it.
   */
  startWith(text: string): void {
    this.#pendingText = text;
    this.#applyPendingText();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('pagehide', this.#flush);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('pagehide', this.#flush);
    this.#flush();
    // The draft keeps the key: sending again later answers the same consultation, never a second one.
    this.#sending?.abort();
  }

  /** Signed out, or another member: nothing of the previous member's stays on screen (S16). */
  protected override memberChanged(): void {
    this.#forget();
  }

  get #formReady(): boolean {
    const plan = this.#plan;
    return plan.status === 'ready' && plan.value === 'eligible' && !this.refused && this.#owner !== undefined;
  }

  #applyPendingText(ready = this.#formReady): void {
    const text = this.#pendingText;
    // While sending, the text waits: the form is about to be replaced by the sent state.
    if (text === undefined || !ready || this.busy || this.#owner === undefined) return;
    this.#pendingText = undefined;
    if (this.submitted || this.sentTo) this.#newForm();
    const placed = placeText(this.questions, text);
    if (!placed) return;
    this.questions = placed.questions;
    this.#saveNow();
    this.#focusQuestion(placed.target);
  }

  #restoreDraft(userId: string): void {
    if (this.#owner === userId) return;
    this.#owner = userId;
    // Typed before the member was known: what is on screen wins, and becomes the draft.
    if (this.questions.some((q) => q.text.trim() !== '')) {
      this.#saveNow();
      return;
    }
    const restored = fromDraft(this.#draft.load());
    if (!restored) return;
    this.questions = restored.questions;
    if (restored.key) this.#key = restored.key;
    if (restored.questions.some((q) => q.text.trim() !== '')) this.announce(this.localize.t('draftRestored'));
  }

  /** Writes the draft now: the text, and the key when it still belongs to this text. */
  #saveNow(): void {
    clearTimeout(this.#saveTimer);
    this.#saveTimer = undefined;
    if (!this.#owner) return;
    this.#draft.save(toDraft(this.questions, this.#key));
  }

  #scheduleSave(): void {
    clearTimeout(this.#saveTimer);
    this.#saveTimer = setTimeout(() => this.#saveNow(), 300);
  }

  #flush = (): void => {
    if (this.#saveTimer !== undefined) this.#saveNow();
  };

  /** Forgets the previous member's form: in memory only, the session clears their stored drafts. */
  #forget(): void {
    clearTimeout(this.#saveTimer);
    this.#saveTimer = undefined;
    this.#sending?.abort();
    this.#owner = undefined;
    this.#key = undefined;
    this.questions = [newQuestion()];
    this.triedToSend = false;
    this.sendError = undefined;
    this.refused = undefined;
    this.submitted = undefined;
    this.sentTo = undefined;
    this.#thread = undefined;
  }

  #newForm(): void {
    this.submitted = undefined;
    this.sentTo = undefined;
    this.questions = [newQuestion()];
    this.triedToSend = false;
    this.sendError = undefined;
  }

  #focusQuestion(id: number): void {
    this.#focus.next(`#question-${id}`);
  }

  #errorOf(question: Question, index: number): string | undefined {
    return questionError(question, index, this.triedToSend, this.localize);
  }

  #onInput(id: number, event: Event): void {
    const text = (event.target as HTMLTextAreaElement).value;
    this.questions = this.questions.map((q) => (q.id === id ? { ...q, text } : q));
    this.#scheduleSave();
  }

  #onKeydown(event: KeyboardEvent): void {
    // Ctrl+Enter (⌘+Enter) sends, as in most message boxes; Enter alone is a new line.
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void this.#submit();
    }
  }

  #add(): void {
    if (this.busy || this.questions.length >= MAX_QUESTIONS_PER_CONSULTATION) return;
    const question = newQuestion();
    this.questions = [...this.questions, question];
    this.#saveNow();
    this.#focusQuestion(question.id);
  }

  #remove(id: number): void {
    if (this.busy) return;
    const index = this.questions.findIndex((q) => q.id === id);
    if (index <= 0) return;
    const previous = this.questions[index - 1];
    this.questions = this.questions.filter((q) => q.id !== id);
    this.announce(this.localize.t('removed'));
    this.#saveNow();
    if (previous) this.#focusQuestion(previous.id);
  }

  #onSubmit(event: Event): void {
    event.preventDefault();
    void this.#submit();
  }

  async #submit(): Promise<void> {
    // One request in flight: a double click or Ctrl+Enter while sending does nothing more.
    if (this.busy) return;
    const state = this.memberState;
    const owner = this.#owner;
    if (this.#checking) {
      // Held until the member's plan is known; the button says why.
      this.announce(this.localize.t('checking'));
      return;
    }
    if (!state || !owner || !this.#formReady) return;

    this.triedToSend = true;
    const invalid = this.questions.filter((q, i) => this.#errorOf(q, i) !== undefined);
    const [firstInvalid] = invalid;
    if (firstInvalid) {
      this.announce(this.localize.t('invalid', { count: invalid.length }));
      this.#focusQuestion(firstInvalid.id);
      return;
    }

    const texts = this.questions.map((q) => q.text.trim());
    // The same text keeps its key (a retry after a timeout answers the first outcome); changed text is a new request.
    const request = fingerprint(texts);
    if (this.#key?.for !== request) this.#key = { value: newIdempotencyKey(), for: request };
    const idempotencyKey = this.#key.value;
    // Stored before sending, so a reload mid-request retries with the same key.
    this.#saveNow();

    const controller = new AbortController();
    this.#sending = controller;
    this.busy = true;
    this.sendError = undefined;
    this.announce(this.localize.t('sendingStatus'));
    try {
      // In the member's scope: a sign-out meanwhile rejects it, and nothing below runs (S21).
      // While the service cannot be reached it waits ("Waiting to send", which the member may cancel)
      // and goes out by itself, with the same key, once the connection is back.
      const consultation = await state.createConsultation(texts, idempotencyKey, controller.signal);
      if (controller.signal.aborted || this.#owner !== owner) return;
      this.#draft.clear();
      this.#key = undefined;
      this.#newForm();
      const { consultationId } = consultation;
      // The page's list shows it (one live copy per page); without a list, the thread shows here.
      if (state.requestOpen(consultationId)) {
        this.sentTo = { consultationId };
        this.announce(this.localize.t('sentListed'));
      } else {
        this.submitted = { consultationId };
        this.#focus.next('#sent');
      }
      this.emit(new ConsultSubmittedEvent({ consultationId, questions: texts.length }));
    } catch (error) {
      if (controller.signal.aborted || state.signal.aborted) return;
      this.reportError(error, 'createConsultation');
      const code = error instanceof ApiError ? error.code : undefined;
      if (code === 'subscription_required' || code === 'user_inactive') {
        this.refused = code === 'user_inactive' ? 'inactive' : 'no-subscription';
        state.planRefused(this.refused);
        // The form, and the button that had focus, give way to the notice: focus follows.
        this.#focus.next('[part~="notice"]');
      } else this.sendError = error instanceof ApiError && error.kind !== 'http' ? 'network' : 'failed';
    } finally {
      if (this.#sending === controller) {
        this.#sending = undefined;
        this.busy = false;
        // Text handed over while sending fills the form again, or waits for "ask another" after a success.
        if (!this.submitted) this.#applyPendingText();
      }
    }
  }

  #retryLoad(): void {
    // After "try again" the button is gone: focus goes to what replaced it.
    this.#focus.whenSettled(
      () => this.#plan.status !== 'loading',
      'textarea, [part~="notice"][tabindex], [part~="notice"] button',
      false,
    );
    // A sign-in that failed is tried again; otherwise the plan is checked again.
    if (this.user) this.#checkPlan(true);
    else void this.activeSession?.retry().catch(() => undefined);
  }

  #askAnother(): void {
    this.#newForm();
    const [first] = this.questions;
    if (first) this.#focusQuestion(first.id);
    this.#applyPendingText();
  }

  protected override render() {
    const { localize } = this;
    const plan = this.#plan;
    let content: TemplateResult;
    if (plan.status === 'error') content = this.#renderLoadError();
    // While the member's plan is checked, the form is already there to type in; only sending waits.
    else if (this.#checking) content = this.#renderForm();
    else {
      const eligibility = this.refused ?? plan.value;
      if (eligibility === 'no-subscription') content = this.#renderRefusal('no-subscription');
      else if (eligibility === 'inactive') content = this.#renderRefusal('inactive');
      else if (this.submitted) content = this.#renderSubmitted(this.submitted.consultationId);
      else content = this.#renderForm();
    }
    return html`<div part="base" lang=${localize.language} dir=${localize.dir}>
      ${this.renderAnnouncement()} ${content}
    </div>`;
  }

  #renderLoadError() {
    // What failed, named: signing in, or the plan check.
    const text = this.user
      ? this.localize.t('loadFailed')
      : translate(this.localize.language, 'session', 'signInFailed');
    return errorNotice(text, this.localize.t('retry'), () => this.#retryLoad());
  }

  #renderRefusal(kind: 'no-subscription' | 'inactive') {
    const { localize } = this;
    const [title, text] =
      kind === 'inactive'
        ? [localize.t('inactiveTitle'), localize.t('inactive')]
        : [localize.t('noSubscriptionTitle'), localize.t('noSubscription')];
    return html`<div part="notice" class="notice warning" tabindex="-1">
      <p class="title">${title}</p>
      <slot name=${kind}><p>${text}</p></slot>
    </div>`;
  }

  #renderSubmitted(consultationId: string) {
    // The thread sits in this shadow root, where it cannot see a lang on <consult-session>.
    // "Sent" until the answer is there: then the answer speaks for itself.
    return html`${
        this.answered
          ? nothing
          : html`<p part="notice" id="sent" class="notice success" tabindex="-1">
              ${this.localize.t('sent')}
            </p>`
      }
      ${this.#renderThread(consultationId)}
      <button type="button" class="ask-another" @click=${this.#askAnother}>
        ${this.localize.t('askAnother')}
      </button>`;
  }

  /** The new consultation's thread, under the name ConsultThread is registered as (see `dependencies`). */
  #renderThread(consultationId: string): ConsultThread {
    if (this.#thread?.consultationId !== consultationId) {
      this.#thread = ConsultForm.createDependency<ConsultThread>(ConsultThread, 'consult-thread');
      this.answered = false;
      this.#thread.addEventListener('consult-answered', () => (this.answered = true));
    }
    const thread = this.#thread;
    thread.setAttribute('consultation-id', consultationId);
    if (this.endpoint) thread.setAttribute('endpoint', this.endpoint);
    else thread.removeAttribute('endpoint');
    thread.setAttribute('lang', this.localize.language);
    thread.session = this.session;
    return thread;
  }

  /** The member's plan is still being checked: the form can be typed in, but not sent yet. */
  get #checking(): boolean {
    const { status } = this.#plan;
    return status === 'idle' || status === 'loading';
  }

  /**
   * Stops waiting to send: the questions stay, with their key, so sending them later still makes
   * one consultation.
   */
  #cancelSend = (): void => {
    this.#sending?.abort();
    const [first] = this.questions;
    if (first) this.#focusQuestion(first.id);
  };

  #renderForm() {
    const { localize } = this;
    const max = MAX_QUESTIONS_PER_CONSULTATION;
    const count = this.questions.length;
    const left = max - count;
    const sentTo = this.sentTo;
    return html`<form part="form" novalidate aria-label=${localize.t('formLabel')} @submit=${this.#onSubmit}>
      ${
        sentTo
          ? html`<div part="notice" class="notice success sent-to">
              <p>${localize.t('sentListed')}</p>
              <button
                type="button"
                class="link"
                @click=${() => this.memberState?.requestOpen(sentTo.consultationId)}
              >
                ${localize.t('openSent')}
              </button>
            </div>`
          : nothing
      }
      <div part="emergency" class="notice warning emergency" role="note">
        <slot name="emergency">${localize.t('emergency')}</slot>
      </div>
      ${repeat(
        this.questions,
        (q) => q.id,
        (q, index) => this.#renderQuestion(q, index),
      )}
      <div class="row">
        <p part="counter" class="counter" aria-live="polite">
          ${localize.t('counter', { count, max })} ·
          ${left === 0 ? localize.t('noneLeft') : localize.t('moreLeft', { count: left })}
        </p>
        ${
          left > 0
            ? html`<button part="add-button" type="button" ?disabled=${this.busy} @click=${this.#add}>
                ${localize.t('addQuestion')}
              </button>`
            : nothing
        }
      </div>
      ${
        this.sendError
          ? errorNotice(
              localize.t(this.sendError === 'network' ? 'sendFailedNetwork' : 'sendFailed'),
              localize.t('retry'),
              () => void this.#submit(),
            )
          : nothing
      }
      <button
        part="submit-button"
        class="primary submit"
        type="submit"
        aria-disabled=${this.busy || this.#checking ? 'true' : 'false'}
        aria-describedby=${ifDefined(this.#checking ? 'checking' : undefined)}
      >
        ${this.sendLabel(this.busy, localize.t('submit'), localize.t('sending'))}
      </button>
      ${this.#checking ? html`<p id="checking" part="hint" class="hint">${localize.t('checking')}</p>` : nothing}
      ${this.renderCancelSend(this.busy, this.#cancelSend)}
    </form>`;
  }

  #renderQuestion(question: Question, index: number) {
    return questionField(question, index, {
      error: this.#errorOf(question, index),
      busy: this.busy,
      localize: this.localize,
      onInput: (event) => this.#onInput(question.id, event),
      onKeydown: (event) => this.#onKeydown(event),
      onRemove: () => this.#remove(question.id),
    });
  }
}
