import { html, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ApiError } from '../../client/errors.js';
import type { ConsultThread } from '../consult-thread/consult-thread.js';
import { errorNotice } from '../shared/error-notice.js';
import { SessionElement } from '../shared/session-element.js';
import { FocusController } from '../shared/focus.js';
import { LocalizeController } from '../shared/localize.js';
import { PushOfferController, pushOfferStyles } from '../shared/push-offer.js';
import { isRegistered } from '../shared/registration.js';
import { whenIdle } from '../shared/when-idle.js';
import type { Eligibility } from '../../session/session.js';
import { styles } from './consult-form.styles.js';
import { formPlacement } from './form-placement.js';
import { loadThread } from './load-thread.js';
import { configureThread, loadError, questionForm, refusalNotice, sentHere } from './form-view.js';
import { questionField } from './question-field.js';
import { QuestionSend } from './question-send.js';
import { questionError, type Question } from './questions.js';
import { QuestionsDraft } from './questions-draft.js';

/** The thread's class, once its code is here. */
let threadClass: typeof ConsultThread | undefined;
let threadLoading: Promise<typeof ConsultThread> | undefined;

/** Loads the thread's code once, and registers it unless the page already has. */
function whenThreadLoaded(
  registry: CustomElementRegistry | undefined = globalThis.customElements,
): Promise<typeof ConsultThread> {
  return (threadLoading ??= loadThread().then(
    (thread) => {
      if (registry && !isRegistered(thread)) thread.define('consult-thread', registry);
      return (threadClass = thread);
    },
    (error: unknown) => {
      threadLoading = undefined;
      throw error;
    },
  ));
}

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
 * @csspart form - The `<form>` around the questions, the counter and the send button, below the emergency notice.
 * @csspart question - Each question: label, text box, counter and messages.
 * @csspart character-count - The characters-left counter of a question near its limit.
 * @csspart counter - How many questions are used and left.
 * @csspart add-button - The "add another question" button.
 * @csspart submit-button - The button that sends the questions ("Send to a doctor", then "Sending…").
 * @csspart hint - Why the send button waits, while the member's plan is being checked.
 * @csspart notice - Status notices: loading, errors, no subscription, inactive account, sent.
 * @csspart retry-button - "Try again" in an error notice.
 * @csspart push-offer - Under the "sent" note (when no thread on the page shows the question), the offer to be told on this device when a doctor answers (with `push-worker` on `<consult-session>`), or that it is on.
 * @csspart push-declined - Where the offer was, once the member said no to it ("Not now", or to the browser's question): that they will not be asked again on this device.
 * @csspart service-notifications - Under the "sent" note, the member's choice of the service's own notifications by e-mail or text message (with `service-notifications` on `<consult-session>`).
 * @csspart emergency - The note above the questions telling the member to call the emergency number rather than ask here.
 *
 * @cssprop --consult-form-gap - Space between the form's blocks. Default `--consult-spacing` (1rem).
 */
export class ConsultForm extends SessionElement {
  static override styles = [...SessionElement.styles, pushOfferStyles, styles];

  /**
   * Registers the form as `name`, and asks for its thread's code (registered as `consult-thread`
   * unless the page registered the class already) once the page is idle: a chunk apart in the
   * script-tag build, here long before a member has sent a question, and never read in the moments
   * the form first renders.
   */
  static override define(
    name: string,
    registry: CustomElementRegistry | undefined = globalThis.customElements,
  ): CustomElementConstructor {
    const defined = super.define(name, registry);
    // Only in a browser: a server renders no thread.
    if (registry && typeof document !== 'undefined')
      whenIdle(() => whenThreadLoaded(registry).catch(() => undefined));
    return defined;
  }

  /** True while the questions are being sent; the submit button is disabled meanwhile. */
  @property({ type: Boolean, reflect: true }) busy = false;

  /** Empty questions are flagged only once the member tried to send. */
  @state() private triedToSend = false;
  @state() private sendError?: 'failed' | 'network';
  /** The sent question's thread could not be loaded: a notice offers to try again. */
  @state() private threadFailed = false;
  /** The question just sent has its answer: the "sent" notice has done its work. */
  @state() private answered = false;
  /** A refusal from the service on send, which outranks what was read on load. */
  @state() private refused?: Exclude<Eligibility, 'eligible'>;
  /** Sent, and shown here: the page has no list for it to open in. */
  @state() private submitted?: { consultationId: string };
  /** Sent, and opened in the page's list: the form is fresh, with a note that links to it. */
  @state() private sentTo?: { consultationId: string };

  private readonly localize = new LocalizeController(this, 'form');
  /** Under the "sent" note: "Tell me on this device when a doctor answers" (with `push-worker`). */
  readonly #pushOffer = new PushOfferController(this, () => this.member.session);

  /** The member's questions: forgotten, in memory, when the member changes (the session clears their stored drafts). */
  readonly #draft = this.member.holds(new QuestionsDraft(this));
  #pendingText?: string;
  readonly #focus = new FocusController(this);
  /** The send: one request at a time, with the draft's key, waiting out a lost connection (see `question-send.ts`). */
  readonly #send = new QuestionSend(this, {
    draft: this.#draft,
    focus: this.#focus,
    pushOffer: this.#pushOffer,
    announce: (words) => this.announce(this.localize.t(words)),
    reportError: (error) => this.reportError(error, 'createConsultation'),
    showError: (kind) => (this.sendError = kind),
    sent: (consultationId, listed) => {
      this.#newForm();
      if (listed) this.sentTo = { consultationId };
      else this.submitted = { consultationId };
    },
    refused: (eligibility) => (this.refused = eligibility),
    settled: () => {
      // Text handed over while sending fills the form again, or waits for "ask another" after a success.
      if (!this.submitted) this.#applyPendingText();
    },
  });
  /** The sent consultation's thread, kept while it is shown; the member's. */
  readonly #view = this.member.keep((): { thread?: ConsultThread } => ({}));
  /** Where the session's placement starts new questions: this form's box. */
  protected readonly place = formPlacement(this);

  /** The member's plan as the member state knows it; the form is typeable while it is checked. */
  get #plan(): { status: 'idle' | 'loading' | 'ready' | 'error'; value?: Eligibility; error?: unknown } {
    const signIn = this.member.signInStatus;
    if (signIn !== 'ready') return { status: signIn };
    return this.memberState?.plan ?? { status: 'error' };
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    const user = this.member.current;
    if (!user) {
      // Signing in sets the member, which renders this element again for them.
      this.member.signInIfIdle();
      return;
    }
    // The member's draft comes back while their plan is checked: the form is typeable meanwhile.
    if (this.#draft.restore(user.id)) this.announce(this.localize.t('draftRestored'));
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

  get #formReady(): boolean {
    const plan = this.#plan;
    return (
      plan.status === 'ready' && plan.value === 'eligible' && !this.refused && this.#draft.owner !== undefined
    );
  }

  #applyPendingText(ready = this.#formReady): void {
    const text = this.#pendingText;
    // While sending, the text waits: the form is about to be replaced by the sent state.
    if (text === undefined || !ready || this.busy || this.#draft.owner === undefined) return;
    this.#pendingText = undefined;
    if (this.submitted || this.sentTo) this.#newForm();
    const target = this.#draft.place(text);
    if (target !== undefined) this.#focusQuestion(target);
  }

  #newForm(): void {
    this.submitted = undefined;
    this.sentTo = undefined;
    this.#draft.reset();
    this.triedToSend = false;
    this.sendError = undefined;
  }

  #focusQuestion(id: number): void {
    this.#focus.next(`#question-${id}`);
  }

  #errorOf(question: Question, index: number): string | undefined {
    return questionError(question, index, this.triedToSend, this.localize);
  }

  #onKeydown(event: KeyboardEvent): void {
    // Ctrl+Enter (⌘+Enter) sends, as in most message boxes; Enter alone is a new line.
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      this.#submit();
    }
  }

  #add(): void {
    const added = this.busy ? undefined : this.#draft.add();
    if (added !== undefined) this.#focusQuestion(added);
  }

  #remove(id: number): void {
    const previous = this.busy ? undefined : this.#draft.remove(id);
    if (previous === undefined) return;
    this.announce(this.localize.t('removed'));
    this.#focusQuestion(previous);
  }

  #onSubmit(event: Event): void {
    event.preventDefault();
    this.#submit();
  }

  #submit(): void {
    // One request in flight: a double click or Ctrl+Enter while sending does nothing more.
    if (this.busy) return;
    const state = this.memberState;
    if (this.#checking) {
      // Held until the member's plan is known; the button says why.
      this.announce(this.localize.t('checking'));
      return;
    }
    if (!state || !this.#draft.owner || !this.#formReady) return;

    this.triedToSend = true;
    const { questions } = this.#draft;
    const invalid = questions.filter((q, i) => this.#errorOf(q, i) !== undefined);
    const [firstInvalid] = invalid;
    if (firstInvalid) {
      this.announce(this.localize.t('invalid', { count: invalid.length }));
      this.#focusQuestion(firstInvalid.id);
      return;
    }
    const texts = questions.map((q) => q.text.trim());
    void this.#send.send(state, texts);
  }

  #retryLoad(): void {
    // After "try again" the button is gone: focus goes to what replaced it.
    this.#focus.whenSettled(
      () => this.#plan.status !== 'loading',
      'textarea, [part~="notice"][tabindex], [part~="notice"] button',
      false,
    );
    // A sign-in that failed is tried again; otherwise the plan is checked again.
    if (this.member.current) this.#checkPlan(true);
    else void this.activeSession?.retry().catch(() => undefined);
  }

  #askAnother(): void {
    this.#newForm();
    const [first] = this.#draft.questions;
    if (first) this.#focusQuestion(first.id);
    this.#applyPendingText();
  }

  protected override render() {
    const { localize } = this;
    const plan = this.#plan;
    let content: TemplateResult;
    // What failed, named: signing in, or the plan check.
    if (plan.status === 'error')
      content = loadError(localize, this.member.current !== undefined, () => this.#retryLoad());
    // While the member's plan is checked, the form is already there to type in; only sending waits.
    else if (this.#checking) content = this.#renderForm();
    else {
      const eligibility = this.refused ?? plan.value;
      if (eligibility === 'no-subscription') content = refusalNotice('no-subscription', localize);
      else if (eligibility === 'inactive') content = refusalNotice('inactive', localize);
      else if (this.submitted)
        content = sentHere(localize, {
          answered: this.answered,
          thread: this.#renderThread(this.submitted.consultationId),
          onAskAnother: () => this.#askAnother(),
        });
      else content = this.#renderForm();
    }
    return html`<div part="base" lang=${localize.language} dir=${localize.dir}>
      ${this.renderAnnouncement()} ${content}
    </div>`;
  }

  /**
   * The new consultation's thread, under the name ConsultThread is registered as; none until its
   * code is here (it was asked for when the form was registered, and is again if that failed), and
   * a notice with a retry if it cannot be loaded (offline, or a deploy in between).
   */
  #renderThread(consultationId: string): ConsultThread | TemplateResult | undefined {
    if (!threadClass) {
      if (this.threadFailed)
        return errorNotice(this.localize.t('threadFailed'), this.localize.t('retry'), () => {
          this.threadFailed = false;
        });
      whenThreadLoaded().then(
        () => this.requestUpdate(),
        (error: unknown) => {
          console.error('consult-elements: could not load <consult-thread>', error);
          this.threadFailed = true;
        },
      );
      return undefined;
    }
    if (this.#view.thread?.consultationId !== consultationId) {
      this.#view.thread = ConsultForm.createDependency<ConsultThread>(threadClass, 'consult-thread');
      this.answered = false;
      this.#view.thread.addEventListener('consult-answered', () => (this.answered = true));
    }
    // It sits in this shadow root, where it cannot see a lang on <consult-session>.
    return configureThread(
      this.#view.thread,
      consultationId,
      this.endpoint,
      this.localize.language,
      this.session,
    );
  }

  /** The member's plan is still being checked: the form can be typed in, but not sent yet. */
  get #checking(): boolean {
    const { status } = this.#plan;
    return status === 'idle' || status === 'loading';
  }

  /**
   * The "sent" note (and the offer under it) shows: the page's list does not show the question open
   * beside the form. Where a thread shows it (the list's, or the form's own), the offer is under
   * the thread's waiting note instead.
   */
  #sentNoteShows(): boolean {
    const sentTo = this.sentTo;
    return sentTo !== undefined && !this.memberState?.placement.isShowing(sentTo.consultationId);
  }

  #renderForm() {
    const { localize, busy } = this;
    const sentTo = this.sentTo;
    return questionForm({
      localize,
      questions: this.#draft.questions,
      busy,
      checking: this.#checking,
      sentTo: this.#sentNoteShows(),
      pushOffer: this.#pushOffer.render(localize.language),
      sendError: this.sendError,
      submitLabel: this.sendLabel(busy, localize.t('submit'), localize.t('sending')),
      cancelSend: this.renderCancelSend(busy, this.#send.cancel),
      question: (q, index) =>
        questionField(q, index, {
          error: this.#errorOf(q, index),
          busy,
          localize,
          onInput: (event) => this.#draft.edit(q.id, (event.target as HTMLTextAreaElement).value),
          onKeydown: (event) => this.#onKeydown(event),
          onRemove: () => this.#remove(q.id),
        }),
      onSubmit: (event) => this.#onSubmit(event),
      onAdd: () => this.#add(),
      onRetry: () => this.#submit(),
      onOpenSent: () => sentTo && this.memberState?.placement.showConsultation(sentTo.consultationId),
    });
  }
}
