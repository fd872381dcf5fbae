/**
 * One question of `<prescription-request>`'s survey as a view: a text answer with its length in
 * the question form's words, yes or no, one of several, or several ticks; its label in the
 * member's language, its hint and its error.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { LocalizeController } from '../shared/localize.js';
import { DEFAULT_MAX_LENGTH, textIn, type SurveyAnswer, type SurveyQuestion } from './survey.js';

export interface QuestionViewOptions {
  language: string;
  localize: LocalizeController<'prescription'>;
  answer: SurveyAnswer | undefined;
  error: string | undefined;
  /** The answer as it is at the moment of a click, for ticks made in quick succession. */
  current(): SurveyAnswer | undefined;
  onAnswer(answer: SurveyAnswer | undefined): void;
}

export function surveyQuestion(
  q: SurveyQuestion,
  { language, localize, answer, error, current, onAnswer }: QuestionViewOptions,
): TemplateResult {
  const id = `q-${q.id}`;
  const hint = q.hint ? textIn(q.hint, language) : '';
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  // The space before "(optional)" sits between two parts of one template: the build's template
  // minifier drops whitespace that starts a template (test/node/template-spaces.test.ts).
  const label = q.required
    ? html`${textIn(q.label, language)}`
    : html`${textIn(q.label, language)} <span class="optional">${localize.t('optional')}</span>`;
  const hintLine = hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : nothing;
  const errorLine = error ? html`<p class="error" id="${id}-error">${error}</p>` : nothing;

  if (q.kind === 'text') {
    const max = q.maxLength ?? DEFAULT_MAX_LENGTH;
    return html`<div part="question" class="question">
      <label for=${id}>${label}</label>
      ${hintLine}
      <textarea
        id=${id}
        data-question=${q.id}
        dir="auto"
        rows="3"
        .value=${live(typeof answer === 'string' ? answer : '')}
        aria-required=${q.required ? 'true' : 'false'}
        aria-invalid=${error ? 'true' : 'false'}
        aria-describedby=${describedBy || nothing}
        @input=${(e: InputEvent) => onAnswer((e.target as HTMLTextAreaElement).value)}
      ></textarea>
      ${
        typeof answer === 'string' && answer.length > max * 0.8
          ? html`<p class="count ${answer.length > max ? 'over' : ''}">
              ${
                answer.length > max
                  ? localize.t('charactersOver', { count: answer.length - max })
                  : localize.t('charactersLeft', { count: max - answer.length })
              }
            </p>`
          : nothing
      }
      ${errorLine}
    </div>`;
  }

  const choices: { value: string | boolean; label: string }[] =
    q.kind === 'yes-no'
      ? [
          { value: true, label: localize.t('yes') },
          { value: false, label: localize.t('no') },
        ]
      : (q.options ?? []).map((o) => ({ value: o.value, label: textIn(o.label, language) }));
  const multiple = q.kind === 'multiple';
  const picked = (value: string | boolean) =>
    multiple ? Array.isArray(answer) && answer.includes(value as string) : answer === value;
  const pick = (value: string | boolean, checked: boolean) => {
    if (!multiple) return onAnswer(value);
    // Read at the click, not at the render: two quick ticks must both count.
    const now = current();
    const ticked = Array.isArray(now) ? now : [];
    const next = checked ? [...ticked, value as string] : ticked.filter((v) => v !== value);
    // Kept in the survey's order, whatever order they were ticked in.
    const order = (q.options ?? []).map((o) => o.value);
    onAnswer(next.length ? order.filter((v) => next.includes(v)) : undefined);
  };
  // One answer of several is a radio group, which can say it is required; ticks are a plain group.
  return html`<fieldset
    part="question"
    class="question choices"
    role=${multiple ? nothing : 'radiogroup'}
    aria-labelledby=${multiple ? nothing : `${id}-legend`}
    aria-required=${q.required && !multiple ? 'true' : nothing}
    aria-invalid=${error ? 'true' : 'false'}
    aria-describedby=${describedBy || nothing}
  >
    <legend id="${id}-legend">${label}</legend>
    ${hintLine}
    ${choices.map(
      (choice, index) =>
        html`<label class="choice">
          <input
            type=${multiple ? 'checkbox' : 'radio'}
            name=${id}
            data-question=${index === 0 ? q.id : nothing}
            .checked=${live(picked(choice.value))}
            @change=${(e: Event) => pick(choice.value, (e.target as HTMLInputElement).checked)}
          />
          <span dir="auto">${choice.label}</span>
        </label>`,
    )}
    ${errorLine}
  </fieldset>`;
}
