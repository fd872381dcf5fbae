import { html, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ApiError } from '../../client/errors.js';
import type { ConsultationView } from '../../client/browser-types.js';
import { SessionElement } from '../shared/session-element.js';
import { FocusController } from '../shared/focus.js';
import { ConsultFollowupEvent, ConsultStartNewEvent } from '../shared/events.js';
import { KeepInPlaceController } from '../shared/keep-in-place.js';
import { ClockController } from '../shared/clock.js';
import { conversation } from './messages.js';
import { loadingThread, missingThread } from './notices.js';
import { threadHeading } from './heading.js';
import { NewsController } from './news.js';
import { ConsultationReading } from './reading.js';
import { endingOf, followup, type Ending } from './followup.js';
import { handedOver } from './handed-over.js';
import { FollowupDraft } from './followup-draft.js';
import { addEnglish, LocalizeController, translate } from '../shared/localize.js';
import { prepareTimes } from '../shared/message-time.js';
import { prepareCredentials } from './professional.js';
import { prefetchMarkdownWhenIdle } from '../shared/markdown.js';
import { statusStyles } from '../shared/status.js';
import { styles } from './consult-thread.styles.js';
import { thread } from '../translations/en-thread.js';
import { PushOfferController, pushOfferStyles } from '../shared/push-offer.js';

// This element's English comes with its code, not with the loader.
addEnglish({ thread });

type SendProblem = 'empty' | 'failed' | 'limit' | 'closed';

/**
 * @tagname consult-thread
 * @summary One consultation as a conversation: the member's questions and each answer (sanitized
 * markdown) from the professional who gave it, with their name, role and the time; where a waiting
 * question stands; and a follow-up box that counts the questions used. At the cap, or when the
 * consultation has ended, "Start a new consultation" takes the member to the page's form. New
 * answers appear live, without moving what the member is reading or typing.
 *
 * @event consult-answered - A question shown here received its answer (`{ consultationId, status }`).
 * @event consult-followup - The member asked a follow-up question (`{ consultationId, questionsUsed }`).
 * @event consult-start-new - The member chose "Start a new consultation" (`{ consultationId, reason, handedTo }`); with no `<consult-form>` in the session (`handedTo: 'none'`), route them to yours.
 * @event consult-error - Loading or sending failed (`{ code, status, operation }`).
 *
 * @csspart base - The wrapper of everything.
 * @csspart status - The badge saying where the consultation stands: open, in progress, answered, closed or canceled.
 * @csspart question - A question the member asked: its heading, time and text.
 * @csspart answer - An answer, rendered from markdown.
 * @csspart professional - Who gave an answer: name, role and time.
 * @csspart waiting - Where the latest question stands (sent, being reviewed, answered) and how long answers usually take.
 * @csspart push-offer - Under the waiting note, the offer to be told on this device when a doctor answers (with `push-worker` on `<consult-session>`), or that it is on.
 * @csspart push-declined - Where the offer was, once the member said no to it ("Not now", or to the browser's question): that they will not be asked again on this device.
 * @csspart service-notifications - Under the waiting note, the member's choice of the service's own notifications by e-mail or text message (with `service-notifications` on `<consult-session>`).
 * @csspart followup - The follow-up box, or why no more can be asked.
 * @csspart followup-input - The follow-up box's text area, where the member types another question.
 * @csspart submit-button - The follow-up box's button that sends the question.
 * @csspart start-new-button - "Start a new consultation", once no more can be asked here.
 * @csspart notice - Messages: no consultation, load errors, why no more can be asked, send errors.
 * @csspart retry-button - "Try again" in an error notice.
 *
 * @cssprop --consult-thread-gap - Space between the questions.
 * @cssprop --consult-thread-answer-background - Background of an answer.
 * @cssprop --consult-thread-question-background - Background of the member's own messages.
 */
export class ConsultThread extends SessionElement {
  static override styles = [...SessionElement.styles, statusStyles, pushOfferStyles, styles];

  /** The id of the consultation to show. */
  @property({ attribute: 'consultation-id' }) consultationId?: string;

  /** The consultation itself, when the page has it already; skips the first request. */
  @property({ attribute: false }) consultation?: ConsultationView;

  static override watchesConsultations = true;
  /** The consultation is the member's: it goes when they do. */
  static override memberProperties = ['consultation'];

  @state() private sending = false;
  @state() private sendProblem?: SendProblem;
  /** "Start a new consultation" found no form in the session: the thread says where to go. */
  @state() private noForm = false;
  readonly #clock = new ClockController(this);

  private readonly localize = new LocalizeController(this, 'thread');
  /** Under the waiting note: "Tell me on this device when a doctor answers" (with `push-worker`). */
  readonly #pushOffer = new PushOfferController(this, () => this.member.session);
  readonly #focus = new FocusController(this);
  readonly #draft = this.member.holds(
    new FollowupDraft(
      this,
      () => this.member.current?.id,
      () => this.consultationId,
    ),
  );
  /** Whether the follow-up draft was put back for the member now signed in. */
  readonly #view = this.member.keep(() => ({ draftRestored: false }));

  /** Answers and endings of the consultation shown are told here. */
  readonly #news = new NewsController(
    this,
    this.localize,
    (words) => this.announce(words),
    (event) => this.emit(event),
  );

  /** The consultation on screen and its reading. */
  readonly #reading = new ConsultationReading(this, this.member, (error) =>
    this.reportError(error, 'getConsultation'),
  );
  get #record(): ConsultationView | undefined {
    return this.#reading.record;
  }

  /** The follow-up on its way, which "Cancel sending" stops waiting for. */
  #sending?: AbortController;

  /** Stops waiting to send: the text stays, with its key, so sending it later still asks it once. */
  #cancelSend = (): void => {
    this.#sending?.abort();
    this.#focus.next('#followup-input');
  };

  override connectedCallback(): void {
    super.connectedCallback();
    // Warm the renderer at idle; an answer to show first loads it at once.
    prefetchMarkdownWhenIdle();
    // Messages show their times, answers their professionals' licences: the browser's data for
    // both loads while the page waits for them.
    prepareTimes(this.localize.format);
    prepareCredentials(this.localize.format);
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    const shown = handedOver({
      consultation: this.consultation,
      consultationId: this.consultationId,
      before: changed.get('consultation') as ConsultationView | undefined,
      consultationSet: changed.has('consultation'),
      idSet: changed.has('consultationId'),
    });
    this.consultation = shown.consultation;
    this.consultationId = shown.consultationId;
    const idChanged = shown.idChanged;
    if (idChanged) this.sendProblem = undefined;
    if (idChanged || !this.#view.draftRestored) {
      this.#draft.restore();
      this.#view.draftRestored = Boolean(this.member.current);
    }
    this.#news.follow();
    // The page's record goes into the member state, which other views of it then share.
    if (this.consultation && this.member.current && this.consultation.userId === this.member.current.id)
      this.memberState?.apply(this.consultation);
    this.#reading.loadIfNeeded();
  }

  #retry = (): void => {
    // After "try again" the button is gone: focus goes to what replaced it, unless the member moved on.
    this.#focus.whenSettled(
      () => this.#reading.status.status !== 'loading',
      '#question-0, [part~="notice"][tabindex]',
    );
    this.reload();
  };

  /**
   * Moves focus to the consultation's heading (its subject), once it is shown: where a member
   * lands when a question they sent opens here.
   */
  focusHeading(): void {
    if (this.#record) this.#focus.next('#heading');
    else this.#focus.whenSettled(() => this.#record !== undefined, '#heading', false);
    this.requestUpdate();
  }

  /** Reads the consultation again, for example after an error. */
  reload(): void {
    this.#reading.reload();
  }

  #onInput = (event: Event): void => {
    this.#draft.edit((event.target as HTMLTextAreaElement).value);
    if (this.sendProblem === 'empty' && this.#draft.text.trim()) this.sendProblem = undefined;
  };

  #onKeydown = (event: KeyboardEvent): void => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      (event.target as HTMLTextAreaElement).form?.requestSubmit();
    }
  };

  #onSubmit = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault();
    const consultation = this.#record;
    const state = this.memberState;
    if (this.sending || !consultation) return;
    if (!state?.member) {
      this.sendProblem = 'failed';
      return;
    }
    const text = this.#draft.text.trim();
    if (!text) {
      this.sendProblem = 'empty';
      this.#focus.next('#followup-input');
      return;
    }
    // The same words after a failure keep their key, so the proxy cannot record them twice (S14).
    const key = this.#draft.keyFor(text);
    const sending = new AbortController();
    this.#sending = sending;
    this.sending = true;
    this.sendProblem = undefined;
    // The scope of the member who sends: once they have gone, `state.signal` is the next member's.
    const scope = state.signal;
    try {
      // The member's scope: if they sign out meanwhile, this rejects and nothing below runs (S21).
      // While the service cannot be reached it waits ("Waiting to send", cancellable) and goes out by
      // itself, with the same key, once the connection is back.
      const updated = await state.addFollowUp(consultation.consultationId, text, key, sending.signal);
      this.#draft.clear();
      this.announce(this.localize.t('sent'));
      this.#focus.next(`#question-${updated.questions.length - 1}`);
      this.emit(
        new ConsultFollowupEvent({
          consultationId: updated.consultationId,
          questionsUsed: updated.questions.length,
        }),
      );
    } catch (error) {
      if (scope.aborted || sending.signal.aborted) return;
      const code = error instanceof ApiError && error.status === 409 ? error.code : undefined;
      if (code === 'question_limit_reached' || code === 'consultation_closed') {
        this.sendProblem = code === 'question_limit_reached' ? 'limit' : 'closed';
        this.#focus.next('#followup-notice');
        // The server knows more than the page: show what it has.
        void state.load(consultation.consultationId, { fresh: true }).catch(() => undefined);
      } else {
        this.sendProblem = 'failed';
        this.#focus.next('#followup-input');
      }
      this.reportError(error, 'addConsultationFollowUp');
    } finally {
      if (this.#sending === sending) this.#sending = undefined;
      this.sending = false;
    }
  };

  /** Why no more questions can be asked, or undefined while the box is open. */
  #ending(c: ConsultationView): Ending | undefined {
    return endingOf(
      c,
      this.sendProblem === 'limit' || this.sendProblem === 'closed' ? this.sendProblem : undefined,
    );
  }

  /**
   * "Start a new consultation": the session's placement takes the member to the page's form, focus
   * in its box, with any unsent follow-up text; without a form, the thread says where to go and the
   * partner may route `consult-start-new`.
   */
  #startNew = (): void => {
    const c = this.#record;
    const reason = c && this.#ending(c);
    if (!c || !reason) return;
    const placed = this.memberState?.placement.startQuestion(this.#draft.text.trim()) ?? false;
    // The text is the form's now, kept in its own draft.
    if (placed) this.#draft.clear();
    this.noForm = !placed;
    if (!placed) this.announce(translate(this.localize.language, 'navigator', 'noForm'));
    const handedTo = placed ? 'consult-form' : 'none';
    this.emit(new ConsultStartNewEvent({ consultationId: c.consultationId, reason, handedTo }));
  };

  /** An answer arriving above what the member reads or types does not move it. */
  protected readonly keepInPlace = new KeepInPlaceController(this, '[part~="followup"]', '.message');

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    // On screen: its answers are seen.
    const id = this.consultationId;
    if (id && this.isConnected && this.#record) this.memberState?.markSeen(id);
  }

  protected override render() {
    const loading = this.#reading.status.status === 'loading';
    return html`<div
      part="base"
      class="base"
      lang=${this.localize.language}
      dir=${this.localize.dir}
      aria-busy=${loading ? 'true' : 'false'}
    >
      ${this.#renderBody(loading)} ${this.renderAnnouncement()}
    </div>`;
  }

  #renderBody(loading: boolean): TemplateResult {
    const { localize } = this;
    const record = this.#record;
    if (record) return this.#renderConsultation(record);
    if (loading) return loadingThread(localize.t('loading'));
    return missingThread(this.#reading.status, localize, this.#retry);
  }

  /** The offer, once a question of this consultation waits for its answer. */
  #waitingOffer(c: ConsultationView) {
    const waiting =
      c.status !== 'canceled' && c.status !== 'closed' && c.questions.at(-1)?.answer === undefined;
    if (!waiting) return undefined;
    if (!this.#pushOffer.shown) this.#pushOffer.show();
    return this.#pushOffer.render(this.localize.language, 'thread');
  }

  #renderConsultation(c: ConsultationView): TemplateResult {
    const { localize } = this;
    return html`${threadHeading(c, localize)}
    ${conversation(c, {
      localize,
      language: this.resolvedLanguage,
      now: this.#clock.now,
      times: this.memberState?.messageTimes(c.consultationId),
      replyHours: this.activeSession?.replyHours ?? 24,
      pushOffer: this.#waitingOffer(c),
    })}
    ${followup({
      localize,
      used: c.questions.length,
      ending: this.#ending(c),
      draft: this.#draft.text,
      sending: this.sending,
      problem: this.sendProblem === 'empty' || this.sendProblem === 'failed' ? this.sendProblem : undefined,
      submitLabel: this.sendLabel(this.sending, localize.t('send'), localize.t('sending')),
      cancelSend: this.renderCancelSend(this.sending, this.#cancelSend),
      onInput: this.#onInput,
      onKeydown: this.#onKeydown,
      onSubmit: this.#onSubmit,
      onStartNew: this.#startNew,
      nowhere: this.noForm ? translate(localize.language, 'navigator', 'noForm') : undefined,
    })}`;
  }
}
