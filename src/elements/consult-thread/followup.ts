/**
 * The end of `<consult-thread>`: the follow-up box with the questions used, or, once no more can be
 * asked (the limit reached, the consultation closed or canceled), why, and "Start a new
 * consultation" as the way forward, carrying any unsent text.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { ConsultationView } from '../../client/browser-types.js';
import { MAX_QUESTION_LENGTH, MAX_QUESTIONS_PER_CONSULTATION } from '../../client/types.js';
import type { LocalizeController } from '../shared/localize.js';

/** Why no more questions can be asked here. */
export type Ending = 'limit' | 'closed' | 'canceled';

/** Why no more questions can be asked, from the record or from what the service said on a send. */
export function endingOf(c: ConsultationView, refused?: 'limit' | 'closed'): Ending | undefined {
  if (c.status === 'canceled') return 'canceled';
  if (c.status === 'closed' || refused === 'closed') return 'closed';
  if (c.questions.length >= MAX_QUESTIONS_PER_CONSULTATION || refused === 'limit') return 'limit';
  return undefined;
}

export interface FollowupView {
  localize: LocalizeController<'thread'>;
  /** Questions asked so far. */
  used: number;
  ending: Ending | undefined;
  draft: string;
  sending: boolean;
  problem: 'empty' | 'failed' | undefined;
  /** "Send question", "Sending…" or "Waiting to send". */
  submitLabel: string;
  cancelSend: TemplateResult | typeof nothing;
  onInput(event: Event): void;
  onKeydown(event: KeyboardEvent): void;
  onSubmit(event: SubmitEvent): void;
  onStartNew(): void;
  /** "Start a new consultation" found no form on the page: where the member can start one. */
  nowhere?: string;
}

export function followup(view: FollowupView): TemplateResult {
  const { localize, ending, draft } = view;
  if (ending) {
    const reason =
      ending === 'limit'
        ? localize.t('limitReached', { max: MAX_QUESTIONS_PER_CONSULTATION })
        : localize.t(ending === 'closed' ? 'closedReason' : 'canceledReason');
    return html`<div part="followup" class="followup ended">
      <p part="notice" class="notice" id="followup-notice" tabindex="-1">${reason}</p>
      ${
        draft.trim()
          ? html`<label for="unsent">${localize.t('unsent')}</label>
              <textarea dir="auto" id="unsent" rows="3" readonly .value=${live(draft)}></textarea>`
          : nothing
      }
      <button part="start-new-button" type="button" class="primary" @click=${view.onStartNew}>
        ${localize.t('startNew')}
      </button>
      ${view.nowhere ? html`<p part="notice" class="notice" id="no-form">${view.nowhere}</p>` : nothing}
    </div>`;
  }
  const problem =
    view.problem === 'empty'
      ? localize.t('emptyQuestion')
      : view.problem === 'failed'
        ? localize.t('sendFailed')
        : undefined;
  return html`<form part="followup" class="followup" novalidate @submit=${view.onSubmit}>
    <label for="followup-input">${localize.t('followupLabel')}</label>
    <textarea
      dir="auto"
      id="followup-input"
      part="followup-input"
      rows="3"
      maxlength=${MAX_QUESTION_LENGTH}
      aria-describedby=${problem ? 'followup-count followup-error' : 'followup-count'}
      aria-invalid=${view.problem === 'empty' ? 'true' : 'false'}
      ?readonly=${view.sending}
      .value=${live(draft)}
      @input=${view.onInput}
      @keydown=${view.onKeydown}
    ></textarea>
    <div class="actions">
      <p id="followup-count" class="count">
        ${localize.t('used', { used: view.used, max: MAX_QUESTIONS_PER_CONSULTATION })}
      </p>
      <!-- Not disabled while sending: a disabled button drops the member's focus to the page. -->
      <button
        part="submit-button"
        class="primary"
        type="submit"
        aria-disabled=${view.sending ? 'true' : 'false'}
      >
        ${view.submitLabel}
      </button>
    </div>
    ${
      problem
        ? html`<p id="followup-error" part="notice" class="notice error" role="alert">${problem}</p>`
        : nothing
    }
    ${view.cancelSend}
  </form>`;
}
