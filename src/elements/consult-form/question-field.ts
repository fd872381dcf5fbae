/**
 * One question of `<consult-form>`: its label, the hint on the first, the text box, the characters
 * left once it nears its limit, "Remove" on a follow-up question, and its error.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { live } from 'lit/directives/live.js';
import { MAX_QUESTION_LENGTH } from '../../client/types.js';
import type { LocalizeController } from '../shared/localize.js';
import type { Question } from './questions.js';

/** The counter appears once a question is this long, before the limit bites. */
const COUNTER_FROM = Math.floor(MAX_QUESTION_LENGTH * 0.8);

export interface QuestionFieldOptions {
  error: string | undefined;
  /** Sending: the text is read-only and nothing can be removed. */
  busy: boolean;
  localize: LocalizeController<'form'>;
  onInput(event: Event): void;
  onKeydown(event: KeyboardEvent): void;
  onRemove(): void;
}

export function questionField(
  question: Question,
  index: number,
  { error, busy, localize, onInput, onKeydown, onRemove }: QuestionFieldOptions,
): TemplateResult {
  const { id, text } = question;
  const length = text.length;
  const showCount = length >= COUNTER_FROM;
  const over = length > MAX_QUESTION_LENGTH;
  const remaining = Math.abs(MAX_QUESTION_LENGTH - length);
  const describedBy = [
    index === 0 ? `hint-${id}` : '',
    showCount ? `count-${id}` : '',
    error ? `error-${id}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return html`<div part="question" class="question">
    <label for="question-${id}"
      >${index === 0 ? localize.t('firstLabel') : localize.t('extraLabel', { number: index + 1 })}</label
    >
    ${index === 0 ? html`<p id="hint-${id}" class="hint">${localize.t('hint')}</p>` : nothing}
    <textarea
      dir="auto"
      id="question-${id}"
      name="question"
      rows="4"
      .value=${live(text)}
      ?readonly=${busy}
      aria-invalid=${error ? 'true' : 'false'}
      aria-describedby=${ifDefined(describedBy || undefined)}
      @input=${onInput}
      @keydown=${onKeydown}
    ></textarea>
    ${
      showCount || index > 0
        ? html`<div class="meta">
            ${
              showCount
                ? html`<span
                    part="character-count"
                    id="count-${id}"
                    class="character-count ${over ? 'over' : ''}"
                  >
                    ${
                      over
                        ? localize.t('charactersOver', { count: remaining })
                        : localize.t('charactersLeft', { count: remaining })
                    }
                  </span>`
                : nothing
            }
            ${
              index > 0
                ? html`<button
                    type="button"
                    class="remove"
                    aria-label=${localize.t('removeLabel', { number: index + 1 })}
                    ?disabled=${busy}
                    @click=${onRemove}
                  >
                    ${localize.t('remove')}
                  </button>`
                : nothing
            }
          </div>`
        : nothing
    }
    ${error ? html`<p id="error-${id}" class="error">${error}</p>` : nothing}
  </div>`;
}
