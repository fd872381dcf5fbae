/**
 * The prescription requests the member sent on this page, with what they asked for (`asked`, in
 * their words): in memory only, since it is health text, and gone with the member's scope.
 */
import type { PrescriptionView } from '../client/browser-types.js';

/** A prescription request sent on this page, with what the member asked for. */
export type SentPrescription = PrescriptionView & { asked?: string };

export class SentPrescriptions {
  #list: SentPrescription[] = [];

  /** Oldest first. */
  get list(): readonly SentPrescription[] {
    return this.#list;
  }

  /** Keeps a request the service took; answers it as the page shows it. */
  add(record: PrescriptionView, asked?: string): SentPrescription {
    const sent: SentPrescription = asked ? { ...record, asked } : record;
    this.#list = [...this.#list, sent];
    return sent;
  }
}
