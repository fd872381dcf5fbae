/**
 * One row of `<case-history>`, as an inbox shows it: "New answer from …" with a dot while the
 * member has not seen it, the first question as its title, a one-line preview of the latest
 * message with who sent it and when, and the status chip with the questions used.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { ConsultationView } from '../../client/browser-types.js';
import { MAX_QUESTIONS_PER_CONSULTATION } from '../../client/types.js';
import type { MessageTimes } from '../../session/seen-marks.js';
import type { LocalizeController } from '../shared/localize.js';
import { shortTime } from '../shared/message-time.js';
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

/** The latest message: who sent it (a professional's name, or the member), its words, and when. */
export function latestMessage(
  c: ConsultationView,
  times: MessageTimes | undefined,
): { from?: string; text: string; at?: string } | undefined {
  for (let i = c.questions.length - 1; i >= 0; i--) {
    const item = c.questions[i];
    if (!item) continue;
    if (item.answer !== undefined)
      return { from: item.professional?.name, text: plainLine(item.answer), at: times?.answers[i] };
    if (i === c.questions.length - 1) return { text: item.question, at: times?.questions[i] };
  }
  return undefined;
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
  const answeredBy = c.questions.findLast((q) => q.answer !== undefined)?.professional?.name;
  const when = latest?.at ?? c.createdAt;
  const ended = c.status === 'closed' || c.status === 'canceled';
  return html`<li class="row">
    <button
      part="item"
      class="item ${unread ? 'unread' : ''}"
      type="button"
      tabindex=${active ? 0 : -1}
      @click=${onOpen}
    >
      ${
        unread
          ? html`<span part="unread" class="new"
              ><span class="dot" aria-hidden="true"></span>${
                answeredBy ? localize.t('newAnswerFrom', { name: answeredBy }) : localize.t('newAnswer')
              }</span
            >`
          : nothing
      }
      <span class="title" dir="auto">${c.questions[0]?.question ?? localize.t('untitled')}</span>
      ${
        latest && c.questions.length > 0
          ? html`<span part="preview" class="preview"
              ><span class="from">${latest.from ?? localize.t('you')}:</span>
              <span class="text" dir="auto">${latest.text}</span></span
            >`
          : nothing
      }
      <span class="meta">
        ${statusBadge(c.status, localize.language)}
        ${
          Number.isNaN(Date.parse(when))
            ? nothing
            : html`<time datetime=${when} title=${format.dateTime(when)}
                >${shortTime(when, now, format)}</time
              >`
        }
        ${
          ended
            ? nothing
            : html`<span class="count"
                >${localize.t('questions', { used: c.questions.length, max: MAX_QUESTIONS_PER_CONSULTATION })}</span
              >`
        }
      </span>
    </button>
  </li>`;
}

/**
 * Rows shaped like the list to come: a row's parts with stand-in words drawn as bars, so each takes
 * the room of a real row (a title over two lines, the latest message, status and time, the count).
 * The words are for assistive technology.
 */
export function loadingRows(localize: LocalizeController<'history'>): TemplateResult {
  const title = 'xxxxxx xxxx xxxxxxxx xxx xxxxx xxxxxxxx xxxxx xxxx xxxxxxx xxxxx';
  return html`<div class="loading">
    <p class="visually-hidden">${localize.t('loading')}</p>
    <ul class="list" aria-hidden="true">
      ${[0, 1, 2].map(
        () =>
          html`<li class="row">
            <span class="item placeholder">
              <span class="title"><span class="skeleton-text" data-words=${title}></span></span>
              <span class="preview"
                ><span class="skeleton-text" data-words="${localize.t('you')}: xxxxxx xxxx"></span
              ></span>
              <span class="meta"
                ><span class="badge skeleton-text" data-words="xxxxxxxx"></span
                ><span class="skeleton-text" data-words="xx:xx"></span
                ><span class="skeleton-text"
                  >${localize.t('questions', { used: 1, max: MAX_QUESTIONS_PER_CONSULTATION })}</span
                ></span
              >
            </span>
          </li>`,
      )}
    </ul>
  </div>`;
}
