/**
 * A consultation's status badge, shared by the elements that show consultations: its words (the
 * `status` strings of the translations), its colors, and its markup.
 */
import { css, html, nothing, type TemplateResult } from 'lit';
import type { ConsultationView } from '../../client/browser-types.js';
import type { ConsultationStatus } from '../../client/types.js';
import { translate } from './localize.js';
import { professionWords } from './profession.js';

/** The badge's colors; an element adds them to its `static styles`. */
export const statusStyles = css`
  /* A chip: the same shape wherever a status shows, its color from the status. */
  .badge {
    display: inline-block;
    padding: 0.0625rem 0.5rem;
    border-radius: 999px;
    font-size: 0.8125rem;
    font-weight: 600;
    color: var(--_text);
    background: color-mix(in srgb, currentColor 12%, transparent);
  }
  .status-open,
  .status-claimed {
    color: var(--_warning);
  }
  .status-resolved {
    color: var(--_success);
  }
  .status-canceled,
  .status-closed {
    color: var(--_muted);
  }
`;

/**
 * The `status` part: the status in words, after a label only screen readers hear. `language` is
 * the element's own (`localize.language`), so the badge follows the element's language. Inside a
 * control that names itself (`labelled: false`), the badge shows its words only.
 */
export function statusBadge(
  status: ConsultationStatus,
  language: string,
  { labelled = true }: { labelled?: boolean } = {},
): TemplateResult {
  return html`<span part="status" class="badge status-${status}"
    >${
      labelled
        ? html`<span class="visually-hidden">${translate(language, 'status', 'statusLabel')} </span>`
        : nothing
    }${translate(language, 'status', status)}</span
  >`;
}

/**
 * Who answered, in words: "Dr. Amara Okafor, General Practitioner, answered your question", from
 * the professional on the latest answer.
 */
export function answeredWords(record: ConsultationView, language: string): string {
  const professional = record.questions.findLast((q) => q.answer !== undefined)?.professional;
  if (!professional?.name) return translate(language, 'session', 'answered');
  const { name, title } = professional;
  return title
    ? translate(language, 'session', 'answeredBy', { name, title: professionWords(language, title) })
    : translate(language, 'session', 'answeredByName', { name });
}
