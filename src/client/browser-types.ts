/**
 * The browser surface: what the partner's proxy sends a member's browser, and nothing more. The
 * proxy's views are projections of the upstream types (fields the elements do not need never reach
 * a browser), so a browser must not be promised the upstream types. These types are inferred from
 * the proxy's own schemas (src/proxy/schemas.ts, type-only), the ones that make the projections, so
 * the two cannot differ.
 */
import type * as z from 'zod/mini';
import type * as views from '../proxy/schemas.js';
import type { OperationMethod, RequestOptions } from './operation-client.js';
import type { MemberOperationName, OperationDefinitions } from './operations.js';

/** The signed-in member, as `POST {base}/session` and `GET {base}/user/{me}` describe them. */
export type MemberView = z.output<typeof views.MemberView>;

/** What `POST {base}/session` answers, and what a host's `tokenProvider` returns. */
export interface SessionGrant {
  token: string;
  /** ISO date from the proxy; a host's own provider may also give epoch milliseconds or a Date. */
  expiresAt: number | string | Date;
  user: MemberView;
}

/** An intersection written as one object type, as the published declarations write it. */
type OneObject<T> = { [K in keyof T]: T[K] };

/** One of the member's subscriptions. */
export type SubscriptionView = z.output<typeof views.SubscriptionView>;

/**
 * What the proxy remembers of a consultation for the member (src/proxy/member-memory.ts): ids,
 * times and counts, never text. Absent when it remembers nothing of it (asked before it did).
 */
export interface ConsultationMemory {
  /**
   * When question i went out through the proxy, and when answer i's event reached it (ISO); null
   * where it saw no such moment: it then shows no time.
   */
  times?: { questions: (string | null)[]; answers: (string | null)[] };
  /** How many of its answers the member has had on screen, on any tab or device. */
  seenAnswers?: number;
}

/**
 * A consultation with its questions, answers and professionals as the upstream sends them, and
 * what the proxy remembers of it.
 */
export type ConsultationView = OneObject<z.output<typeof views.ConsultationView> & ConsultationMemory>;
export type ConversationView = z.output<typeof views.ConversationView>;
export type ReplyView = z.output<typeof views.ReplyView>;

/** `PUT {base}/consultations/{id}/seen`'s answer: how many answers are now seen (never fewer than before). */
export type SeenView = z.output<typeof views.BrowserSeen>;

/**
 * A prescription request the proxy kept for the member (`GET {base}/prescriptions`): what the
 * service let us know, never what was asked for.
 */
export interface KeptPrescription {
  prescriptionId: string;
  /** As the service gave it when it took the request. */
  createdAt: string;
  /** When it went out through the proxy. */
  sentAt: string;
}

/** A prescription request, without the indication survey the member sent. */
export type PrescriptionView = z.output<typeof views.PrescriptionView>;

/** The data of a `consultation` event on `GET {base}/events`: a hint to re-read, never the record. */
export type ConsultationEvent = z.output<typeof views.BrowserEvent>;

/** What a `consultation` event says happened: a known webhook type, or any other change. */
export type ConsultationEventType = ConsultationEvent['type'];

/** The operations whose answers carry what the proxy remembers of a consultation. */
interface Remembered {
  createConsultation: ConsultationView;
  getConsultation: ConsultationView;
  addConsultationFollowUp: ConsultationView;
  getCaseHistory: ConsultationView[];
}

/** What the proxy answers a member for operation `N`. */
export type MemberResponse<N extends MemberOperationName> = N extends keyof Remembered
  ? Remembered[N]
  : z.output<(typeof views.MEMBER_VIEWS)[N]>;

/**
 * The typed client as a browser sees it through the proxy: the operations the proxy forwards, each
 * answering the proxy's view, and the proxy's own routes (docs/architecture.md 2.1). `<consult-session>`'s
 * `client` is one (src/session/session-client.ts).
 */
export type BrowserClient = OneObject<
  {
    [N in keyof Pick<OperationDefinitions, MemberOperationName>]: OperationMethod<N, MemberResponse<N>>;
  } & BrowserClientProxyRoutes
>;

/** The proxy's own routes on the browser's client. */
interface BrowserClientProxyRoutes {
  /**
   * The member has had `answers` answers of the consultation on screen. Optional: without it a
   * page keeps read marks for its tab only.
   */
  markConsultationSeen?(consultationId: string, answers: number, options?: RequestOptions): Promise<SeenView>;
  /** The prescription requests the proxy kept for the member, oldest first. */
  getPrescriptions?(options?: RequestOptions): Promise<KeptPrescription[]>;
}
