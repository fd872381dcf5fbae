/**
 * The member's list of consultations (their case history): read once however many elements ask,
 * each record taken into the consultation store. The first list read in a tab counts as seen.
 */
import { unreachable } from './connection.js';
import type { ConsultationStore } from './consultation-store.js';
import type { SeenMarks } from './seen-marks.js';
import { noMember, type LoadStatus, type ScopedCall } from './state-basics.js';

export interface CaseListOptions {
  /** The member whose list it is; without one it cannot be read. */
  memberId?: string;
  /** The member's scope. */
  signal: AbortSignal;
  call: ScopedCall;
  store: ConsultationStore;
  seen: SeenMarks;
  changed(): void;
  /** A read settled: polling may start or stop. */
  settled(): void;
}

export class CaseList {
  readonly #options: CaseListOptions;
  #status: LoadStatus = 'idle';
  #error?: unknown;
  #read?: Promise<void>;

  constructor(options: CaseListOptions) {
    this.#options = options;
  }

  /** Where the list is. */
  get status(): { status: LoadStatus; error?: unknown } {
    return { status: this.#status, error: this.#error };
  }

  /** A read could not go out (the connection was lost): it is due when the connection is back. */
  get stalled(): boolean {
    return this.#status === 'loading' && !this.#read;
  }

  /** Reads the member's list, once however many ask. */
  load({ fresh = false }: { fresh?: boolean } = {}): Promise<void> {
    const { memberId, store } = this.#options;
    if (!memberId) return Promise.reject(noMember());
    // A fresh read asked for during one in flight (which may predate a change) follows it.
    if (this.#read)
      return fresh ? this.#read.catch(() => undefined).then(() => this.load({ fresh: true })) : this.#read;
    if (this.#status === 'ready' && !fresh) return Promise.resolve();
    const scope = this.#options.signal;
    if (this.#status !== 'ready') this.#status = 'loading';
    this.#error = undefined;
    const read = (async () => {
      try {
        const list = await this.#options.call((client, signal) =>
          client.getCaseHistory(memberId, { signal }),
        );
        for (const record of list) store.apply(record);
        this.#status = 'ready';
        this.#options.seen.baseline(store.all);
      } catch (error) {
        if (scope.aborted) throw error;
        // Unreachable: it stays loading, and is read again when the connection is back.
        if (this.#status !== 'ready' && !unreachable(error)) {
          this.#status = 'error';
          this.#error = error;
        }
        throw error;
      } finally {
        if (!scope.aborted) {
          this.#read = undefined;
          this.#options.changed();
          this.#options.settled();
        }
      }
    })();
    this.#read = read;
    read.catch(() => undefined);
    this.#options.changed();
    return read;
  }
}
