/**
 * Which answers the member has had on screen, per consultation: the number of answers seen and
 * when; and when each question and answer arrived, as far as this tab saw it (the service gives
 * only the consultation's creation time). Ids, counts and times only, never health text. Kept in
 * sessionStorage per member so a reload keeps them; wiped on sign-out and when another member
 * signs in.
 *
 * The first time a member's list is read in a tab, what it holds counts as seen: "New answer"
 * marks what arrives after that, not last month's answers.
 *
 * Changes are written once per turn, not once per consultation: a list of 1,000 read at once is
 * one write of the record, not 1,000 writes of a growing one.
 */
import type { ConsultationView } from '../client/browser-types.js';
import { answeredCount } from './consultations.js';

const PREFIX = 'consult-elements:seen:';

interface Stored {
  v: 1;
  /** When the member's list was first read in this tab; before it nothing counts as unread. */
  since?: number;
  marks: Record<string, { answers: number; at: number }>;
  /** Per consultation, when each question (`q`) and answer (`a`) arrived. */
  arrivals?: Record<string, Arrivals>;
}

/**
 * Epoch milliseconds per message; 0 when it was already there the first time this tab read the
 * consultation (its time is unknown); null for an answer that has not come yet.
 */
interface Arrivals {
  q: number[];
  a: (number | null)[];
}

/** When a consultation's messages arrived: ISO times, undefined where unknown. */
export interface MessageTimes {
  questions: (string | undefined)[];
  answers: (string | undefined)[];
}

function storage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    // Blocked storage (privacy settings, sandboxed frames): the marks live in memory only.
    return undefined;
  }
}

export class SeenMarks {
  readonly #memberId?: string;
  #stored: Stored = { v: 1, marks: {} };
  /** A write of the record is queued for the end of this turn. */
  #saveQueued = false;

  /** The marks of `memberId` (none without a member); every other member's are wiped. */
  constructor(memberId?: string) {
    this.#memberId = memberId;
    const store = storage();
    if (!memberId || !store) return;
    for (let i = store.length - 1; i >= 0; i--) {
      const key = store.key(i);
      if (key?.startsWith(PREFIX) && key !== PREFIX + memberId) store.removeItem(key);
    }
    try {
      const raw = JSON.parse(store.getItem(PREFIX + memberId) ?? 'null') as Stored | null;
      if (raw?.v === 1 && raw.marks && typeof raw.marks === 'object') this.#stored = raw;
    } catch {
      // Unreadable marks: start again, as on a first visit.
    }
  }

  /** The member's list was read: on a first read, everything in it counts as seen. */
  baseline(list: readonly ConsultationView[]): void {
    if (this.#stored.since !== undefined) return;
    const at = Date.now();
    this.#stored.since = at;
    for (const c of list) this.#stored.marks[c.consultationId] ??= { answers: answeredCount(c), at };
    this.#save();
  }

  /** Whether `c` has an answer the member has not had on screen. */
  hasUnseen(c: ConsultationView): boolean {
    if (this.#stored.since === undefined) return false;
    return answeredCount(c) > (this.#stored.marks[c.consultationId]?.answers ?? 0);
  }

  /** Everything `c` holds now has been seen. */
  mark(c: ConsultationView): void {
    this.#stored.marks[c.consultationId] = { answers: answeredCount(c), at: Date.now() };
    this.#save();
  }

  /**
   * Notes the messages of `c` not seen before: arrived now when `live` (the consultation was
   * already on this page, or the member just sent it), else at an unknown time.
   */
  arrived(c: ConsultationView, live: boolean): void {
    const arrivals = (this.#stored.arrivals ??= {});
    const entry = (arrivals[c.consultationId] ??= { q: [], a: [] });
    const stamp = live ? Date.now() : 0;
    let changed = false;
    c.questions.forEach((item, i) => {
      if (entry.q[i] === undefined) {
        entry.q[i] = stamp;
        changed = true;
      }
      const answered = item.answer !== undefined;
      if (answered && (entry.a[i] === null || entry.a[i] === undefined)) {
        entry.a[i] = stamp;
        changed = true;
      } else if (!answered && entry.a[i] !== null) {
        entry.a[i] = null;
        changed = true;
      }
    });
    if (changed) this.#save();
  }

  /** When `c`'s messages arrived; its first question was asked when it was created. */
  times(c: ConsultationView): MessageTimes {
    const entry = this.#stored.arrivals?.[c.consultationId];
    const iso = (at: number | null | undefined) => (at ? new Date(at).toISOString() : undefined);
    const questions = c.questions.map((_, i) => iso(entry?.q[i]));
    if (!Number.isNaN(Date.parse(c.createdAt))) questions[0] = c.createdAt;
    return { questions, answers: c.questions.map((_, i) => iso(entry?.a[i])) };
  }

  /** Signed out: the marks go, and a write still queued with them. */
  wipe(): void {
    this.#saveQueued = false;
    this.#stored = { v: 1, marks: {} };
    if (this.#memberId) storage()?.removeItem(PREFIX + this.#memberId);
  }

  /** Writes a queued change now (before another member's marks replace these). */
  flush(): void {
    if (!this.#saveQueued) return;
    this.#saveQueued = false;
    this.#write();
  }

  /** Queues one write of the record for the end of this turn, however many changes it sees. */
  #save(): void {
    if (!this.#memberId || this.#saveQueued) return;
    this.#saveQueued = true;
    queueMicrotask(() => this.flush());
  }

  #write(): void {
    if (!this.#memberId) return;
    try {
      storage()?.setItem(PREFIX + this.#memberId, JSON.stringify(this.#stored));
    } catch {
      // Quota or blocked storage: the marks stay in memory.
    }
  }
}
