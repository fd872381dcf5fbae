/**
 * One row of `<case-history>`, as an inbox shows it: "New answer from …" with a dot while the
 * member has not seen it, the first question as its title, a preview (two lines at most) of the latest
 * message with who sent it and when, and the status chip with the questions used.
 *
 * Screen readers hear a short name, as messengers give their rows: unread, who, status, when
 * ("New answer, Dr. Amara Okafor, Answered, 2 hours ago"); the subject and the questions used
 * follow as the row's description, never the whole answer.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { ConsultationView } from '../../client/browser-types.js';
import { MAX_QUESTIONS_PER_CONSULTATION } from '../../client/types.js';
import type { MessageTimes } from '../../session/seen-marks.js';
import type { LocalizeController } from '../shared/localize.js';
import { shortTime } from '../shared/message-time.js';
import { shorten } from '../shared/shorten.js';
import { statusBadge } from '../shared/status.js';

/** Markdown as one line of plain text: the marks and link targets go, the words stay. */
export function plainLine(markdown: string): string {
  return markdown
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(?:#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/[*_`~]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The latest message: whether it is an answer, who sent it (the professional's name, when the
 * service gives it), its words, and when.
 */
export function latestMessage(
  c: ConsultationView,
  times: MessageTimes | undefined,
): { answer?: true; from?: string; text: string; at?: string } | undefined {
  for (let i = c.questions.length - 1; i >= 0; i--) {
    const item = c.questions[i];
    if (!item) continue;
    if (item.answer !== undefined)
      return {
        answer: true,
        from: item.professional?.name,
        text: plainLine(item.answer),
        at: times?.answers[i],
      };
    if (i === c.questions.length - 1) return { text: item.question, at: times?.questions[i] };
  }
  return undefined;
}

/** How long a row's subject may be in its description. */
const SUBJECT_CHARACTERS = 100;

/**
 * Whether the consultation waits for a doctor to take it, else who has it: the professional
 * reviewing its latest question, or the one who gave the latest answer.
 */
function standing(c: ConsultationView): { waiting: boolean; who?: string } {
  const last = c.questions.at(-1);
  const unanswered = last !== undefined && last.answer === undefined;
  if (unanswered && c.status === 'open') return { waiting: true };
  const who = unanswered
    ? last.professional?.name
    : c.questions.findLast((q) => q.answer !== undefined)?.professional?.name;
  return { waiting: false, who };
}

export interface RowOptions {
  localize: LocalizeController<'history'>;
  unread: boolean;
  /** The row the arrow keys are on: the one in the tab order. */
  active: boolean;
  times: MessageTimes | undefined;
  now: number;
  onOpen(): void;
}

export function consultationRow(
  c: ConsultationView,
  { localize, unread, active, times, now, onOpen }: RowOptions,
): TemplateResult {
  const format = localize.format;
  const latest = latestMessage(c, times);
  const { waiting, who } = standing(c);
  const when = latest?.at ?? c.createdAt;
  const ended = c.status === 'closed' || c.status === 'canceled';
  const shownWhen = Number.isNaN(Date.parse(when)) ? '' : shortTime(when, now, format);
  const subject = c.questions[0]?.question ?? localize.t('untitled');
  const count = localize.t('questions', { used: c.questions.length, max: MAX_QUESTIONS_PER_CONSULTATION });
  const describedBy = `row-details-${c.consultationId}`;
  // The button holds what its name says, in the same order (a voice user says what they see);
  // the subject, the preview and the count are its description, beside it in the row, which the
  // button covers so the whole row opens it.
  // Its name, read from what it shows, one part after another with a comma only screen readers hear.
  const parts: TemplateResult[] = [];
  if (unread)
    parts.push(
      html`<span part="unread" class="new"
        ><span class="dot" aria-hidden="true"></span>${localize.t('newAnswer')}</span
      >`,
    );
  if (waiting) parts.push(html`<span class="who">${localize.t('waitingForProfessional')}</span>`);
  else {
    if (who) parts.push(html`<span class="who" dir="auto">${who}</span>`);
    parts.push(statusBadge(c.status, localize.language, { labelled: false }));
  }
  if (shownWhen)
    parts.push(
      html`<time datetime=${when} title=${format.dateTime(when)}
        >${waiting ? localize.t('askedAt', { time: shownWhen }) : shownWhen}</time
      >`,
    );
  return html`<li class="row ${unread ? 'unread' : ''}">
    <button
      part="item"
      class="item"
      type="button"
      tabindex=${active ? 0 : -1}
      aria-describedby=${describedBy}
      @click=${onOpen}
    >
      ${parts.map((part, i) => (i === 0 ? part : html`<span class="visually-hidden">, </span>${part}`))}
    </button>
    <span class="title" dir="auto">${subject}</span>
    ${
      latest && c.questions.length > 0
        ? html`<span part="preview" class="preview"
            ><span class="from"
              ><bdi>${latest.from ?? localize.t(latest.answer ? 'answer' : 'you')}</bdi>:</span
            >
            <span class="text" dir="auto">${latest.text}</span></span
          >`
        : nothing
    }
    ${ended ? nothing : html`<span class="count">${count}</span>`}
    <span id=${describedBy} class="visually-hidden"
      >${shorten(subject, SUBJECT_CHARACTERS)}${ended ? '' : `. ${count}`}</span
    >
  </li>`;
}

/**
 * Rows shaped like the list to come: a row's parts with stand-in words drawn as bars, so each takes
 * the room of a real row (who, status and time, a title over two lines, the latest message, the count).
 * The words are for assistive technology.
 */
export function loadingRows(localize: LocalizeController<'history'>): TemplateResult {
  const title = 'xxxxxx xxxx xxxxxxxx xxx xxxxx xxxxxxxx xxxxx xxxx xxxxxxx xxxxx';
  return html`<div class="loading">
    <p class="visually-hidden">${localize.t('loading')}</p>
    <ul class="list" aria-hidden="true">
      ${[0, 1, 2].map(
        () =>
          html`<li class="row placeholder">
            <span class="item"
              ><span class="who skeleton-text" data-words="xxx xxxxx xxxxxx"></span
              ><span class="badge skeleton-text" data-words="xxxxxxxx"></span
              ><span class="skeleton-text" data-words="xx:xx"></span
            ></span>
            <span class="title"><span class="skeleton-text" data-words=${title}></span></span>
            <span class="preview"
              ><span class="skeleton-text" data-words="${localize.t('you')}: xxxxxx xxxx"></span
            ></span>
            <span
              class="count skeleton-text"
              data-words=${localize.t('questions', { used: 1, max: MAX_QUESTIONS_PER_CONSULTATION })}
            ></span>
          </li>`,
      )}
    </ul>
  </div>`;
}
