/**
 * Resource and request types of the partner health consultation service.
 *
 * Field tables follow spec sections 2 (resources) and 4 (request bodies). Where the spec says
 * "not shown", the shape is the one docs/architecture.md section 3 chose; those are marked (ours).
 */

/** User account status (spec 2.1). */
export type UserStatus = 'activeUser' | 'pendingActivation' | 'deactivatedUser';

/** Gender values the service accepts (spec 2.1). */
export type Gender = 'male' | 'other' | 'female';

/** A person who can use a configured service (spec 2.1). */
export interface User {
  id: string;
  uniqueId?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  /** E.164, for example `+447700900123`. */
  phone?: string;
  dateOfBirth?: string;
  gender?: Gender;
  language: string;
  country?: string;
  location: string;
  origin: string;
  physicianCountry: string;
  partnerName: string;
  associatedAccounts?: number;
  userStatus?: UserStatus;
}

/** Consultation workflow states (spec 3; transitions are ours, docs/architecture.md 3). */
export type ConsultationStatus = 'open' | 'claimed' | 'resolved' | 'canceled' | 'closed';

/** States after which no follow-up is accepted. */
export const FINAL_CONSULTATION_STATUSES: readonly ConsultationStatus[] = ['canceled', 'closed'];

/** Most questions one consultation may hold, the ones it was created with included (spec 8). */
export const MAX_QUESTIONS_PER_CONSULTATION = 3;

/** Longest question accepted, in characters (ours). */
export const MAX_QUESTION_LENGTH = 2000;

export interface ProfessionalLicense {
  licenseNumber: string;
  countries: string[];
}

/** The professional who answered (spec 2.2). */
export interface Professional {
  name: string;
  title: string;
  specialties: string[];
  licenses: ProfessionalLicense[];
  profileUrl?: string;
}

/** One question with, when available, its answer (spec 2.2). */
export interface QuestionItem {
  question: string;
  answer?: string;
  attachments?: string[];
  professional?: Professional;
}

/** A member's medical question and its workflow (spec 2.2). */
export interface Consultation {
  consultationId: string;
  userId: string;
  status: ConsultationStatus;
  createdAt: string;
  questions: QuestionItem[];
}

/** A period of access to the service (spec 2.3). */
export interface Subscription {
  subscriptionId: string;
  userId: string;
  /** 1 while active, else 0. */
  active: 0 | 1;
  startSubscription: string;
  endSubscription: string;
  createdAt: string;
  canceledAt?: string;
  renewFrom?: string;
}

/** Event types: `questionResolved` is the spec's; the others are ours (docs/architecture.md 3). */
export const WEBHOOK_EVENT_TYPES = [
  'questionResolved',
  'consultationClaimed',
  'consultationCanceled',
  'consultationClosed',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** An asynchronous event (spec 2.4). */
export interface WebhookEvent {
  type: string;
  caseId: string;
  userId: string;
}

/** A stored webhook registration (ours: the spec shows only its id in the delete path). */
export interface Webhook {
  webhookId: string;
  url: string;
  events: WebhookEventType[];
  /** Signing secret, `whsec_…`, returned once when the webhook is created (Standard Webhooks). */
  secret?: string;
  createdAt: string;
}

/** Response of the token operation (ours). */
export interface AccessToken {
  accessToken: string;
  tokenType: 'Bearer';
  /** Lifetime in seconds. */
  expiresIn: number;
}

/** One message of a health navigator conversation (ours). */
export interface NavigatorMessage {
  messageId: string;
  role: 'member' | 'navigator';
  /** Plain text from the member; markdown from the navigator. */
  text: string;
  createdAt: string;
  /** Set on a navigator reply that suggests asking a doctor. */
  suggestsDoctor?: boolean;
  /** Set on a navigator reply that urges emergency care. */
  urgent?: boolean;
}

/** A health navigator conversation (ours). */
export interface NavigatorConversation {
  conversationId: string;
  userId: string;
  createdAt: string;
  messages: NavigatorMessage[];
}

/** Response of sending a navigator message: the messages it added (ours). */
export interface NavigatorReply {
  conversationId: string;
  messages: NavigatorMessage[];
}

export type PrescriptionStatus = 'received' | 'inReview' | 'approved' | 'declined';

/** A prescription request (ours). */
export interface PrescriptionRequest {
  prescriptionId: string;
  userId: string;
  status: PrescriptionStatus;
  indicationSurvey?: Record<string, unknown>;
  createdAt: string;
}

// Request bodies (spec 4).

export interface CreateAccessTokenRequest {
  apiKey: string;
  subPartnerName?: string;
}

export interface CreateUserRequest {
  uniqueId?: string;
  language?: string;
  physicianCountry?: string;
  phone?: string;
  email?: string;
  shouldNotify?: boolean;
}

export interface UpdateUserRequest {
  language?: string;
  physicianCountry?: string;
  phone?: string;
  email?: string;
  shouldNotify?: boolean;
}

export interface SearchUsersRequest {
  uniqueId?: string;
  email?: string;
}

export interface CreateSubscriptionRequest {
  subscriptionStartDate?: string;
  subscriptionEndDate?: string;
}

export interface CreateConsultationRequest {
  userId: string;
  questions: string[];
}

export interface AddFollowUpRequest {
  question: string;
}

export interface CreateWebhookRequest {
  url: string;
  events?: WebhookEventType[];
}

export interface SendNavigatorMessageRequest {
  conversationId: string;
  message: string;
}

export interface CreatePrescriptionRequest {
  userId: string;
  indicationSurvey?: Record<string, unknown>;
}

/** One bad field of a rejected request. `field` is a dotted path such as `questions.3`. */
export interface FieldError {
  field: string;
  message: string;
}

/** Error body, `application/problem+json` (RFC 9457; ours, docs/architecture.md 3). */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  code: string;
  errors?: FieldError[];
}
