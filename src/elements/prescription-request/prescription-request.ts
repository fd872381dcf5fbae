import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ApiError } from '../../client/errors.js';
import { newIdempotencyKey } from '../../client/retry.js';
import { SessionElement } from '../shared/session-element.js';
import { DraftController } from '../shared/draft.js';
import { PrescriptionSubmittedEvent } from '../shared/events.js';
import { FocusController } from '../shared/focus.js';
import { addEnglish, LocalizeController } from '../shared/localize.js';
import { prescription } from '../translations/en-prescription.js';
import { styles } from './prescription-request.styles.js';
import { sentRequests } from './sent-requests.js';
import { surveyQuestion } from './question-view.js';
import {
  checkSurvey,
  DEFAULT_MAX_LENGTH,
  isAnswered,
  type Survey,
  type SurveyAnswer,
  type SurveyQuestion,
} from './survey.js';

// This element's English comes with its code, not with the loader.
addEnglish({ prescription });

type Answers = Record<string, SurveyAnswer>;
type Problem = 'failed' | 'no-subscription' | 'inactive';

/** What survives a reload (sessionStorage, wiped on sign-out): the answers, and the key they were sent with. */
interface PrescriptionDraft {
  answers: Answers;
  key?: { value: string; for: string };
}

/**
 * @tagname prescription-request
 * @summary A prescription request: the partner's indication survey as an accessible form,
 * validated, sent once through the proxy, with the member's answers kept for the tab's lifetime.
 *
 * The survey is the `survey` property, or JSON in a child `<script type="application/json">`:
 * `{ "questions": [{ "id", "kind": "text" | "yes-no" | "single" | "multiple", "label", "hint"?,
 * "required"?, "options"?, "maxLength"? }] }`, labels as text or texts by language. A survey with
 * a mistake is named precisely on the console, and the member sees that the form is unavailable.
 *
 * @slot no-subscription - Your offer, shown when the service refuses for want of an active plan.
 *
 * @event prescription-submitted - The request was sent (`{ prescriptionId, status }`; no answers).
 * @event consult-error - Sending failed (`{ code, status, operation }`).
 *
 * @csspart request - A request the member sent: when, its reference, and what was asked for when
 * it was sent on this page.
 * @csspart base - The wrapper of everything.
 * @csspart form - The `<form>` holding the survey's questions and the send button.
 * @csspart question - One question: its label, hint, field and error.
 * @csspart submit-button - The button that sends the request ("Send request", then "Sending…").
 * @csspart notice - Sent, refused, failed or unavailable.
 */
export class PrescriptionRequest extends SessionElement {
  static override styles = [...SessionElement.styles, styles];

  /** The indication survey; without it, JSON in a child `<script type="application/json">`. */
  @property({ attribute: false }) survey?: Survey;

  @state() private answers: Answers = {};
  @state() private triedToSend = false;
  @state() private sending = false;
  /** The request just sent, shown as sent: its record is the member state's. */
  @state() private sentId?: string;
  @state() private problem?: Problem;

  private readonly localize = new LocalizeController(this, 'prescription');
  readonly #focus = new FocusController(this);
  readonly #draft = new DraftController<PrescriptionDraft>(
    () => this.member.current?.id,
    () => 'prescription',
  );
  /**
   * The member's: the key the current answers were (or are being) sent with, so a repeat never
   * makes two requests, and whether their answers were put back after a reload.
   */
  readonly #view = this.member.keep((): { key?: { value: string; for: string }; restored?: boolean } => ({}));
  #checked?: { input: unknown; result: ReturnType<typeof checkSurvey> };

  /** The survey as given, checked once per value; its problems go to the console for the partner. */
  get #survey(): ReturnType<typeof checkSurvey> {
    const input = this.survey ?? this.#childSurvey();
    if (!this.#checked || this.#checked.input !== input) {
      const result: ReturnType<typeof checkSurvey> =
        input === undefined
          ? {
              problems: ['no survey: set the survey property or add <script type="application/json"> inside'],
            }
          : typeof input === 'string'
            ? { problems: [input] }
            : checkSurvey(input);
      if ('problems' in result) {
        console.error(
          `<${this.localName}>: the survey cannot be used:\n  - ${result.problems.join('\n  - ')}`,
        );
      }
      this.#checked = { input, result };
      return result;
    }
    return this.#checked.result;
  }

  #childJson?: { text: string; value: unknown };

  /** The survey in a child script; a text that is not JSON comes back as the problem to report. */
  #childSurvey(): unknown {
    const script = this.querySelector('script[type="application/json"]');
    const text = script?.textContent ?? '';
    if (!script) return undefined;
    if (this.#childJson?.text !== text) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        value = `the survey in <script type="application/json"> is not JSON: ${(error as Error).message}`;
      }
      this.#childJson = { text, value };
    }
    return this.#childJson.value;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    // The member's answers come back after a reload, once we know who they are.
    if (this.member.current && !this.#view.restored) {
      this.#view.restored = true;
      const draft = this.#draft.load();
      if (draft && Object.keys(this.answers).length === 0) {
        this.answers = draft.answers ?? {};
        if (draft.key) this.#view.key = draft.key;
      }
    }
    // The requests sent on earlier visits or other devices, as the proxy kept them: read once.
    const state = this.isConnected && this.member.current ? this.memberState : undefined;
    if (state?.prescriptionsStatus === 'idle') state.loadPrescriptions().catch(() => undefined);
  }

  #set(question: SurveyQuestion, answer: SurveyAnswer | undefined): void {
    const next = Object.fromEntries(Object.entries(this.answers).filter(([id]) => id !== question.id));
    if (answer !== undefined) next[question.id] = answer;
    this.answers = next;
    this.problem = undefined;
    this.#saveDraft();
  }

  #saveDraft(): void {
    const answered = Object.values(this.answers).some(isAnswered);
    this.#draft.save(
      answered ? { answers: this.answers, ...(this.#view.key ? { key: this.#view.key } : {}) } : undefined,
    );
  }

  #errorOf(question: SurveyQuestion): string | undefined {
    const answer = this.answers[question.id];
    const max = question.maxLength ?? DEFAULT_MAX_LENGTH;
    if (question.kind === 'text' && typeof answer === 'string' && answer.length > max)
      return this.localize.t('tooLong', { max });
    if (this.triedToSend && question.required && !isAnswered(answer)) return this.localize.t('required');
    return undefined;
  }

  #onSubmit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const checked = this.#survey;
    const state = this.memberState;
    if (this.sending || !('survey' in checked) || !state) return;
    this.triedToSend = true;
    const invalid = checked.survey.questions.filter((q) => this.#errorOf(q) !== undefined);
    const [first] = invalid;
    if (first) {
      this.announce(this.localize.t('invalid', { count: invalid.length }));
      this.#focus.next(`[data-question="${first.id}"]`);
      return;
    }
    // What is sent: the answers given, texts trimmed; nothing for a question left empty.
    const answers: Answers = {};
    for (const q of checked.survey.questions) {
      const answer = this.answers[q.id];
      if (answer !== undefined && isAnswered(answer))
        answers[q.id] = typeof answer === 'string' ? answer.trim() : answer;
    }
    const fingerprint = JSON.stringify(answers);
    if (this.#view.key?.for !== fingerprint)
      this.#view.key = { value: newIdempotencyKey(), for: fingerprint };
    const key = this.#view.key.value;
    this.#saveDraft();
    const memberId = this.member.current?.id;
    if (!memberId) return;
    const sending = new AbortController();
    this.#sending = sending;
    this.sending = true;
    this.problem = undefined;
    // The scope of the member who sends: once they have gone, `state.signal` is the next member's.
    const scope = state.signal;
    try {
      // In the member's scope: a sign-out meanwhile rejects it, and nothing below runs (S21).
      // While the service cannot be reached it waits ("Waiting to send", cancellable) and goes out by
      // itself, with the same key, once the connection is back.
      // What was asked for, in the member's words: the first written answer, kept in memory only.
      const firstText = checked.survey.questions.find(
        (q) => q.kind === 'text' && typeof answers[q.id] === 'string',
      );
      const asked = firstText ? (answers[firstText.id] as string) : undefined;
      const created = await state.sendPrescription(answers, key, sending.signal, asked);
      this.sentId = created.prescriptionId;
      this.answers = {};
      this.#view.key = undefined;
      this.triedToSend = false;
      this.#draft.clear();
      this.announce(this.localize.t('sent'));
      this.#focus.next('#sent');
      this.emit(
        new PrescriptionSubmittedEvent({ prescriptionId: created.prescriptionId, status: created.status }),
      );
    } catch (error) {
      if (scope.aborted || sending.signal.aborted) return;
      const code = error instanceof ApiError ? error.code : undefined;
      this.problem =
        code === 'subscription_required'
          ? 'no-subscription'
          : code === 'user_inactive'
            ? 'inactive'
            : 'failed';
      this.#focus.next('#problem');
      this.reportError(error, 'createPrescriptionRequest');
    } finally {
      if (this.#sending === sending) this.#sending = undefined;
      this.sending = false;
    }
  };

  /** The request on its way, which "Cancel sending" stops waiting for. */
  #sending?: AbortController;

  /** Stops waiting to send: the answers stay, with their key, so sending them later makes one request. */
  #cancelSend = (): void => {
    this.#sending?.abort();
    this.#focus.next('[part~="submit-button"]');
  };

  #another(): void {
    this.sentId = undefined;
    this.#focus.next('[data-question]');
  }

  protected override render() {
    return html`<div part="base" class="base" lang=${this.localize.language} dir=${this.localize.dir}>
      ${this.#renderBody()} ${this.renderAnnouncement()}
    </div>`;
  }

  #renderBody(): TemplateResult {
    const { localize } = this;
    const checked = this.#survey;
    if (!('survey' in checked)) {
      return html`<p part="notice" class="notice error" role="alert">${localize.t('unavailable')}</p>`;
    }
    const requests = this.member.current ? (this.memberState?.prescriptions ?? []) : [];
    const sent = requests.find((request) => request.prescriptionId === this.sentId);
    if (sent) {
      return html`<div part="notice" id="sent" class="notice success" tabindex="-1">
          <p class="title">${localize.t('sent')}</p>
          <p>${localize.t('sentNote', { id: sent.prescriptionId })}</p>
        </div>
        ${sentRequests(requests, localize, Date.now())}
        <button type="button" class="another" @click=${this.#another}>${localize.t('another')}</button>`;
    }
    const language = localize.language;
    return html`${sentRequests(requests, localize, Date.now())}
      <form part="form" novalidate aria-label=${localize.t('formLabel')} @submit=${this.#onSubmit}>
        ${checked.survey.questions.map((q) =>
          surveyQuestion(q, {
            language,
            localize,
            answer: this.answers[q.id],
            error: this.#errorOf(q),
            current: () => this.answers[q.id],
            onAnswer: (answer) => this.#set(q, answer),
          }),
        )}
        ${this.#renderProblem()}
        <button
          part="submit-button"
          class="primary submit"
          type="submit"
          aria-disabled=${this.sending ? 'true' : 'false'}
        >
          ${this.sendLabel(this.sending, localize.t('submit'), localize.t('sending'))}
        </button>
        ${this.renderCancelSend(this.sending, this.#cancelSend)}
      </form>`;
  }

  #renderProblem(): TemplateResult | typeof nothing {
    const { localize } = this;
    if (!this.problem) return nothing;
    if (this.problem === 'failed') {
      return html`<div part="notice" id="problem" class="notice error" role="alert" tabindex="-1">
        <p>${localize.t('sendFailed')}</p>
      </div>`;
    }
    return html`<div part="notice" id="problem" class="notice warning" role="alert" tabindex="-1">
      <p>${this.problem === 'inactive' ? localize.t('inactive') : localize.t('noSubscription')}</p>
      ${this.problem === 'no-subscription' ? html`<slot name="no-subscription"></slot>` : nothing}
    </div>`;
  }
}
