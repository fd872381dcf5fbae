/**
 * Which consultation `<consult-thread>` shows when the page hands one over (`consultation`) as well
 * as, or instead of, an id: a record set on its own brings its id; set together with another id,
 * the id wins; and a page that renders again with the record it first gave keeps the newer one.
 */
import type { ConsultationView } from '../../client/browser-types.js';
import { isOlder } from '../../session/consultations.js';

export interface Handover {
  consultation: ConsultationView | undefined;
  consultationId: string | undefined;
  /** The record before this update, when it changed. */
  before: ConsultationView | undefined;
  consultationSet: boolean;
  idSet: boolean;
}

export function handedOver({ consultation, consultationId, before, consultationSet, idSet }: Handover): {
  consultation: ConsultationView | undefined;
  consultationId: string | undefined;
  idChanged: boolean;
} {
  if (before && consultation?.consultationId === before.consultationId && isOlder(consultation, before))
    consultation = before;
  let idChanged = idSet;
  if (consultationSet && consultation && !idSet && consultation.consultationId !== consultationId) {
    consultationId = consultation.consultationId;
    idChanged = true;
  }
  if (consultation && consultation.consultationId !== consultationId) consultation = undefined;
  return { consultation, consultationId, idChanged };
}
