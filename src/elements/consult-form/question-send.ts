/**
 * `<consult-form>`'s send: the member's questions go out once, one request at a time, with the
 * draft's idempotency key (S14). While the service cannot be reached the request waits ("Waiting
 * to send", which the member may cancel) and goes out by itself, with the same key, once the
 * connection is back. Leaving the page stops the wait; the draft keeps the key, so sending again
 * later answers the same consultation, never a second one. What came of it goes to the form: the
 * new consultation (opened in the page's list, or shown in the form), a refusal for the plan's
 * sake, or a failure to show.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { ApiError } from '../../client/errors.js';
import type { Eligibility, MemberState } from '../../session/member-state.js';
import { ConsultSubmittedEvent } from '../shared/events.js';
import type { FocusController } from '../shared/focus.js';
import type { PushOfferController } from '../shared/push-offer.js';
import type { QuestionsDraft } from './questions-draft.js';

/** The form, as its send sees it. */
export interface SendingForm extends ReactiveControllerHost, HTMLElement {
  /** The form's `busy` property: true while the questions are on their way. */
  busy: boolean;
}

/** The form's parts a send uses, and what the form does as a send goes. */
export interface SendSteps {
  draft: QuestionsDraft;
  focus: FocusController;
  /** "Tell me on this device when a doctor answers", under the "sent" note. */
  pushOffer: PushOfferController;
  /** Tells screen readers the form's words of that name. */
  announce(words: 'sendingStatus' | 'sentListed'): void;
  /** A `consult-error` for the page (an abort is none). */
  reportError(error: unknown): void;
  /** The failure to show under the form; none as a send starts. */
  showError(kind: 'network' | 'failed' | undefined): void;
  /** Created: the form starts afresh; the page's list opened it (`listed`), or the form shows its thread. */
  sent(consultationId: string, listed: boolean): void;
  /** Refused for the plan's sake: the form gives way to the notice. */
  refused(eligibility: Exclude<Eligibility, 'eligible'>): void;
  /** The send is over, and no other started since: text handed over meanwhile may fill the form. */
  settled(): void;
}

export class QuestionSend implements ReactiveController {
  readonly #host: SendingForm;
  readonly #steps: SendSteps;
  /** The request on its way, which "Cancel sending" and leaving the page stop waiting for. */
  #sending?: AbortController;

  constructor(host: SendingForm, steps: SendSteps) {
    this.#host = host;
    this.#steps = steps;
    host.addController(this);
  }

  hostDisconnected(): void {
    // The draft keeps the key: sending again later answers the same consultation, never a second one.
    this.#sending?.abort();
  }

  /**
   * Stops waiting to send: the questions stay, with their key, so sending them later still makes
   * one consultation. Focus goes back to the first question.
   */
  readonly cancel = (): void => {
    this.#sending?.abort();
    const [first] = this.#steps.draft.questions;
    if (first) this.#steps.focus.next(`#question-${first.id}`);
  };

  /** Sends `texts` (the member's checked questions) for the member whose draft they are. */
  async send(state: MemberState, texts: string[]): Promise<void> {
    const { draft, focus } = this.#steps;
    const owner = draft.owner;
    const idempotencyKey = draft.keyForSending(texts);

    const controller = new AbortController();
    this.#sending = controller;
    this.#host.busy = true;
    this.#steps.showError(undefined);
    this.#steps.announce('sendingStatus');
    // The scope of the member who sends: once they have gone, `state.signal` is the next member's.
    const scope = state.signal;
    try {
      // In the member's scope: a sign-out meanwhile rejects it, and nothing below runs (S21).
      // While the service cannot be reached it waits ("Waiting to send", which the member may cancel)
      // and goes out by itself, with the same key, once the connection is back.
      const consultation = await state.createConsultation(texts, idempotencyKey, controller.signal);
      if (controller.signal.aborted || draft.owner !== owner) return;
      draft.sent();
      const { consultationId } = consultation;
      // The page's list shows it (one live copy per page); without a list, the thread shows here.
      const listed = state.placement.showConsultation(consultationId);
      this.#steps.sent(consultationId, listed);
      if (listed) this.#steps.announce('sentListed');
      else focus.next('#sent');
      this.#steps.pushOffer.show();
      this.#host.dispatchEvent(new ConsultSubmittedEvent({ consultationId, questions: texts.length }));
    } catch (error) {
      if (controller.signal.aborted || scope.aborted) return;
      this.#steps.reportError(error);
      const code = error instanceof ApiError ? error.code : undefined;
      if (code === 'subscription_required' || code === 'user_inactive') {
        const refused = code === 'user_inactive' ? 'inactive' : 'no-subscription';
        this.#steps.refused(refused);
        state.planRefused(refused);
        // The form, and the button that had focus, give way to the notice: focus follows.
        focus.next('[part~="notice"]');
      } else this.#steps.showError(error instanceof ApiError && error.kind !== 'http' ? 'network' : 'failed');
    } finally {
      if (this.#sending === controller) {
        this.#sending = undefined;
        this.#host.busy = false;
        this.#steps.settled();
      }
    }
  }
}
