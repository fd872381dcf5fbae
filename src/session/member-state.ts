/**
 * The member's state: one copy, owned by the session, of everything the elements show about the
 * signed-in member. Elements render from it and send writes through it; a write's result or a
 * re-read updates it once, and every element showing that data renders again.
 *
 * - Consultations are kept by id. A consultation is read once per change however many elements
 *   show it: reads are single-flight, and a hint that arrives during a read asks for one more.
 * - Everything started for a member carries the member's scope (`signal`), which aborts when the
 *   member changes or signs out; nothing that settles afterwards touches the state (S21).
 * - Answers arrive through the live stream when the proxy has a webhook, and by polling open
 *   consultations otherwise (or while the stream is down): 5 s rising to 60 s, only while the page
 *   is visible, back to 5 s after each change or write.
 *
 * Plain TypeScript: no DOM is needed, so it is tested in Node.
 */
import type {
  BrowserClient,
  ConsultationView,
  MemberView,
  PrescriptionView,
  SubscriptionView,
} from '../client/browser-types.js';
import { BLOCKED_BY_POLICY } from './developer-hints.js';
import { ApiError } from '../client/errors.js';
import { abortable } from '../client/retry.js';
import type { CreatePrescriptionRequest } from '../client/types.js';
import { answeredCount, isOlder } from './consultations.js';
import { Conversation } from './conversation.js';
import { SeenMarks, type MessageTimes } from './seen-marks.js';

/** Whether the member may ask a doctor now: an active plan, no plan, or an account that is not active. */
export type Eligibility = 'eligible' | 'no-subscription' | 'inactive';

/** Where a piece of the state is: not asked for yet, on its way, there, or failed. */
export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/** How answers reach the page: pushed through the live stream, or polled while it cannot push. */
export type Delivery = 'push' | 'poll';

/** Whether the service answers: `reconnecting` while it cannot be reached, until a request gets through. */
export type Connection = 'online' | 'reconnecting';

/** The service could not be reached (after the client's own retries), as opposed to answering no. */
export const unreachable = (error: unknown): boolean =>
  error instanceof ApiError &&
  error.code !== BLOCKED_BY_POLICY &&
  (error.kind !== 'http' || error.status === 502 || error.status === 503 || error.status === 504);

/**
 * A signal that aborts with whichever of `a` and `b` aborts first (`AbortSignal.any`, which older
 * browsers lack); `release` stops listening to them.
 */
function eitherSignal(a: AbortSignal, b?: AbortSignal): { signal: AbortSignal; release(): void } {
  if (!b) return { signal: a, release: () => undefined };
  const controller = new AbortController();
  const fromA = (): void => controller.abort(a.reason);
  const fromB = (): void => controller.abort(b.reason);
  if (a.aborted) fromA();
  else if (b.aborted) fromB();
  a.addEventListener('abort', fromA, { once: true });
  b.addEventListener('abort', fromB, { once: true });
  return {
    signal: controller.signal,
    release: () => {
      a.removeEventListener('abort', fromA);
      b.removeEventListener('abort', fromB);
    },
  };
}

/** Waits between checks of a lost connection: 2 s, doubling up to 30 s. */
const PROBE = { firstMs: 2_000, maxMs: 30_000 };

/** The part of the client the state uses (the whole client in a browser; a fake in Node tests). */
export type MemberClient = Pick<
  BrowserClient,
  | 'getConsultation'
  | 'getCaseHistory'
  | 'createConsultation'
  | 'addConsultationFollowUp'
  | 'getUserSubscriptions'
  | 'getSubscriptionHistory'
  | 'createPrescriptionRequest'
  | 'startNavigatorConversation'
  | 'sendNavigatorMessage'
>;

export interface MemberStateOptions {
  /** The client to call, read at each call. */
  client: () => MemberClient;
  /** Polling pace: the first wait and the longest. Default 5 s and 60 s. */
  poll?: { firstMs: number; maxMs: number };
  /** Whether the page is visible; polling pauses while it is not. Default: the document's visibility. */
  visible?: () => boolean;
  /** The timer polling waits with. Default `setTimeout`/`clearTimeout` (tests record the waits asked). */
  timer?: { set(run: () => void, ms: number): unknown; clear(handle: unknown): void };
}

/** A consultation a professional may still answer. */
export const isWaiting = (c: ConsultationView): boolean =>
  (c.status === 'open' || c.status === 'claimed') && c.questions.some((q) => q.answer === undefined);

/** At most this many consultations are re-read per poll, the newest first. */
const MAX_POLLED = 20;
const POLL_GROWTH = 1.5;

const time = (iso: string) => {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? -Infinity : ms;
};

const aborted = (signal: AbortSignal): DOMException =>
  signal.reason instanceof DOMException
    ? signal.reason
    : new DOMException('The member changed', 'AbortError');

/** The member's plan: whether they may ask, and the subscriptions that say so. */
export interface Plan {
  status: LoadStatus;
  value?: Eligibility;
  /** The member's subscriptions as last read (none for an account that is not active). */
  subscriptions?: SubscriptionView[];
  error?: unknown;
}

interface Entry {
  record?: ConsultationView;
  status: LoadStatus;
  error?: unknown;
  /** The read in flight, shared by everyone who asks meanwhile. */
  read?: Promise<ConsultationView>;
  /** A change was hinted while a read was in flight: read once more after it. */
  again?: boolean;
}

/** A prescription request sent on this page, with what the member asked for. */
export type SentPrescription = PrescriptionView & { asked?: string };

export class MemberState extends EventTarget {
  readonly #options: MemberStateOptions;
  #member?: MemberView;
  #scope = new AbortController();
  #entries = new Map<string, Entry>();
  #history: { status: LoadStatus; error?: unknown; read?: Promise<void> } = { status: 'idle' };
  #plan: Plan & { at: number; read?: Promise<Eligibility> } = { status: 'idle', at: 0 };
  #live = false;
  #delivery: Delivery = 'push';
  #watchers = 0;
  #poll?: { timer: unknown; delay: number };
  #pollDelay: number;
  #prescriptions: SentPrescription[] = [];
  /** The plans each subscription renewed, by its id; `list` once read. */
  #renewals = new Map<string, SubscriptionView[] | undefined>();
  #conversation?: Conversation;
  #changeQueued = false;
  /** Counts the records that changed: a poll that moves it found something. */
  #version = 0;
  #seen = new SeenMarks();
  /** Consultations the member created on this page: their questions were asked just now. */
  #sentHere = new Set<string>();
  #connection: Connection = 'online';
  /** Writes waiting for the connection to come back. */
  #waiting = new Set<() => void>();
  #probe?: { timer: unknown; delay: number };

  constructor(options: MemberStateOptions) {
    super();
    this.#options = options;
    this.#pollDelay = this.#pollPace.firstMs;
  }

  get #pollPace() {
    return this.#options.poll ?? { firstMs: 5_000, maxMs: 60_000 };
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
        this.#plan = { status: 'idle', at: 0 };
        this.#changed();
      }
      if (member) this.#member = member;
      return;
    }
    this.#scope.abort(new DOMException('The member changed', 'AbortError'));
    this.#scope = new AbortController();
    this.#member = member;
    this.#entries = new Map();
    this.#sentHere = new Set();
    this.#history = { status: 'idle' };
    this.#plan = { status: 'idle', at: 0 };
    this.#prescriptions = [];
    this.#renewals = new Map();
    this.#conversation = undefined;
    this.#stopProbe();
    this.#connection = 'online';
    this.#pollDelay = this.#pollPace.firstMs;
    // Another member signing in wipes the previous member's marks; none are kept without a member.
    this.#seen = new SeenMarks(member?.id);
    this.#stopPolling();
    this.#changed();
    this.#schedulePoll();
  }

  /** Signed out: the member's seen-marks go too. */
  signOut(): void {
    this.#seen.wipe();
    this.setMember(undefined);
  }

  // ---- Consultations ----

  /** The consultation as last read, if it is loaded. */
  consultation(id: string): ConsultationView | undefined {
    return this.#entries.get(id)?.record;
  }

  /** Where the consultation's first read is, and its error if it failed. */
  consultationStatus(id: string): { status: LoadStatus; error?: unknown } {
    const entry = this.#entries.get(id);
    if (!entry) return { status: 'idle' };
    return entry.record ? { status: 'ready' } : { status: entry.status, error: entry.error };
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
    const scope = this.#scope.signal;
    if (!entry.record) entry.status = 'loading';
    entry.error = undefined;
    const read = (async () => {
      try {
        const record = await this.#call((client, signal) => client.getConsultation(id, { signal }));
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
        this.#changed();
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
    this.#changed();
    return read;
  }

  /** The live stream says a consultation changed: it is read again (the event is a hint, never data). */
  hint(id: string): void {
    if (!this.#member) return;
    void this.load(id, { fresh: true }).catch(() => undefined);
  }

  /**
   * Takes a newer record of a consultation (a write's answer, a read, or one the page handed
   * over). An older record than the one held is ignored: a slow read must not take back a
   * question just asked. Another member's record is never taken.
   */
  apply(record: ConsultationView): void {
    if (!this.#member || record.userId !== this.#member.id) return;
    const entry = this.#entry(record.consultationId);
    const previous = entry.record;
    if (previous && isOlder(record, previous)) return;
    entry.record = record;
    entry.status = 'ready';
    entry.error = undefined;
    const changed = !previous || JSON.stringify(previous) !== JSON.stringify(record);
    if (!changed) return;
    // What was not on this page before arrived now; what was there at first sight, at an unknown time.
    this.#seen.arrived(record, previous !== undefined || this.#sentHere.has(record.consultationId));
    this.#version++;
    this.#pollDelay = this.#pollPace.firstMs;
    if (previous && answeredCount(record) > answeredCount(previous)) {
      this.dispatchEvent(new CustomEvent('answer', { detail: { consultationId: record.consultationId } }));
    }
    this.dispatchEvent(new CustomEvent('consultation', { detail: { previous, record } }));
    this.#changed();
    // A consultation that now waits for an answer may start polling.
    this.#schedulePoll();
  }

  /**
   * Asks the page's list to show a consultation (a question just sent from a form): answers
   * whether a view took it. Only a page without a list shows the thread where it was sent, so a
   * consultation is live in one place.
   */
  requestOpen(consultationId: string, { focus = true }: { focus?: boolean } = {}): boolean {
    const request = new CustomEvent('open', { cancelable: true, detail: { consultationId, focus } });
    return !this.dispatchEvent(request);
  }

  // ---- The list ----

  /** The member's consultations that the state knows (the list, and any read or created since), newest first. */
  get consultations(): ConsultationView[] {
    const known: ConsultationView[] = [];
    for (const entry of this.#entries.values()) if (entry.record) known.push(entry.record);
    return known.sort((a, b) => time(b.createdAt) - time(a.createdAt));
  }

  /** Where the list is. */
  get historyStatus(): { status: LoadStatus; error?: unknown } {
    return { status: this.#history.status, error: this.#history.error };
  }

  /** Reads the member's list, once however many ask. */
  loadHistory({ fresh = false }: { fresh?: boolean } = {}): Promise<void> {
    const history = this.#history;
    const member = this.#member;
    if (!member) return Promise.reject(new DOMException('No member is signed in', 'AbortError'));
    // A fresh read asked for during one in flight (which may predate a change) follows it.
    if (history.read)
      return fresh
        ? history.read.catch(() => undefined).then(() => this.loadHistory({ fresh: true }))
        : history.read;
    if (history.status === 'ready' && !fresh) return Promise.resolve();
    const scope = this.#scope.signal;
    if (history.status !== 'ready') history.status = 'loading';
    history.error = undefined;
    const read = (async () => {
      try {
        const list = await this.#call((client, signal) => client.getCaseHistory(member.id, { signal }));
        for (const record of list) this.apply(record);
        history.status = 'ready';
        this.#seen.baseline(this.consultations);
      } catch (error) {
        if (scope.aborted) throw error;
        // Unreachable: it stays loading, and is read again when the connection is back.
        if (history.status !== 'ready' && !unreachable(error)) {
          history.status = 'error';
          history.error = error;
        }
        throw error;
      } finally {
        if (!scope.aborted) {
          history.read = undefined;
          this.#changed();
          this.#schedulePoll();
        }
      }
    })();
    history.read = read;
    read.catch(() => undefined);
    this.#changed();
    return read;
  }

  // ---- Writes ----

  /**
   * Creates a consultation with `idempotencyKey` (the same key on a retry answers the first
   * outcome, S14) and puts it in the state. While the service cannot be reached it waits and goes
   * out by itself, with the same key, when the connection is back; `signal` cancels that wait.
   */
  async createConsultation(
    questions: string[],
    idempotencyKey: string,
    signal?: AbortSignal,
  ): Promise<ConsultationView> {
    const member = this.#requireMember();
    const record = await this.#write(
      (client, scope) =>
        client.createConsultation({ userId: member.id, questions }, { idempotencyKey, signal: scope }),
      signal,
    );
    this.#sentHere.add(record.consultationId);
    this.apply(record);
    // Sent by the member here: it is not news to them when it first shows.
    this.#seen.mark(record);
    return record;
  }

  /** Adds a follow-up question (keyed, S14; waits out a lost connection as a new case does). */
  async addFollowUp(
    consultationId: string,
    question: string,
    idempotencyKey: string,
    signal?: AbortSignal,
  ): Promise<ConsultationView> {
    this.#requireMember();
    const record = await this.#write(
      (client, scope) =>
        client.addConsultationFollowUp(consultationId, { question }, { idempotencyKey, signal: scope }),
      signal,
    );
    this.apply(record);
    return this.consultation(consultationId) ?? record;
  }

  /**
   * Sends a prescription request with its answers (keyed, S14). The state keeps what was sent on
   * this page, with `asked` (what the member asked for, in their words) in memory only: it is
   * health text, never stored, and goes with the member's scope.
   */
  async sendPrescription(
    indicationSurvey: CreatePrescriptionRequest['indicationSurvey'],
    idempotencyKey: string,
    signal?: AbortSignal,
    asked?: string,
  ): Promise<SentPrescription> {
    const member = this.#requireMember();
    const record = await this.#write(
      (client, scope) =>
        client.createPrescriptionRequest(
          { userId: member.id, indicationSurvey },
          { idempotencyKey, signal: scope },
        ),
      signal,
    );
    const sent: SentPrescription = asked ? { ...record, asked } : record;
    this.#prescriptions = [...this.#prescriptions, sent];
    this.#changed();
    return sent;
  }

  /** The member's conversation with the health navigator (started by their first message). */
  get conversation(): Conversation {
    const member = this.#requireMember();
    this.#conversation ??= new Conversation(
      (run) => this.#call(run),
      member.id,
      () => this.#changed(),
    );
    return this.#conversation;
  }

  /** The prescription requests sent on this page, oldest first. */
  get prescriptions(): readonly SentPrescription[] {
    return this.#prescriptions;
  }

  // ---- The plan ----

  /** The plan check as it stands. */
  get plan(): Plan {
    const { status, value, subscriptions, error } = this.#plan;
    return { status, value, subscriptions, error };
  }

  /**
   * The plans subscription `id` renewed, newest first; undefined until read (a read starts then).
   * The history is a detail of the plan: a read that fails shows none.
   */
  renewalsOf(id: string): readonly SubscriptionView[] | undefined {
    const member = this.#member?.id;
    if (member && !this.#renewals.has(id)) {
      const renewals = this.#renewals.set(id, undefined);
      this.#call((client, signal) => client.getSubscriptionHistory(member, id, { signal }))
        .then(
          (history) => history.filter((s) => s.subscriptionId !== id),
          () => [],
        )
        .then((list) => {
          if (this.#renewals !== renewals) return;
          renewals.set(id, list);
          this.#changed();
        });
    }
    return this.#renewals.get(id);
  }

  /**
   * Whether the member may ask a doctor: one check answers every element for a minute; `fresh`
   * checks again (a "try again"). A failed check is not kept.
   */
  checkPlan({
    fresh = false,
    maxAgeMs = 60_000,
  }: { fresh?: boolean; maxAgeMs?: number } = {}): Promise<Eligibility> {
    const member = this.#requireMember();
    if (fresh) this.#renewals = new Map();
    if (member.userStatus && member.userStatus !== 'activeUser') {
      if (this.#plan.value !== 'inactive') {
        this.#plan = { status: 'ready', value: 'inactive', subscriptions: [], at: Date.now() };
        this.#changed();
      }
      return Promise.resolve('inactive');
    }
    const plan = this.#plan;
    // A fresh check asked for during one in flight (which may predate a change) follows it.
    if (plan.read)
      return fresh ? plan.read.catch(() => undefined).then(() => this.checkPlan({ fresh: true })) : plan.read;
    if (!fresh && plan.status === 'ready' && plan.value && Date.now() - plan.at < maxAgeMs)
      return Promise.resolve(plan.value);
    const scope = this.#scope.signal;
    plan.status = 'loading';
    plan.error = undefined;
    const read = (async () => {
      try {
        const subscriptions = await this.#call((client, signal) =>
          client.getUserSubscriptions(member.id, { signal }),
        );
        const value: Eligibility = subscriptions.some((s) => s.active === 1) ? 'eligible' : 'no-subscription';
        this.#plan = { status: 'ready', value, subscriptions, at: Date.now() };
        return value;
      } catch (error) {
        if (scope.aborted) throw error;
        // Unreachable: it stays loading, and is checked again when the connection is back.
        this.#plan = unreachable(error) ? { status: 'loading', at: 0 } : { status: 'error', error, at: 0 };
        throw error;
      } finally {
        if (!scope.aborted) this.#changed();
      }
    })();
    plan.read = read;
    read.catch(() => undefined);
    this.#changed();
    return read;
  }

  /** The service refused a write for the plan's sake: the state now knows the member cannot ask. */
  planRefused(value: Exclude<Eligibility, 'eligible'>): void {
    this.#plan = { ...this.#plan, status: 'ready', value, at: Date.now() };
    this.#changed();
  }

  // ---- Unread answers ----

  /** Consultations with an answer the member has not had on screen. */
  get unread(): string[] {
    return this.consultations.filter((c) => this.#seen.hasUnseen(c)).map((c) => c.consultationId);
  }

  /** Whether this consultation has an answer the member has not seen. */
  isUnread(id: string): boolean {
    const record = this.consultation(id);
    return record ? this.#seen.hasUnseen(record) : false;
  }

  /** When the consultation's messages arrived, as far as this tab saw them (see SeenMarks). */
  messageTimes(id: string): MessageTimes | undefined {
    const record = this.consultation(id);
    return record ? this.#seen.times(record) : undefined;
  }

  /** The consultation's thread is on screen: its answers are seen. */
  markSeen(id: string): void {
    const record = this.consultation(id);
    if (!record || !this.#seen.hasUnseen(record)) return;
    this.#seen.mark(record);
    this.#changed();
  }

  // ---- The connection ----

  /** Whether the service answers now. */
  get connection(): Connection {
    return this.#connection;
  }

  /**
   * One request for the member, in their scope: once the member has changed it rejects with an
   * AbortError, whatever it answered. Whether it reached the service sets the connection.
   */
  async #call<T>(run: (client: MemberClient, signal: AbortSignal) => Promise<T>): Promise<T> {
    const scope = this.#scope.signal;
    try {
      const value = await run(this.#options.client(), scope);
      if (scope.aborted) throw aborted(scope);
      this.#setConnection('online');
      return value;
    } catch (error) {
      if (scope.aborted) throw aborted(scope);
      if (unreachable(error)) this.#setConnection('reconnecting');
      throw error;
    }
  }

  /** A write: tried again, with its key, each time the connection comes back, until it is answered or `signal` aborts. */
  async #write<T>(
    run: (client: MemberClient, signal: AbortSignal) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    for (;;) {
      signal?.throwIfAborted();
      let release = (): void => undefined;
      try {
        const value = await this.#call((client, scope) => {
          const either = eitherSignal(scope, signal);
          release = either.release;
          return run(client, either.signal);
        });
        this.#pollDelay = this.#pollPace.firstMs;
        this.#schedulePoll();
        return value;
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (!unreachable(error)) throw error;
      } finally {
        release();
      }
      await this.#whenOnline(signal);
    }
  }

  /** Settles when the connection is back; rejects when `signal` or the member's scope aborts. */
  #whenOnline(signal?: AbortSignal): Promise<void> {
    if (this.#connection === 'online') return Promise.resolve();
    const scope = this.#scope.signal;
    return new Promise<void>((resolve, reject) => {
      const done = (): void => {
        this.#waiting.delete(done);
        signal?.removeEventListener('abort', stop);
        scope.removeEventListener('abort', stop);
        resolve();
      };
      const stop = (): void => {
        this.#waiting.delete(done);
        reject(signal?.aborted ? signal.reason : aborted(scope));
      };
      this.#waiting.add(done);
      signal?.addEventListener('abort', stop, { once: true });
      scope.addEventListener('abort', stop, { once: true });
    });
  }

  /**
   * Sign-in reached the service, or did not (the proxy or the service is down while the page
   * loads): the one "Reconnecting…" notice shows until it does, and what waits goes out then.
   */
  setReachable(reachable: boolean): void {
    this.#setConnection(reachable ? 'online' : 'reconnecting');
  }

  /** Checks the connection now (the browser says it is online again). */
  reconnect(): void {
    if (this.#connection !== 'reconnecting' || !this.#member) return;
    this.#stopProbe();
    this.#runProbe(PROBE.firstMs, true);
  }

  #setConnection(connection: Connection): void {
    if (this.#connection === connection) return;
    this.#connection = connection;
    this.#changed();
    if (connection === 'reconnecting') {
      this.#scheduleProbe(PROBE.firstMs);
      return;
    }
    this.#stopProbe();
    // Back: waiting writes go out, and what could not be read is read now.
    for (const resume of [...this.#waiting]) resume();
    if (this.#history.status === 'loading' && !this.#history.read)
      void this.loadHistory().catch(() => undefined);
    if (this.#plan.status === 'loading' && !this.#plan.read)
      void this.checkPlan({ fresh: true }).catch(() => undefined);
    for (const [id, entry] of this.#entries)
      if ((entry.status === 'loading' && !entry.read) || (entry.record && isWaiting(entry.record)))
        this.hint(id);
  }

  #scheduleProbe(delay: number): void {
    if (this.#probe) return;
    this.#probe = { timer: this.#timer.set(() => this.#runProbe(delay), delay), delay };
  }

  /** One cheap read to learn whether the service answers again; the next check waits twice as long. */
  #runProbe(delay: number, asked = false): void {
    this.#probe = undefined;
    const member = this.#member;
    if (!member || this.#connection === 'online') return;
    // Nobody shows anything and nothing waits to be sent: the next request (or the browser) will tell.
    if (!asked && this.#watchers === 0 && this.#waiting.size === 0) return;
    void this.#call((client, signal) => client.getUserSubscriptions(member.id, { signal }))
      .catch(() => undefined)
      .then(() => {
        if (this.#connection === 'reconnecting' && this.#member === member)
          this.#scheduleProbe(Math.min(PROBE.maxMs, delay * 2));
      });
  }

  #stopProbe(): void {
    if (!this.#probe) return;
    this.#timer.clear(this.#probe.timer);
    this.#probe = undefined;
  }

  // ---- Delivery ----

  /** The live stream opened or closed. */
  setLive(live: boolean): void {
    if (this.#live === live) return;
    this.#live = live;
    this.#changed();
    this.#schedulePoll();
  }

  /** The proxy said whether it pushes answers (it has a webhook) or the page must poll. */
  setDelivery(delivery: Delivery): void {
    if (this.#delivery === delivery) return;
    this.#delivery = delivery;
    this.#changed();
    this.#schedulePoll();
  }

  /** Whether the live stream is open. */
  get live(): boolean {
    return this.#live;
  }

  /** How answers reach the page now. */
  get delivery(): Delivery {
    return this.#live && this.#delivery === 'push' ? 'push' : 'poll';
  }

  /** Events may have been missed (the stream was reset): what is shown is read again. */
  resync(): void {
    if (!this.#member) return;
    if (this.#history.status === 'ready') void this.loadHistory({ fresh: true }).catch(() => undefined);
    for (const [id, entry] of this.#entries) if (entry.record) this.hint(id);
  }

  /**
   * An element shows the member's consultations: while anyone watches, the state keeps them
   * current (the session opens the stream, and polls when it must). Answers the unwatch function.
   */
  watch(): () => void {
    this.#watchers++;
    this.#schedulePoll();
    let watching = true;
    return () => {
      if (!watching) return;
      watching = false;
      this.#watchers--;
      this.#schedulePoll();
    };
  }

  /** The page became visible or hidden: polling follows. */
  visibilityChanged(): void {
    this.#schedulePoll();
  }

  /** Stops polling for good (the session is gone). */
  dispose(): void {
    this.#stopPolling();
    this.#stopProbe();
    this.#scope.abort(new DOMException('The session ended', 'AbortError'));
  }

  #due(): ConsultationView[] {
    const waiting: ConsultationView[] = [];
    for (const entry of this.#entries.values())
      if (entry.record && isWaiting(entry.record)) waiting.push(entry.record);
    return waiting.sort((a, b) => time(b.createdAt) - time(a.createdAt)).slice(0, MAX_POLLED);
  }

  #visible(): boolean {
    if (this.#options.visible) return this.#options.visible();
    return typeof document === 'undefined' || document.visibilityState !== 'hidden';
  }

  #shouldPoll(): boolean {
    return (
      this.#member !== undefined &&
      this.#watchers > 0 &&
      this.delivery === 'poll' &&
      this.#visible() &&
      this.#due().length > 0
    );
  }

  /** Polls while it should, at the current pace; a running wait keeps going. */
  #schedulePoll(): void {
    if (!this.#shouldPoll()) {
      this.#stopPolling();
      return;
    }
    const delay = this.#pollDelay;
    // A shorter pace than the wait running (a change, a write) starts over at it.
    if (this.#poll && this.#poll.delay <= delay) return;
    this.#stopPolling();
    const scope = this.#scope.signal;
    const timer = this.#timer.set(async () => {
      this.#poll = undefined;
      const version = this.#version;
      await Promise.allSettled(
        this.#due().map((c) => abortable(this.load(c.consultationId, { fresh: true }), scope)),
      );
      if (scope.aborted) return;
      // Nothing moved: wait longer next time, up to the longest pace.
      if (this.#version === version)
        this.#pollDelay = Math.min(this.#pollPace.maxMs, Math.round(this.#pollDelay * POLL_GROWTH));
      this.#schedulePoll();
    }, delay);
    this.#poll = { timer, delay };
  }

  get #timer() {
    return (
      this.#options.timer ?? {
        set: (run: () => void, ms: number) => setTimeout(run, ms),
        clear: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
      }
    );
  }

  #stopPolling(): void {
    if (!this.#poll) return;
    this.#timer.clear(this.#poll.timer);
    this.#poll = undefined;
  }

  #entry(id: string): Entry {
    let entry = this.#entries.get(id);
    if (!entry) this.#entries.set(id, (entry = { status: 'idle' }));
    return entry;
  }

  #requireMember(): MemberView {
    if (!this.#member) throw new DOMException('No member is signed in', 'AbortError');
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
