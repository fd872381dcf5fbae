/**
 * What the member state holds for one member: their consultations and list, their plan, which
 * answers they have seen, the prescription requests and navigator conversation of this page. Made new, empty, when another
 * member signs in, with that member's scope: nothing of the previous one can land in it (S21).
 */
import type { ConsultationView, MemberView } from '../client/browser-types.js';
import { CaseList } from './case-list.js';
import { ConsultationStore } from './consultation-store.js';
import { Conversation, type KeyedSend } from './conversation.js';
import { PlanCheck } from './plan.js';
import { SentPrescriptions } from './prescriptions.js';
import { unreachable } from './connection.js';
import { answeredCount } from './consultations.js';
import { SeenMarks, type MessageTimes } from './seen-marks.js';
import { noMember, type ScopedCall } from './state-basics.js';

export interface MemberDataOptions {
  /** The member; none while signed out. */
  memberId?: string;
  /** The member's scope. */
  signal: AbortSignal;
  call: ScopedCall;
  /** A keyed write that waits out a lost connection (the navigator's messages). */
  send: KeyedSend;
  changed(): void;
  /** A record changed (its arrivals are noted in `seen` first). */
  recorded(previous: ConsultationView | undefined, record: ConsultationView): void;
  /** A read of the list settled. */
  listSettled(): void;
}

export class MemberData {
  readonly store: ConsultationStore;
  readonly list: CaseList;
  readonly plan: PlanCheck;
  readonly prescriptions = new SentPrescriptions();
  /** Which answers the member has had on screen (another member's are wiped as these are made). */
  readonly seen: SeenMarks;
  readonly #options: MemberDataOptions;
  #conversation?: Conversation;
  /** Consultations the member created on this page: their questions were asked just now. */
  readonly #sentHere = new Set<string>();
  /** The last list of unread consultations, and the records and marks it was worked out from. */
  #unread?: { records: readonly ConsultationView[]; marks: number; ids: string[] };

  constructor(options: MemberDataOptions) {
    this.#options = options;
    const { memberId, signal, call, changed } = options;
    this.seen = new SeenMarks(memberId);
    this.store = new ConsultationStore({
      memberId,
      signal,
      call,
      changed,
      recorded: (previous, record) => {
        // What was not on this page before arrived now; what was there at first sight, at an unknown time.
        this.seen.arrived(record, previous !== undefined || this.#sentHere.has(record.consultationId));
        // The proxy counts fewer answers seen than this tab (a mark it never got): told again.
        if (record.seenAnswers !== undefined) this.#tellSeen(record);
        options.recorded(previous, record);
      },
    });
    this.list = new CaseList({
      memberId,
      signal,
      call,
      store: this.store,
      seen: this.seen,
      changed,
      settled: options.listSettled,
    });
    this.plan = new PlanCheck({ signal, call, changed });
  }

  /**
   * Consultations with an answer the member has not had on screen: worked out again only when a
   * record or a mark changed, not each time the page looks (a list of 1,000 is looked at with
   * every change of the session while it loads).
   */
  unread(): string[] {
    const records = this.store.sorted;
    const marks = this.seen.changes;
    if (this.#unread?.records !== records || this.#unread.marks !== marks) {
      const ids = records.filter((c) => this.seen.hasUnseen(c)).map((c) => c.consultationId);
      this.#unread = { records, marks, ids };
    }
    return [...this.#unread.ids];
  }

  /** Whether this consultation has an answer the member has not seen. */
  isUnread(id: string): boolean {
    const record = this.store.get(id);
    return record ? this.seen.hasUnseen(record) : false;
  }

  /** When the consultation's messages arrived, as far as this tab saw them. */
  messageTimes(id: string): MessageTimes | undefined {
    const record = this.store.get(id);
    return record ? this.seen.times(record) : undefined;
  }

  /** The consultation's thread is on screen: its answers are seen. Answers whether that changed anything. */
  markSeen(id: string): boolean {
    const record = this.store.get(id);
    if (!record) return false;
    const unseen = this.seen.hasUnseen(record);
    if (unseen) this.seen.mark(record);
    this.#tellSeen(record);
    return unseen;
  }

  /**
   * Whether a `consultationSeen` event only brings back this tab's own mark: the count it told the
   * proxy, of every answer of the record it holds, in the status the event names, with no read of
   * it on its way (which may bring what a mark from elsewhere counts). Nothing is then new to read.
   */
  ownMark(id: string, event: { status?: string; answers?: number }): boolean {
    const held = this.store.get(id);
    return (
      held !== undefined &&
      !this.store.reading(id) &&
      held.status === event.status &&
      event.answers === this.#told.get(id) &&
      event.answers === answeredCount(held)
    );
  }

  /** Per consultation, the count of seen answers last told to the proxy (or being told). */
  readonly #told = new Map<string, number>();

  /**
   * Tells the proxy how many of the consultation's answers this tab has seen, when that is more
   * than it knows and than was told already: it keeps the count for the member's other tabs and
   * devices, and tells those open now. Nothing is lost if it fails: the next record is told again.
   */
  #tellSeen(record: ConsultationView): void {
    const id = record.consultationId;
    const count = Math.min(this.seen.seenHere(id), answeredCount(record));
    if (count <= Math.max(record.seenAnswers ?? 0, this.#told.get(id) ?? 0)) return;
    this.#told.set(id, count);
    this.#options
      .call(async (client, signal) => {
        // Sent even if the member leaves the page as the answer shows: their next visit finds it read.
        await client.markConsultationSeen?.(id, count, { signal, keepalive: true });
      })
      .catch((error: unknown) => {
        // Told again later only when the proxy could not be reached: a refusal would be refused again.
        if (unreachable(error) && this.#told.get(id) === count) this.#told.delete(id);
      });
  }

  /** Reads the prescription requests the proxy kept for the member, once. */
  loadPrescriptions(): Promise<void> {
    return this.prescriptions.load(this.#options.call, this.#options.changed);
  }

  /** The member created this consultation on this page. */
  sentHere(consultationId: string): void {
    this.#sentHere.add(consultationId);
  }

  /** The connection is back: what could not be read is read now, and what waits for an answer. */
  readAgain(member: MemberView | undefined): void {
    if (this.list.stalled) void this.list.load().catch(() => undefined);
    if (member && this.plan.stalled) void this.plan.check(member, { fresh: true }).catch(() => undefined);
    for (const id of this.store.idsToReadAgain()) this.store.hint(id);
  }

  /** Events may have been missed (the stream was reset): what is shown is read again. */
  resync(): void {
    if (this.list.status.status === 'ready') void this.list.load({ fresh: true }).catch(() => undefined);
    for (const id of this.store.heldIds()) this.store.hint(id);
  }

  /** The member's conversation with the health navigator, made at first use. */
  get conversation(): Conversation {
    const { memberId, send, changed } = this.#options;
    if (!memberId) throw noMember();
    this.#conversation ??= new Conversation(send, memberId, changed);
    return this.#conversation;
  }
}
