/**
 * The member's consultations, kept once by id: read once per change however many elements show
 * one (a read in flight is shared, and a hint that arrives during a read asks for one more), and
 * never taken back by an older record. One store per member: a new member gets a new store.
 */
import type { ConsultationView } from '../client/browser-types.js';
import { unreachable } from './connection.js';
import { isOlder, isWaiting } from './consultations.js';
import { newestFirst, sortTime, type LoadStatus, type ScopedCall } from './state-basics.js';

interface Entry {
  record?: ConsultationView;
  status: LoadStatus;
  error?: unknown;
  /** The read in flight, shared by everyone who asks meanwhile. */
  read?: Promise<ConsultationView>;
  /** A change was hinted while a read was in flight: read once more after it. */
  again?: boolean;
}

export interface ConsultationStoreOptions {
  /** The member whose records the store takes; without one it takes none. */
  memberId?: string;
  /** The member's scope: nothing settling after it aborted touches the store. */
  signal: AbortSignal;
  call: ScopedCall;
  changed(): void;
  /** A record that differs from the one held (or the first) was taken. */
  recorded(previous: ConsultationView | undefined, record: ConsultationView): void;
}

export class ConsultationStore {
  readonly #options: ConsultationStoreOptions;
  readonly #entries = new Map<string, Entry>();
  /**
   * The records newest first, kept until one changes, and the ids of those waiting for an answer:
   * a list of 1,000 is sorted once per change, not once per look, and whether to poll is not a
   * walk through every record each time one arrives.
   */
  #sorted?: ConsultationView[];
  readonly #waiting = new Set<string>();

  constructor(options: ConsultationStoreOptions) {
    this.#options = options;
  }

  /** The consultation as last read, if it is loaded. */
  get(id: string): ConsultationView | undefined {
    return this.#entries.get(id)?.record;
  }

  /** Where the consultation's first read is, and its error if it failed. */
  status(id: string): { status: LoadStatus; error?: unknown } {
    const entry = this.#entries.get(id);
    if (!entry) return { status: 'idle' };
    return entry.record ? { status: 'ready' } : { status: entry.status, error: entry.error };
  }

  /** Every record held, newest first. */
  get all(): ConsultationView[] {
    return [...this.sorted];
  }

  /** The same, as one array kept until a record changes: a new array means a change. */
  get sorted(): readonly ConsultationView[] {
    if (!this.#sorted) {
      const known: ConsultationView[] = [];
      for (const entry of this.#entries.values()) if (entry.record) known.push(entry.record);
      // Each time parsed once, not once per comparison, in the order `newestFirst` gives.
      const times = new Map(known.map((record) => [record, sortTime(record)]));
      this.#sorted = known.sort((a, b) => (times.get(b) ?? 0) - (times.get(a) ?? 0));
    }
    return this.#sorted;
  }

  /** The records a professional may still answer, newest first. */
  waiting(): ConsultationView[] {
    const waiting: ConsultationView[] = [];
    for (const id of this.#waiting) {
      const record = this.#entries.get(id)?.record;
      if (record) waiting.push(record);
    }
    return waiting.sort(newestFirst);
  }

  /** Whether any record waits for an answer (cheaper than `waiting()` when asked per record). */
  hasWaiting(): boolean {
    return this.#waiting.size > 0;
  }

  /** The ids of every record held. */
  heldIds(): string[] {
    return [...this.#entries].filter(([, entry]) => entry.record).map(([id]) => id);
  }

  /** The connection is back: the ids still to read (a read that could not go out) or waiting for an answer. */
  idsToReadAgain(): string[] {
    const ids: string[] = [];
    for (const [id, entry] of this.#entries)
      if ((entry.status === 'loading' && !entry.read) || (entry.record && isWaiting(entry.record)))
        ids.push(id);
    return ids;
  }

  /**
   * Reads the consultation, once however many ask: a read in flight is shared. `fresh` reads it
   * even when it is loaded (a hint that it changed). Rejects on failure, or with an AbortError
   * when the member changed meanwhile.
   */
  load(id: string, { fresh = false }: { fresh?: boolean } = {}): Promise<ConsultationView> {
    const entry = this.#entry(id);
    if (entry.read) {
      if (fresh) entry.again = true;
      return entry.read;
    }
    if (entry.record && !fresh) return Promise.resolve(entry.record);
    const scope = this.#options.signal;
    // A record on screen stays as it is while it is read again: nobody is told of a change that shows nothing.
    const shown = entry.record !== undefined;
    if (!shown) entry.status = 'loading';
    entry.error = undefined;
    const read = (async () => {
      try {
        const record = await this.#options.call((client, signal) => client.getConsultation(id, { signal }));
        entry.read = undefined;
        this.apply(record);
        return this.#entries.get(id)?.record ?? record;
      } catch (error) {
        if (scope.aborted) throw error;
        entry.read = undefined;
        // Unreachable: it stays loading, and is read again when the connection is back.
        if (!entry.record && !unreachable(error)) {
          entry.status = 'error';
          entry.error = error;
        }
        this.#options.changed();
        throw error;
      } finally {
        if (!scope.aborted && entry.again) {
          entry.again = false;
          void this.load(id, { fresh: true }).catch(() => undefined);
        }
      }
    })();
    entry.read = read;
    // Nobody may be waiting for a background read: its failure is in the state, not unhandled.
    read.catch(() => undefined);
    if (!shown) this.#options.changed();
    return read;
  }

  /** Whether the consultation is being read now. */
  reading(id: string): boolean {
    return this.#entries.get(id)?.read !== undefined;
  }

  /** A hint that the consultation changed: it is read again. */
  hint(id: string): void {
    if (!this.#options.memberId) return;
    void this.load(id, { fresh: true }).catch(() => undefined);
  }

  /**
   * Takes a newer record of a consultation (a write's answer, a read, or one the page handed
   * over). An older record than the one held is ignored: a slow read must not take back a
   * question just asked. Another member's record is never taken.
   */
  apply(record: ConsultationView): void {
    const { memberId } = this.#options;
    if (!memberId || record.userId !== memberId) return;
    const entry = this.#entry(record.consultationId);
    const previous = entry.record;
    if (previous && isOlder(record, previous)) return;
    entry.record = record;
    this.#sorted = undefined;
    if (isWaiting(record)) this.#waiting.add(record.consultationId);
    else this.#waiting.delete(record.consultationId);
    entry.status = 'ready';
    entry.error = undefined;
    if (previous && JSON.stringify(previous) === JSON.stringify(record)) return;
    this.#options.recorded(previous, record);
  }

  #entry(id: string): Entry {
    let entry = this.#entries.get(id);
    if (!entry) this.#entries.set(id, (entry = { status: 'idle' }));
    return entry;
  }
}
