/**
 * Which answers the member has had on screen, per consultation: the number of answers seen and
 * when; and when each question and answer arrived, as far as this tab saw it. Ids, counts and
 * times only, never health text. Kept in sessionStorage per member so a reload keeps them; wiped
 * on sign-out and when another member signs in.
 *
 * The proxy remembers the same for the member across tabs and devices (`seenAnswers` and `times`
 * on a consultation it knows, src/proxy/member-memory.ts): where it does, its word counts, merged
 * with this tab's (the higher count, the proxy's time before this tab's), so an answer that came
 * while the member was away is new on their next visit, and one read anywhere is read here.
 *
 * For a consultation the proxy knows nothing of (asked before it remembered), the first time a
 * member's list is read in a tab, what it holds counts as seen: "New answer" marks what arrives
 * after that, not last month's answers.
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

  /** How many times the marks changed: what was worked out from them holds while it stays. */
  changes = 0;

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

  /**
   * The member's list was read: on a first read, everything in it counts as seen, but for the
   * consultations whose read state the proxy keeps.
   */
  baseline(list: readonly ConsultationView[]): void {
    if (this.#stored.since !== undefined) return;
    const at = Date.now();
    this.#stored.since = at;
    for (const c of list) {
      if (c.seenAnswers === undefined)
        this.#stored.marks[c.consultationId] ??= { answers: answeredCount(c), at };
    }
    this.#save();
  }

  /** Whether `c` has an answer the member has not had on screen, here or (as the proxy says) anywhere. */
  hasUnseen(c: ConsultationView): boolean {
    const here = this.#stored.marks[c.consultationId]?.answers ?? 0;
    if (c.seenAnswers !== undefined) return answeredCount(c) > Math.max(here, c.seenAnswers);
    if (this.#stored.since === undefined) return false;
    return answeredCount(c) > here;
  }

  /** How many of `c`'s answers this tab counts as seen (0 when none). */
  seenHere(consultationId: string): number {
    return this.#stored.marks[consultationId]?.answers ?? 0;
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

  /**
   * When `c`'s messages arrived: its first question when it was created; the others when the
   * proxy saw them (a question sent through it, an answer's event), else when this tab did; no
   * time where neither did.
   */
  times(c: ConsultationView): MessageTimes {
    const entry = this.#stored.arrivals?.[c.consultationId];
    const iso = (at: number | null | undefined) => (at ? new Date(at).toISOString() : undefined);
    const known = (at: string | null | undefined) => (at && !Number.isNaN(Date.parse(at)) ? at : undefined);
    const questions = c.questions.map((_, i) => known(c.times?.questions[i]) ?? iso(entry?.q[i]));
    if (!Number.isNaN(Date.parse(c.createdAt))) questions[0] = c.createdAt;
    const answers = c.questions.map((item, i) =>
      item.answer === undefined ? undefined : (known(c.times?.answers[i]) ?? iso(entry?.a[i])),
    );
    return { questions, answers };
  }

  /** Signed out: the marks go, and a write still queued with them. */
  wipe(): void {
    this.changes++;
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
    this.changes++;
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
