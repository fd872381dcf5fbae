import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { live } from 'lit/directives/live.js';
import { ApiError } from '../../client/errors.js';
import type { ConsultationView } from '../../client/browser-types.js';
import { newIdempotencyKey } from '../../client/index.js';
import {
  MAX_QUESTION_LENGTH,
  MAX_QUESTIONS_PER_CONSULTATION,
  type Professional,
  type QuestionItem,
} from '../../client/types.js';
import { errorNotice, SessionElement } from '../shared/consult-element.js';
import { DraftController } from '../shared/draft.js';
import { FocusController } from '../shared/focus.js';
import { ConsultAnsweredEvent, ConsultFollowupEvent } from '../shared/events.js';
import { attachmentList, professionalCard } from './professional.js';
import { LocalizeController } from '../shared/localize.js';
import { markdown, preloadMarkdown } from '../shared/markdown.js';
import type { MemberState } from '../../session/member-state.js';
import { answeredWords, statusBadge, statusStyles } from '../shared/status.js';
import { styles } from './consult-thread.styles.js';
import { isOlder } from '../../session/consultations.js';

type SendProblem = 'empty' | 'failed' | 'limit' | 'closed';

/** What is kept of the follow-up box per member and consultation (S16). */
interface FollowupDraft {
  text: string;
  /** The key of an attempt that failed, reused while the text is the same (S14). */
  attempt?: { key: string; text: string };
}

/**
 * @tagname consult-thread
 * @summary One consultation: each question with its answer (sanitized markdown), the professional
 * who answered, attachments as safe links, and a follow-up box that counts the questions used and
 * closes at the cap or when the consultation has ended. New answers appear live.
 *
 * @event consult-answered - A question shown here received its answer (`{ consultationId, status }`).
 * @event consult-followup - The member asked a follow-up question (`{ consultationId, questionsUsed }`).
 * @event consult-error - Loading or sending failed (`{ code, status, operation }`).
 *
 * @csspart base - The wrapper of everything.
 * @csspart status - The status badge.
 * @csspart question - A question the member asked.
 * @csspart answer - An answer, rendered from markdown.
 * @csspart professional - Who answered: name, title, specialties, licences and profile link.
 * @csspart followup - The follow-up box, open or closed.
 * @csspart followup-input - Its text area.
 * @csspart submit-button - Its send button.
 * @csspart notice - Messages: no consultation, load errors, why the box is closed, send errors.
 * @csspart retry-button - "Try again" in an error notice.
 *
 * @cssprop --consult-thread-gap - Space between the questions.
 * @cssprop --consult-thread-answer-background - Background of an answer.
 */
export class ConsultThread extends SessionElement {
  static override styles = [...SessionElement.styles, statusStyles, styles];

  /** The id of the consultation to show. */
  @property({ attribute: 'consultation-id' }) consultationId?: string;

  /** The consultation itself, when the page has it already; skips the first request. */
  @property({ attribute: false }) consultation?: ConsultationView;

  static override watchesConsultations = true;

  @state() private draft = '';
  @state() private sending = false;
  @state() private sendProblem?: SendProblem;

  private readonly localize = new LocalizeController(this, 'thread');
  readonly #focus = new FocusController(this);
  readonly #draft = new DraftController<FollowupDraft>(
    () => this.user?.id,
    () => this.consultationId && `followup:${this.consultationId}`,
  );

  /** The state whose consultation events this thread follows. */
  #following?: MemberState;

  /**
   * The consultation on screen: the member state's record (one copy for the whole page), else
   * the one the page handed over. Undefined while it loads.
   */
  get #record(): ConsultationView | undefined {
    const id = this.consultationId;
    if (!id) return undefined;
    const held = this.memberState?.consultation(id);
    const given = this.consultation?.consultationId === id ? this.consultation : undefined;
    if (held && given) return isOlder(held, given) ? given : held;
    return held ?? given;
  }

  /** Where the first read of the consultation is, when the page did not hand it over. */
  get #loadStatus(): { status: 'idle' | 'loading' | 'ready' | 'error'; error?: unknown } {
    const id = this.consultationId;
    if (!id || this.#record) return { status: 'ready' };
    const state = this.memberState;
    const signIn = this.signInStatus;
    if (!state || signIn !== 'ready') return { status: signIn };
    return state.consultationStatus(id);
  }

  #attempt?: { key: string; text: string };
  /** The follow-up on its way, which "Cancel sending" stops waiting for. */
  #sending?: AbortController;

  /** Stops waiting to send: the text stays, with its key, so sending it later still asks it once. */
  #cancelSend = (): void => {
    this.#sending?.abort();
    this.#focus.next('#followup-input');
  };

  override connectedCallback(): void {
    super.connectedCallback();
    // Warm the renderer now; the first paint shows the text plainly until it is ready.
    void preloadMarkdown().catch(() => undefined);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#follow(undefined);
  }

  /** Nothing of the previous member stays: the consultation, the follow-up draft, what was announced. */
  protected override memberChanged(): void {
    this.consultation = undefined;
    this.draft = '';
    this.#attempt = undefined;
    this.sendProblem = undefined;
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    const before = changed.get('consultation') as ConsultationView | undefined;
    if (
      before &&
      this.consultation?.consultationId === before.consultationId &&
      isOlder(this.consultation, before)
    ) {
      // A page that renders again hands back the record it first gave: the newer one stays.
      this.consultation = before;
    }
    let idChanged = changed.has('consultationId');
    // A consultation set on its own brings its id; set together with another id, the id wins.
    if (
      changed.has('consultation') &&
      this.consultation &&
      !idChanged &&
      this.consultation.consultationId !== this.consultationId
    ) {
      this.consultationId = this.consultation.consultationId;
      idChanged = true;
    }
    if (this.consultation && this.consultation.consultationId !== this.consultationId) {
      this.consultation = undefined;
    }
    if (idChanged) this.sendProblem = undefined;
    if (idChanged || changed.has('user')) this.#restoreDraft();
    this.#follow(this.isConnected ? this.memberState : undefined);
    // The page's record goes into the member state, which other views of it then share.
    if (this.consultation && this.user && this.consultation.userId === this.user.id)
      this.memberState?.apply(this.consultation);
    this.#loadIfNeeded();
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    // On screen: its answers are seen.
    const id = this.consultationId;
    if (id && this.isConnected && this.#record) this.memberState?.markSeen(id);
  }

  /** Reads the consultation once the member is known, unless the state has it or is reading it. */
  #loadIfNeeded(): void {
    const id = this.consultationId;
    const state = this.memberState;
    const session = this.activeSession;
    if (!id || this.#record || !this.isConnected || !session) return;
    if (!this.user) {
      // Signing in sets the member, which renders this element again for them.
      this.signInIfIdle();
      return;
    }
    if (state?.consultationStatus(id).status !== 'idle') return;
    state.load(id).catch((error: unknown) => this.reportError(error, 'getConsultation'));
  }

  /** Follows the state's consultation events: answers and endings of the one shown are announced here. */
  #follow(state: MemberState | undefined): void {
    if (state === this.#following) return;
    this.#following?.removeEventListener('consultation', this.#onConsultation);
    this.#following = state;
    state?.addEventListener('consultation', this.#onConsultation);
  }

  #onConsultation = (event: Event): void => {
    const { previous, record } = (
      event as CustomEvent<{ previous?: ConsultationView; record: ConsultationView }>
    ).detail;
    if (record.consultationId !== this.consultationId || !previous) return;
    this.#told(previous, record);
  };

  #retry = (): void => {
    // After "try again" the button is gone: focus goes to what replaced it, unless the member moved on.
    this.#focus.whenSettled(
      () => this.#loadStatus.status !== 'loading',
      '#question-0, [part~="notice"][tabindex]',
    );
    this.reload();
  };

  /**
   * Moves focus to the consultation's heading (its status and date), once it is shown: where a
   * member lands when a question they sent opens here.
   */
  focusHeading(): void {
    if (this.#record) this.#focus.next('#heading');
    else this.#focus.whenSettled(() => this.#record !== undefined, '#heading', false);
    this.requestUpdate();
  }

  /** Reads the consultation again, for example after an error. */
  reload(): void {
    const id = this.consultationId;
    if (id && !this.user) void this.activeSession?.retry().catch(() => undefined);
    if (!id || !this.user) return;
    this.memberState
      ?.load(id, { fresh: true })
      .catch((error: unknown) => this.reportError(error, 'getConsultation'));
  }

  /** Tells the member what changed between two records of the consultation on screen. */
  #told(previous: ConsultationView, next: ConsultationView): void {
    const answered = next.questions.some(
      (item, i) =>
        item.answer !== undefined && previous.questions[i] && previous.questions[i].answer === undefined,
    );
    if (answered) {
      // The same words as the session's own announcement of it: heard once.
      this.announce(answeredWords(next, this.localize.language));
      this.emit(new ConsultAnsweredEvent({ consultationId: next.consultationId, status: next.status }));
    } else if (next.status !== previous.status) {
      if (next.status === 'claimed') this.announce(this.localize.t('working'));
      if (next.status === 'closed') this.announce(this.localize.t('closedReason'));
      if (next.status === 'canceled') this.announce(this.localize.t('canceledReason'));
    }
  }

  #restoreDraft(): void {
    const saved = this.#draft.load();
    this.draft = saved?.text ?? '';
    this.#attempt = saved?.attempt;
  }

  #saveDraft(): void {
    this.#draft.save(
      this.draft || this.#attempt
        ? { text: this.draft, ...(this.#attempt ? { attempt: this.#attempt } : {}) }
        : undefined,
    );
  }

  #onInput = (event: Event): void => {
    this.draft = (event.target as HTMLTextAreaElement).value;
    if (this.sendProblem === 'empty' && this.draft.trim()) this.sendProblem = undefined;
    this.#saveDraft();
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
    const text = this.draft.trim();
    if (!text) {
      this.sendProblem = 'empty';
      this.#focus.next('#followup-input');
      return;
    }
    // The same words after a failure keep their key, so the proxy cannot record them twice (S14).
    const attempt = this.#attempt?.text === text ? this.#attempt : { key: newIdempotencyKey(), text };
    this.#attempt = attempt;
    this.#saveDraft();
    const sending = new AbortController();
    this.#sending = sending;
    this.sending = true;
    this.sendProblem = undefined;
    try {
      // The member's scope: if they sign out meanwhile, this rejects and nothing below runs (S21).
      // While the service cannot be reached it waits ("Waiting to send", cancellable) and goes out by
      // itself, with the same key, once the connection is back.
      const updated = await state.addFollowUp(consultation.consultationId, text, attempt.key, sending.signal);
      this.#attempt = undefined;
      this.draft = '';
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
      if (state.signal.aborted || sending.signal.aborted) return;
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
  #closedReason(c: ConsultationView): string | undefined {
    const { localize } = this;
    if (c.status === 'canceled') return localize.t('canceledReason');
    if (c.status === 'closed' || this.sendProblem === 'closed') return localize.t('closedReason');
    if (c.questions.length >= MAX_QUESTIONS_PER_CONSULTATION || this.sendProblem === 'limit') {
      return localize.t('limitReached', { max: MAX_QUESTIONS_PER_CONSULTATION });
    }
    return undefined;
  }

  protected override render() {
    const loading = this.#loadStatus.status === 'loading';
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
    if (loading) {
      // A question and an answer, shaped like the thread to come.
      return html`<div class="loading">
        <p class="visually-hidden">${localize.t('loading')}</p>
        <div class="thread" aria-hidden="true">
          <div class="item">
            <span class="skeleton narrow"></span>
            <span class="skeleton"></span>
            <div class="reply placeholder">
              <span class="skeleton narrow"></span><span class="skeleton"></span><span class="skeleton"></span
              ><span class="skeleton short"></span>
            </div>
          </div>
        </div>
      </div>`;
    }
    const load = this.#loadStatus;
    if (load.status === 'error') {
      const { error } = load;
      const notFound = error instanceof ApiError && error.status === 404;
      // A consultation that does not exist will not appear by trying again: say so, with no retry.
      return notFound
        ? html`<div part="notice" class="notice info" role="alert" tabindex="-1">
            <p>${localize.t('notFound')}</p>
          </div>`
        : errorNotice(localize.t('loadFailed'), localize.t('retry'), this.#retry);
    }
    return html`<p part="notice" class="notice">${localize.t('none')}</p>`;
  }

  #renderConsultation(c: ConsultationView): TemplateResult {
    const { localize } = this;
    const professional = c.questions.findLast((q) => q.professional)?.professional;
    return html`<h3 class="header" id="heading" tabindex="-1">
        ${statusBadge(c.status, localize.language)}
        ${
          Number.isNaN(Date.parse(c.createdAt))
            ? nothing
            : html`<span class="date"
                >${localize.t('askedOn', { date: localize.format.date(c.createdAt) })}</span
              >`
        }
      </h3>
      ${professional ? professionalCard(c, professional, this.localize) : nothing}
      <ol class="thread" aria-label=${localize.t('thread')}>
        ${c.questions.map((item, index) => this.#renderItem(c, item, index, professional))}
      </ol>
      ${this.#renderFollowup(c)}`;
  }

  #renderItem(
    c: ConsultationView,
    item: QuestionItem,
    index: number,
    shown: Professional | undefined,
  ): TemplateResult {
    const { localize } = this;
    const waiting =
      c.status === 'canceled' || c.status === 'closed'
        ? localize.t('notAnswered')
        : c.status === 'claimed'
          ? item.professional
            ? localize.t('workingNamed', { name: item.professional.name })
            : localize.t('working')
          : localize.t('waiting');
    // Named under the answer only when someone other than the card's professional gave it.
    const other = item.professional && item.professional.name !== shown?.name ? item.professional : undefined;
    return html`<li class="item">
      <div part="question" class="question" id="question-${index}" tabindex="-1">
        <p class="label">${index === 0 ? localize.t('yourQuestion') : localize.t('followupQuestion')}</p>
        <p class="question-text" dir="auto">${item.question}</p>
      </div>
      ${
        item.answer === undefined
          ? html`<p class="waiting">${waiting}</p>`
          : html`<div class="reply">
              <p class="label">${localize.t('answer')}</p>
              <div part="answer" class="markdown" dir="auto">
                ${markdown(item.answer, this.resolvedLanguage)}
              </div>
              ${attachmentList(item.attachments ?? [], this.localize)}
              ${other ? html`<p class="by">${localize.t('answeredByName', { name: other.name })}</p>` : nothing}
            </div>`
      }
    </li>`;
  }

  #renderFollowup(c: ConsultationView): TemplateResult {
    const { localize } = this;
    const used = html`<p id="followup-count" class="count">
      ${localize.t('used', { used: c.questions.length, max: MAX_QUESTIONS_PER_CONSULTATION })}
    </p>`;
    const reason = this.#closedReason(c);
    if (reason) {
      return html`<div part="followup" class="followup closed">
        <p part="notice" class="notice" id="followup-notice" tabindex="-1">${reason}</p>
        ${used}
        ${
          this.draft.trim()
            ? html`<label for="unsent">${localize.t('unsent')}</label>
                <textarea dir="auto" id="unsent" rows="3" readonly .value=${live(this.draft)}></textarea>`
            : nothing
        }
      </div>`;
    }
    const problem =
      this.sendProblem === 'empty'
        ? localize.t('emptyQuestion')
        : this.sendProblem === 'failed'
          ? localize.t('sendFailed')
          : undefined;
    return html`<form part="followup" class="followup" novalidate @submit=${this.#onSubmit}>
      <label for="followup-input">${localize.t('followupLabel')}</label>
      <textarea
        dir="auto"
        id="followup-input"
        part="followup-input"
        rows="3"
        maxlength=${MAX_QUESTION_LENGTH}
        aria-describedby=${problem ? 'followup-count followup-error' : 'followup-count'}
        aria-invalid=${this.sendProblem === 'empty' ? 'true' : 'false'}
        ?readonly=${this.sending}
        .value=${live(this.draft)}
        @input=${this.#onInput}
        @keydown=${this.#onKeydown}
      ></textarea>
      ${used}
      ${
        problem
          ? html`<p id="followup-error" part="notice" class="notice error" role="alert">${problem}</p>`
          : nothing
      }
      <button part="submit-button" class="primary" type="submit" ?disabled=${this.sending}>
        ${this.sendLabel(this.sending, localize.t('send'), localize.t('sending'))}
      </button>
      ${this.renderCancelSend(this.sending, this.#cancelSend)}
    </form>`;
  }
}
