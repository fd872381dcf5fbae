/**
 * What the parts of the member state share: the client they call, how a load stands, the timer
 * they wait with, and the member's scope they run in.
 */
import type { BrowserClient, ConsultationView } from '../client/browser-types.js';

/** Where a piece of the state is: not asked for yet, on its way, there, or failed. */
export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

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
  | 'markConsultationSeen'
  | 'getPrescriptions'
>;

/** One request in the member's scope: it rejects with an AbortError once the member has changed. */
export type ScopedCall = <T>(run: (client: MemberClient, signal: AbortSignal) => Promise<T>) => Promise<T>;

/** How the state waits: `setTimeout`/`clearTimeout` by default (tests record the waits asked). */
export interface Timer {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const systemTimer: Timer = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The error a request of a member who has gone rejects with. */
export const aborted = (signal: AbortSignal): DOMException =>
  signal.reason instanceof DOMException
    ? signal.reason
    : new DOMException('The member changed', 'AbortError');

export const noMember = (): DOMException => new DOMException('No member is signed in', 'AbortError');

/** What `newestFirst` sorts by: the time asked, a time that does not parse as the oldest. */
export const sortTime = (c: ConsultationView): number => {
  const ms = Date.parse(c.createdAt);
  return Number.isNaN(ms) ? -Infinity : ms;
};

/** Sorts consultations newest first. */
export const newestFirst = (a: ConsultationView, b: ConsultationView): number => sortTime(b) - sortTime(a);
