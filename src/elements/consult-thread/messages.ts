/**
 * The questions and answers of `<consult-thread>` as a conversation: the member's messages on the
 * inline-end side, each answer on the inline-start side with the professional's initials, name,
 * role and time; a heading per question, day separators, and, while a question waits, the step
 * it has reached and how long answers usually take.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { ConsultationView } from '../../client/browser-types.js';
import type { Professional, QuestionItem } from '../../client/types.js';
import type { MessageTimes } from '../../session/seen-marks.js';
import type { LocalizeController } from '../shared/localize.js';
import { markdown } from '../shared/markdown.js';
import { professionWords } from '../shared/profession.js';
import { dayLabel, dayOf, messageTime } from '../shared/message-time.js';
import { attachmentList, credentials, initials } from './professional.js';

export interface ConversationOptions {
  localize: LocalizeController<'thread'>;
  /** The language answers are rendered in. */
  language: string;
  /** The clock relative times are told against. */
  now: number;
  times: MessageTimes | undefined;
  /** How long answers usually take, in hours. */
  replyHours: number;
  /** Under the waiting note: the offer to be told on this device when it is answered. */
  pushOffer?: TemplateResult | typeof nothing;
}

/** "Priya Nair, Clinical Pharmacist, answered": the professional named with their role when known. */
function who(
  p: Professional,
  key: 'answeredBy' | 'reviewingBy',
  localize: LocalizeController<'thread'>,
): string {
  return p.title
    ? localize.t(key, { name: p.name, title: professionWords(localize.language, p.title) })
    : localize.t(`${key}Name`, { name: p.name });
}

/**
 * Where the consultation stands, in words from the data: who answered, who is reviewing it, or
 * that it waits for a professional to take it.
 */
export function statusLine(c: ConsultationView, localize: LocalizeController<'thread'>): string {
  const last = c.questions.at(-1);
  const waiting = last !== undefined && last.answer === undefined;
  const answeredBy = c.questions.findLast((q) => q.answer !== undefined)?.professional;
  if (c.status === 'canceled') return localize.t('canceledReason');
  if (c.status === 'closed' && waiting) return localize.t('closedReason');
  if (!waiting) return answeredBy ? who(answeredBy, 'answeredBy', localize) : localize.t('answered');
  const reviewer = last.professional;
  if (c.status === 'claimed')
    return reviewer ? who(reviewer, 'reviewingBy', localize) : localize.t('reviewing');
  return localize.t('waiting');
}

export function conversation(c: ConsultationView, options: ConversationOptions): TemplateResult {
  const { localize, now } = options;
  let lastDay: string | undefined;
  // A separator wherever the day changes between two messages with known times.
  const dayBreak = (iso: string | undefined) => {
    if (!iso || Number.isNaN(Date.parse(iso))) return nothing;
    const day = dayOf(iso);
    if (day === lastDay) return nothing;
    lastDay = day;
    return html`<p class="day"><span>${dayLabel(iso, now, localize.format)}</span></p>`;
  };
  // Credentials are offered once per professional, on their first answer.
  const introduced = new Set<string>();
  return html`<ol class="thread" aria-label=${localize.t('thread')}>
    ${c.questions.map((item, index) => {
      const asked = options.times?.questions[index] ?? (index === 0 ? c.createdAt : undefined);
      const answered = options.times?.answers[index];
      return html`<li class="item">
        ${dayBreak(asked)}
        <div part="question" class="message mine" id="question-${index}" tabindex="-1">
          <div class="meta">
            <h4 class="heading">
              ${index === 0 ? localize.t('yourQuestion') : localize.t('followupQuestion')}
            </h4>
            ${asked ? messageTime(asked, now, localize.format) : nothing}
          </div>
          <p class="text" dir="auto">${item.question}</p>
        </div>
        ${
          item.answer === undefined
            ? waitingFor(c, index, options)
            : html`${dayBreak(answered)}${answer(item, index, answered, introduced, options)}`
        }
      </li>`;
    })}
  </ol>`;
}

function answer(
  item: QuestionItem,
  index: number,
  at: string | undefined,
  introduced: Set<string>,
  { localize, language, now }: ConversationOptions,
): TemplateResult {
  const p = item.professional;
  const first = p !== undefined && !introduced.has(p.name);
  if (p) introduced.add(p.name);
  return html`<div class="message theirs">
    <span class="avatar" aria-hidden="true">${p ? initials(p.name) : nothing}</span>
    <div class="bubble">
      <div part="professional" class="who" id="answer-${index}">
        <div class="meta">
          <p class="sender">
            ${
              p
                ? html`<span class="name" dir="auto">${p.name}</span>${
                      p.title
                        ? html`<span class="visually-hidden">, </span
                            ><span class="role" dir="auto"
                              >${professionWords(localize.language, p.title)}</span
                            >`
                        : nothing
                    }`
                : localize.t('answer')
            }
          </p>
          ${at ? messageTime(at, now, localize.format) : nothing}
        </div>
        ${p && first ? credentials(p, localize) : nothing}
      </div>
      <div part="answer" class="markdown" dir="auto">${markdown(item.answer ?? '', language)}</div>
      ${attachmentList(item.attachments ?? [], localize)}
    </div>
  </div>`;
}

/** The step the latest question has reached, and how long answers usually take; or that it was not answered. */
function waitingFor(
  c: ConsultationView,
  index: number,
  { localize, replyHours, pushOffer }: ConversationOptions,
): TemplateResult {
  if (c.status === 'canceled' || c.status === 'closed')
    return html`<p class="not-answered">${localize.t('notAnswered')}</p>`;
  // Only the latest question says where it stands; one before it waits with it.
  if (index !== c.questions.length - 1) return html`${nothing}`;
  const reviewing = c.status === 'claimed';
  const steps = [localize.t('stepSent'), localize.t('stepReviewing'), localize.t('stepAnswered')];
  const reached = reviewing ? 1 : 0;
  return html`<div part="waiting" class="waiting">
    <ol class="steps" aria-label=${localize.t('progress')}>
      ${steps.map(
        (step, i) =>
          html`<li
            class=${i < reached ? 'done' : i === reached ? 'current' : 'todo'}
            aria-current=${i === reached ? 'step' : 'false'}
          >
            <span class="dot" aria-hidden="true"></span>${step}
          </li>`,
      )}
    </ol>
    <p class="expect">${localize.t('replyTime', { count: replyHours })}</p>
    ${pushOffer ?? nothing}
  </div>`;
}

/** What is news between two records of a consultation: an answer, or a change of status. */
export function newsOf(
  previous: ConsultationView,
  next: ConsultationView,
): 'answered' | 'reviewing' | 'closedReason' | 'canceledReason' | undefined {
  const answered = next.questions.some(
    (item, i) =>
      item.answer !== undefined &&
      previous.questions[i] !== undefined &&
      previous.questions[i].answer === undefined,
  );
  if (answered) return 'answered';
  if (next.status === previous.status) return undefined;
  if (next.status === 'claimed') return 'reviewing';
  if (next.status === 'closed') return 'closedReason';
  if (next.status === 'canceled') return 'canceledReason';
  return undefined;
}
