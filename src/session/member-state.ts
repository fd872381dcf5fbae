/**
 * The member's state: one copy, owned by the session, of everything the elements show about the
 * signed-in member. Elements render from it and send writes through it; a write's result or a
 * re-read updates it once, and every element showing that data renders again. This class is the
 * one door; each job is a module of its own (see the modules for the details):
 *
 * - `member-data.ts`: what is held for one member, made new for the next: `consultation-store.ts`
 *   (consultations by id, one read per change), `case-list.ts` (the list), `plan.ts` (whether they
 *   may ask), `prescriptions.ts`, `conversation.ts` (the navigator);
 * - `writes.ts`: keyed writes that wait out a lost connection (S14); `seen-marks.ts`: unread answers;
 * - `service-link.ts` (`link`): the page's link to the service, which the session and the live
 *   stream tell what they hear: `connection.ts`, whether the service answers, and `delivery.ts`,
 *   live stream or polling;
 * - `placement.ts`: where a consultation shows and where a new question goes.
 *
 * Everything started for a member carries the member's scope (`signal`), which aborts when the
 * member changes or signs out; nothing that settles afterwards touches the state (S21).
 *
 * Plain TypeScript: no DOM is needed, so it is tested in Node.
 */
import type { ConsultationView, MemberView, SubscriptionView } from '../client/browser-types.js';
import { abortable } from '../client/retry.js';
import type { CreatePrescriptionRequest } from '../client/types.js';
import type { Connection } from './connection.js';
import { answeredCount } from './consultations.js';
import type { Conversation } from './conversation.js';
import { Placement } from './placement.js';
import { MemberData } from './member-data.js';
import type { Eligibility, Plan } from './plan.js';
import type { SentPrescription } from './prescriptions.js';
import type { MessageTimes } from './seen-marks.js';
import { ServiceLink } from './service-link.js';
import { noMember, systemTimer, type LoadStatus, type MemberClient, type Timer } from './state-basics.js';
import * as writes from './writes.js';

export { unreachable, type Connection } from './connection.js';
export { isWaiting } from './consultations.js';
export type { Delivery } from './delivery.js';
export type { Eligibility, Plan } from './plan.js';
export type { SentPrescription } from './prescriptions.js';
export type { ServiceLink } from './service-link.js';
export type { LoadStatus, MemberClient } from './state-basics.js';

export interface MemberStateOptions {
  /** The client to call, read at each call. */
  client: () => MemberClient;
  /**
   * Polling pace: the first wait and the longest, default 5 s and 60 s; `pushedMs`, how often a
   * waiting consultation is read while answers are pushed, default 2 minutes.
   */
  poll?: { firstMs: number; maxMs: number; pushedMs?: number };
  /** Whether the page is visible; polling pauses while it is not. Default: the document's visibility. */
  visible?: () => boolean;
  /** The timer polling waits with. Default `setTimeout`/`clearTimeout` (tests record the waits asked). */
  timer?: Timer;
}

export class MemberState extends EventTarget {
  #member?: MemberView;
  #scope = new AbortController();
  #of: MemberData;
  #changeQueued = false;

  /** Where a consultation shows and where a new question goes (see `placement.ts`); kept across members. */
  readonly placement = new Placement();

  /**
   * The page's link to the service (see `service-link.ts`): whether it answers and how answers
   * arrive, told by the session and the live stream. Elements read `connection`.
   */
  readonly link: ServiceLink;

  constructor(options: MemberStateOptions) {
    super();
    this.link = new ServiceLink({
      client: options.client,
      timer: options.timer ?? systemTimer,
      pace: options.poll ?? { firstMs: 5_000, maxMs: 60_000 },
      visible:
        options.visible ?? (() => typeof document === 'undefined' || document.visibilityState !== 'hidden'),
      scope: () => this.#scope.signal,
      memberId: () => this.#member?.id,
      back: () => this.#of.readAgain(this.#member),
      anyWaiting: () => this.#of.store.hasWaiting(),
      waiting: () => this.#of.store.waiting(),
      read: (id) => abortable(this.load(id, { fresh: true }), this.#scope.signal),
      changed: () => this.#changed(),
    });
    this.#of = this.#partsFor(undefined);
  }

  /** The signed-in member, or undefined. */
  get member(): MemberView | undefined {
    return this.#member;
  }

  /** Aborts when the member changes or signs out: pass it to everything started for this member. */
  get signal(): AbortSignal {
    return this.#scope.signal;
  }

  /**
   * Another member (or none, on sign-out): the previous member's scope aborts and nothing of theirs
   * stays. The same member again (a renewed token) keeps everything.
   */
  setMember(member: MemberView | undefined): void {
    if (member?.id === this.#member?.id) {
      // The same member, signed in again: an account that became inactive (or active) is checked again.
      if (member && member.userStatus !== this.#member?.userStatus) {
        this.#of.plan.forget();
        this.#changed();
      }
      if (member) this.#member = member;
      return;
    }
    this.#scope.abort(new DOMException('The member changed', 'AbortError'));
    this.#scope = new AbortController();
    this.#member = member;
    // Another member signing in wipes the previous member's marks (after a change still queued is
    // written); none are kept without a member.
    this.#of.seen.flush();
    this.#of = this.#partsFor(member?.id);
    this.link.reset();
    this.#changed();
    this.link.schedule();
  }

  /** Signed out: the member's seen-marks go too. */
  signOut(): void {
    this.#of.seen.wipe();
    this.setMember(undefined);
  }

  /** The consultation as last read, if it is loaded. */
  consultation(id: string): ConsultationView | undefined {
    return this.#of.store.get(id);
  }

  /** Where the consultation's first read is, and its error if it failed. */
  consultationStatus(id: string): { status: LoadStatus; error?: unknown } {
    return this.#of.store.status(id);
  }

  /** Reads the consultation once however many ask (see `ConsultationStore.load`). */
  load(id: string, options: { fresh?: boolean } = {}): Promise<ConsultationView> {
    return this.#of.store.load(id, options);
  }

  /**
   * The live stream says a consultation changed: it is read again (the event is a hint, never
   * data); not when it only brings back this tab's own read mark (`consultationSeen`, see
   * `MemberData.ownMark`).
   */
  hint(id: string, event?: { type?: string; status?: string; answers?: number }): void {
    if (event?.type === 'consultationSeen' && this.#of.ownMark(id, event)) return;
    this.#of.store.hint(id);
  }

  /** Takes a newer record of a consultation; an older one, or another member's, is ignored. */
  apply(record: ConsultationView): void {
    this.#of.store.apply(record);
  }

  /** The member's consultations that the state knows (the list, and any read or created since), newest first. */
  get consultations(): ConsultationView[] {
    return this.#of.store.all;
  }

  /** Where the list is. */
  get historyStatus(): { status: LoadStatus; error?: unknown } {
    return this.#of.list.status;
  }

  /** Reads the member's list, once however many ask. */
  loadHistory(options: { fresh?: boolean } = {}): Promise<void> {
    return this.#of.list.load(options);
  }

  /** Creates a consultation with `idempotencyKey` and takes it; `signal` cancels a wait to send. */
  async createConsultation(
    questions: string[],
    idempotencyKey: string,
    signal?: AbortSignal,
  ): Promise<ConsultationView> {
    return writes.createConsultation(this.#writing(), questions, idempotencyKey, signal);
  }

  /** Adds a follow-up question. */
  async addFollowUp(
    consultationId: string,
    question: string,
    idempotencyKey: string,
    signal?: AbortSignal,
  ): Promise<ConsultationView> {
    return writes.addFollowUp(this.#writing(), consultationId, question, idempotencyKey, signal);
  }

  /** Sends a prescription request; `asked` (the member's words) is kept in memory only. */
  async sendPrescription(
    indicationSurvey: CreatePrescriptionRequest['indicationSurvey'],
    idempotencyKey: string,
    signal?: AbortSignal,
    asked?: string,
  ): Promise<SentPrescription & { status: string }> {
    return writes.sendPrescription(this.#writing(), indicationSurvey, idempotencyKey, signal, asked);
  }

  /** The member's prescription requests: kept by the proxy and sent on this page, oldest first. */
  get prescriptions(): readonly SentPrescription[] {
    return this.#of.prescriptions.list;
  }

  /** Where the read of the prescription requests the proxy kept is. */
  get prescriptionsStatus(): LoadStatus {
    return this.#of.prescriptions.status;
  }

  /** Reads the prescription requests the proxy kept for the member, once per member. */
  loadPrescriptions(): Promise<void> {
    if (!this.#member) return Promise.reject(noMember());
    return this.#of.loadPrescriptions();
  }

  /** The member's conversation with the health navigator (started by their first message). */
  get conversation(): Conversation {
    return this.#of.conversation;
  }

  /** The plan check as it stands. */
  get plan(): Plan {
    return this.#of.plan.plan;
  }

  /** Whether the member may ask a doctor: one check for a minute; `fresh` checks again. */
  checkPlan(options: { fresh?: boolean; maxAgeMs?: number } = {}): Promise<Eligibility> {
    return this.#of.plan.check(this.#requireMember(), options);
  }

  /**
   * The plans subscription `id` renewed, newest first; undefined until read (a read starts then).
   * The history is a detail of the plan: a read that fails shows none.
   */
  renewalsOf(id: string): readonly SubscriptionView[] | undefined {
    return this.#member ? this.#of.plan.renewalsOf(this.#member.id, id) : undefined;
  }

  /** The service refused a write for the plan's sake: the state now knows the member cannot ask. */
  planRefused(value: Exclude<Eligibility, 'eligible'>): void {
    this.#of.plan.refused(value);
  }

  /** Consultations with an answer the member has not had on screen. */
  get unread(): string[] {
    return this.#of.unread();
  }

  /** Whether this consultation has an answer the member has not seen. */
  isUnread(id: string): boolean {
    return this.#of.isUnread(id);
  }

  /** When the consultation's messages arrived, as far as this tab saw them (see SeenMarks). */
  messageTimes(id: string): MessageTimes | undefined {
    return this.#of.messageTimes(id);
  }

  /** The consultation's thread is on screen: its answers are seen. */
  markSeen(id: string): void {
    if (this.#of.markSeen(id)) this.#changed();
  }

  /** Whether the service answers now (see `link`). */
  get connection(): Connection {
    return this.link.connection;
  }

  /** Events may have been missed (the stream was reset): what is shown is read again. */
  resync(): void {
    if (this.#member) this.#of.resync();
  }

  /** Stops polling for good (the session is gone). */
  dispose(): void {
    this.link.stop();
    this.#scope.abort(new DOMException('The session ended', 'AbortError'));
  }

  #partsFor(memberId: string | undefined): MemberData {
    return new MemberData({
      memberId,
      signal: this.#scope.signal,
      call: (run) => this.link.call(run),
      send: (run, signal) => this.link.send(run, signal),
      changed: () => this.#changed(),
      recorded: (previous, record) => this.#recorded(previous, record),
      listSettled: () => this.link.schedule(),
    });
  }

  /** A record changed: the page is told, and polling follows. */
  #recorded(previous: ConsultationView | undefined, record: ConsultationView): void {
    this.link.recordChanged();
    if (previous && answeredCount(record) > answeredCount(previous)) {
      this.dispatchEvent(new CustomEvent('answer', { detail: { consultationId: record.consultationId } }));
    }
    this.dispatchEvent(new CustomEvent('consultation', { detail: { previous, record } }));
    this.#changed();
    // A consultation that now waits for an answer may start polling.
    this.link.schedule();
  }

  /** What a write needs, for the member signed in now (throws without one). */
  #writing(): writes.WriteContext {
    return {
      memberId: this.#requireMember().id,
      data: this.#of,
      send: (run, signal) => this.link.write(run, signal),
      changed: () => this.#changed(),
    };
  }

  #requireMember(): MemberView {
    if (!this.#member) throw noMember();
    return this.#member;
  }

  /** One `change` event per turn, however many parts changed in it. */
  #changed(): void {
    if (this.#changeQueued) return;
    this.#changeQueued = true;
    queueMicrotask(() => {
      this.#changeQueued = false;
      this.dispatchEvent(new Event('change'));
    });
  }
}
