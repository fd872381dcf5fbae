/**
 * The member's prescription requests: those the proxy kept for them (`GET {base}/prescriptions`:
 * id and times, from any visit or device), and those sent on this page, which alone carry what the
 * member asked for (`asked`, in their words). That text is health text: it stays in this page's
 * memory and goes with the member's scope, never in storage or the proxy (docs/security.md S27).
 */
import type { KeptPrescription, PrescriptionView } from '../client/browser-types.js';
import type { LoadStatus, ScopedCall } from './state-basics.js';

/** A prescription request as the page shows it: what the service let us know, and what was asked if sent here. */
export interface SentPrescription {
  prescriptionId: string;
  /** When the service took it. */
  createdAt: string;
  /** What the member asked for: only on the page that sent it. */
  asked?: string;
}

export class SentPrescriptions {
  /** Kept by the proxy, oldest first. */
  #kept: SentPrescription[] = [];
  /** Sent on this page, oldest first. */
  #sentHere: SentPrescription[] = [];
  #status: LoadStatus = 'idle';
  #read?: Promise<void>;

  /** Oldest first: the kept ones, with what was asked where this page sent them, then the others sent here. */
  get list(): readonly SentPrescription[] {
    const here = new Map(this.#sentHere.map((sent) => [sent.prescriptionId, sent]));
    const kept = this.#kept.map((kept) => here.get(kept.prescriptionId) ?? kept);
    const keptIds = new Set(this.#kept.map((kept) => kept.prescriptionId));
    return [...kept, ...this.#sentHere.filter((sent) => !keptIds.has(sent.prescriptionId))];
  }

  /** Where the read of the kept requests is. */
  get status(): LoadStatus {
    return this.#status;
  }

  /** Reads the requests the proxy kept, once (a client without the route keeps this page's only). */
  load(call: ScopedCall, changed: () => void): Promise<void> {
    if (this.#read) return this.#read;
    this.#status = 'loading';
    this.#read = call(async (client, signal) => {
      const kept: KeptPrescription[] = client.getPrescriptions
        ? await client.getPrescriptions({ signal })
        : [];
      this.#kept = kept.map(({ prescriptionId, createdAt }) => ({ prescriptionId, createdAt }));
      this.#status = 'ready';
      changed();
    }).catch((error: unknown) => {
      // Nothing kept is shown; a later visit reads it again.
      this.#status = 'error';
      this.#read = undefined;
      changed();
      throw error;
    });
    return this.#read;
  }

  /** Keeps a request the service took; answers it as the page shows it. */
  add(record: PrescriptionView, asked?: string): SentPrescription {
    const sent: SentPrescription = {
      prescriptionId: record.prescriptionId,
      createdAt: record.createdAt,
      ...(asked ? { asked } : {}),
    };
    this.#sentHere = [...this.#sentHere, sent];
    return sent;
  }
}
