/**
 * What the proxy remembers for a member beyond one tab (docs/architecture.md 2.2, docs/security.md
 * S27): when each question went out through it and when each answer's webhook event arrived, how
 * many answers of each consultation the member has had on screen, and the prescription requests
 * the service took. Ids, times and counts only, never health text.
 *
 * Each fact is a key of its own, written once (`setIfAbsent`) or only ever raised, so two
 * instances, or a webhook and a follow-up arriving together, cannot overwrite each other: no
 * read-modify-write, and nothing a store must offer beyond the `ProxyStore` interface. A
 * consultation's facts are read in one `getMany` (Redis `MGET`), a list's all together.
 */
import { MAX_QUESTIONS_PER_CONSULTATION } from '../client/types.js';
import type { ConsultationMemory, KeptPrescription } from '../client/browser-types.js';
import type { ProxyStore } from './store.js';

/** How long a fact is kept after it was written: like a navigator conversation's owner. */
export const MEMORY_TTL_MS = 90 * 24 * 60 * 60 * 1000;
/** The prescription requests served back: the newest ones. */
export const KEPT_PRESCRIPTIONS = 20;

const SLOTS = Array.from({ length: MAX_QUESTIONS_PER_CONSULTATION }, (_, i) => i);

const questionKey = (userId: string, id: string, i: number) => `memory:${userId}:${id}:q${i}`;
const answerKey = (userId: string, id: string, i: number) => `memory:${userId}:${id}:a${i}`;
/** Present when at least `count` answers were seen: a count only rises. */
const seenKey = (userId: string, id: string, count: number) => `memory:${userId}:${id}:seen${count}`;
const prescriptionCountKey = (userId: string) => `memory:${userId}:prescriptions`;
const prescriptionKey = (userId: string, n: number) => `memory:${userId}:prescription:${n}`;

/** A consultation as `of` takes it: its id, and its questions when known. */
export interface RememberedRecord {
  consultationId: string;
  /**
   * The questions the service holds. Facts exist only for questions it holds (an answer and a
   * read mark follow a question), so only their keys are read; without it, every slot is.
   */
  questions?: { length: number };
}

export class MemberMemory {
  readonly #store: ProxyStore;
  readonly #now: () => number;

  constructor(store: ProxyStore, now: () => number = Date.now) {
    this.#store = store;
    this.#now = now;
  }

  /** Question `index` of the consultation went out through this proxy now (a repeat keeps the first time). */
  async questionSent(userId: string, consultationId: string, index: number): Promise<void> {
    if (index < 0 || index >= MAX_QUESTIONS_PER_CONSULTATION) return;
    await this.#store.setIfAbsent(questionKey(userId, consultationId, index), this.#stamp(), MEMORY_TTL_MS);
  }

  /** The event of answer `index` arrived now (a redelivery keeps the first time). */
  async answerArrived(userId: string, consultationId: string, index: number): Promise<void> {
    if (index < 0 || index >= MAX_QUESTIONS_PER_CONSULTATION) return;
    await this.#store.setIfAbsent(answerKey(userId, consultationId, index), this.#stamp(), MEMORY_TTL_MS);
  }

  /** The member has had `count` answers on screen: a count at or below what was seen changes nothing (the route refuses a lower one). */
  async seen(userId: string, consultationId: string, count: number): Promise<number> {
    const upTo = Math.min(count, MAX_QUESTIONS_PER_CONSULTATION);
    await Promise.all(
      SLOTS.slice(0, upTo).map((i) =>
        this.#store.setIfAbsent(seenKey(userId, consultationId, i + 1), '1', MEMORY_TTL_MS),
      ),
    );
    return (await this.of(userId, [{ consultationId }])).get(consultationId)?.seenAnswers ?? upTo;
  }

  /**
   * What is remembered of each consultation, in one read. A consultation this proxy has no fact
   * of (asked before it remembered, or longer ago than the facts are kept) has no entry: the
   * elements then know no times and no read state for it but their own.
   */
  async of(
    userId: string,
    consultations: readonly RememberedRecord[],
  ): Promise<Map<string, ConsultationMemory>> {
    const remembered = new Map<string, ConsultationMemory>();
    // Three facts per question, side by side: its time, its answer's time, its read mark. A long
    // history asks for thousands, so they are gathered in plain loops, with no array per record.
    const keys: string[] = [];
    const slots = consultations.map(({ consultationId: id, questions }) => {
      const count = Math.min(
        questions?.length ?? MAX_QUESTIONS_PER_CONSULTATION,
        MAX_QUESTIONS_PER_CONSULTATION,
      );
      for (let i = 0; i < count; i++) {
        keys.push(questionKey(userId, id, i), answerKey(userId, id, i), seenKey(userId, id, i + 1));
      }
      return count;
    });
    if (keys.length === 0) return remembered;
    const values = await this.#store.getMany(keys);
    let at = 0;
    consultations.forEach(({ consultationId }, n) => {
      const start = at;
      const count = slots[n] as number;
      at += 3 * count;
      let known = false;
      for (let j = start; j < at; j++) known ||= values[j] !== undefined;
      if (!known) return;
      // One entry per possible question, as the elements read them.
      const fact = (i: number, kind: number) => (i < count ? (values[start + 3 * i + kind] ?? null) : null);
      remembered.set(consultationId, {
        times: { questions: SLOTS.map((i) => fact(i, 0)), answers: SLOTS.map((i) => fact(i, 1)) },
        // The highest count marked: a lower one's key may have lapsed first, being written first.
        seenAnswers: SLOTS.reduce((seen, i) => (fact(i, 2) === null ? seen : i + 1), 0),
      });
    });
    return remembered;
  }

  /** The service took a prescription request: its id, its time as the service gave it, and now. */
  async prescriptionSent(
    userId: string,
    record: { prescriptionId: string; createdAt: string },
  ): Promise<void> {
    const n = await this.#store.increment(prescriptionCountKey(userId), MEMORY_TTL_MS);
    const kept: KeptPrescription = {
      prescriptionId: record.prescriptionId,
      createdAt: record.createdAt,
      sentAt: this.#stamp(),
    };
    await this.#store.set(prescriptionKey(userId, n), JSON.stringify(kept), MEMORY_TTL_MS);
  }

  /** The member's kept prescription requests, oldest first (at most the newest {@link KEPT_PRESCRIPTIONS}). */
  async prescriptions(userId: string): Promise<KeptPrescription[]> {
    const count = Number((await this.#store.get(prescriptionCountKey(userId))) ?? 0);
    if (!Number.isInteger(count) || count < 1) return [];
    const first = Math.max(1, count - KEPT_PRESCRIPTIONS + 1);
    const numbers = Array.from({ length: count - first + 1 }, (_, i) => first + i);
    const values = await this.#store.getMany(numbers.map((n) => prescriptionKey(userId, n)));
    const kept: KeptPrescription[] = [];
    const ids = new Set<string>();
    for (const value of values) {
      if (value === undefined) continue;
      try {
        const { prescriptionId, createdAt, sentAt } = JSON.parse(value) as Partial<KeptPrescription>;
        // Only these fields, each a string, are served; a keyed repeat of a request is the same request.
        if (typeof prescriptionId !== 'string' || typeof createdAt !== 'string' || typeof sentAt !== 'string')
          continue;
        if (ids.has(prescriptionId)) continue;
        ids.add(prescriptionId);
        kept.push({ prescriptionId, createdAt, sentAt });
      } catch {
        // An unreadable record is skipped, not served.
      }
    }
    return kept;
  }

  #stamp(): string {
    return new Date(this.#now()).toISOString();
  }
}
