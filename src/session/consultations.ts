import { FINAL_CONSULTATION_STATUSES } from '../client/types.js';
import type { ConsultationView } from '../client/browser-types.js';

/** How many of a consultation's questions have their answer. */
export const answeredCount = (c: ConsultationView): number =>
  c.questions.filter((q) => q.answer !== undefined).length;

/** Canceled and closed consultations take no more questions. */
export const isFinal = (c: ConsultationView): boolean => FINAL_CONSULTATION_STATUSES.includes(c.status);

/**
 * A record behind the one shown. Consultations only move forward (more questions, answers, an
 * end), so a late reply to an earlier read must not replace a newer record.
 */
export const isOlder = (next: ConsultationView, current: ConsultationView): boolean =>
  next.questions.length < current.questions.length ||
  answeredCount(next) < answeredCount(current) ||
  (isFinal(current) && !isFinal(next));

/** A consultation a professional may still answer. */
export const isWaiting = (c: ConsultationView): boolean =>
  (c.status === 'open' || c.status === 'claimed') && c.questions.some((q) => q.answer === undefined);
