/**
 * The browser surface: what the partner's proxy sends a member's browser, and nothing more. The
 * proxy's views are projections of the upstream types (fields the elements do not need never reach
 * a browser), so a browser must not be promised the upstream types. `src/proxy/schemas.ts` proves
 * at compile time that the proxy's zod schemas produce exactly these types.
 */
import type { RequestOptions } from './client.js';
import type {
  AddFollowUpRequest,
  Consultation,
  CreateConsultationRequest,
  CreatePrescriptionRequest,
  NavigatorConversation,
  NavigatorReply,
  SendNavigatorMessageRequest,
  UserStatus,
  WebhookEventType,
} from './types.js';

/** The signed-in member, as `POST {base}/session` and `GET {base}/user/{me}` describe them. */
export interface MemberView {
  id: string;
  uniqueId?: string;
  firstName?: string;
  lastName?: string;
  /** ISO 639-1; the elements' language when nothing nearer sets one. */
  language: string;
  physicianCountry?: string;
  userStatus?: UserStatus;
}

/** What `POST {base}/session` answers, and what a host's `tokenProvider` returns. */
export interface SessionGrant {
  token: string;
  /** ISO date from the proxy; a host's own provider may also give epoch milliseconds or a Date. */
  expiresAt: number | string | Date;
  user: MemberView;
}

/** One of the member's subscriptions. */
export interface SubscriptionView {
  subscriptionId: string;
  userId: string;
  /** 1 while now is between start and end and it is not canceled. */
  active: 0 | 1;
  startSubscription: string;
  endSubscription: string;
  canceledAt?: string;
  renewFrom?: string;
}

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
export interface ConsultationView extends Consultation, ConsultationMemory {}

/** `PUT {base}/consultations/{id}/seen`'s answer: how many answers are now seen (never fewer than before). */
export interface SeenView {
  consultationId: string;
  answers: number;
}

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
export type ConversationView = NavigatorConversation;
export type ReplyView = NavigatorReply;

/** A prescription request, without the indication survey the member sent. */
export interface PrescriptionView {
  prescriptionId: string;
  userId: string;
  /** `received`, `inReview`, `approved` or `declined` today; a newer upstream may add others. */
  status: string;
  createdAt: string;
}

/** The data of a `consultation` event on `GET {base}/events`: a hint to re-read, never the record. */
/** What a `consultation` event says happened: a known webhook type, or any other change. */
export type ConsultationEventType = WebhookEventType | 'consultationChanged' | 'consultationSeen';

export interface ConsultationEvent {
  type: ConsultationEventType;
  consultationId: string;
  status: string;
}

/**
 * The typed client as a browser sees it through the proxy: the operations the proxy forwards, each
 * answering the proxy's view. `<consult-session>`'s `client` is one (src/session/session-client.ts).
 */
export interface BrowserClient {
  getUser(userId: string, options?: RequestOptions): Promise<MemberView>;
  getUserSubscriptions(userId: string, options?: RequestOptions): Promise<SubscriptionView[]>;
  getSubscription(
    userId: string,
    subscriptionId: string,
    options?: RequestOptions,
  ): Promise<SubscriptionView>;
  getSubscriptionHistory(
    userId: string,
    subscriptionId: string,
    options?: RequestOptions,
  ): Promise<SubscriptionView[]>;
  createConsultation(body: CreateConsultationRequest, options?: RequestOptions): Promise<ConsultationView>;
  getConsultation(consultationId: string, options?: RequestOptions): Promise<ConsultationView>;
  addConsultationFollowUp(
    consultationId: string,
    body: AddFollowUpRequest,
    options?: RequestOptions,
  ): Promise<ConsultationView>;
  getCaseHistory(userId: string, options?: RequestOptions): Promise<ConsultationView[]>;
  startNavigatorConversation(
    userId: string,
    body?: Record<string, unknown>,
    options?: RequestOptions,
  ): Promise<ConversationView>;
  sendNavigatorMessage(body: SendNavigatorMessageRequest, options?: RequestOptions): Promise<ReplyView>;
  createPrescriptionRequest(
    body: CreatePrescriptionRequest,
    options?: RequestOptions,
  ): Promise<PrescriptionView>;
  /**
   * The proxy's own routes, not the service's (docs/architecture.md 2.1): the member has had
   * `answers` answers of the consultation on screen. Optional: without them a page keeps read
   * marks and requests for its tab only.
   */
  markConsultationSeen?(consultationId: string, answers: number, options?: RequestOptions): Promise<SeenView>;
  /** The prescription requests the proxy kept for the member, oldest first. */
  getPrescriptions?(options?: RequestOptions): Promise<KeptPrescription[]>;
}
