/**
 * A consultation's status badge, shared by the elements that show consultations: its words in
 * every language, its colors, and its markup.
 */
import { css, html, type TemplateResult } from 'lit';
import type { ConsultationStatus } from '../../client/types.js';
import { defineStrings, type Language } from './localize.js';

export const statusStrings = defineStrings({
  en: {
    statusLabel: 'Status:',
    open: 'Open',
    claimed: 'In progress',
    resolved: 'Answered',
    canceled: 'Canceled',
    closed: 'Closed',
  },
  de: {
    statusLabel: 'Status:',
    open: 'Offen',
    claimed: 'In Bearbeitung',
    resolved: 'Beantwortet',
    canceled: 'Abgebrochen',
    closed: 'Abgeschlossen',
  },
  fr: {
    statusLabel: 'Statut :',
    open: 'Ouverte',
    claimed: 'En cours',
    resolved: 'Répondue',
    canceled: 'Annulée',
    closed: 'Clôturée',
  },
  es: {
    statusLabel: 'Estado:',
    open: 'Abierta',
    claimed: 'En curso',
    resolved: 'Respondida',
    canceled: 'Cancelada',
    closed: 'Cerrada',
  },
  nl: {
    statusLabel: 'Status:',
    open: 'Open',
    claimed: 'In behandeling',
    resolved: 'Beantwoord',
    canceled: 'Geannuleerd',
    closed: 'Afgesloten',
  },
  ar: {
    statusLabel: 'الحالة:',
    open: 'مفتوحة',
    claimed: 'قيد المعالجة',
    resolved: 'تمت الإجابة',
    canceled: 'ملغاة',
    closed: 'مغلقة',
  },
});

/** The badge's colors; an element adds them to its `static styles`. */
export const statusStyles = css`
  .badge {
    color: var(--_text);
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
 * the element's own (`localize.language`), so the badge follows the element's language.
 */
export function statusBadge(status: ConsultationStatus, language: Language): TemplateResult {
  const strings = statusStrings[language];
  return html`<span part="status" class="badge status-${status}"
    ><span class="visually-hidden">${strings.statusLabel} </span>${strings[status]}</span
  >`;
}
