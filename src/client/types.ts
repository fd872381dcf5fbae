/**
 * Resource and request types of the partner health consultation service, inferred from the zod
 * schemas that validate and document them (src/server/schemas.ts): written once, there. The
 * imports are type-only, so nothing here loads zod; the published declarations of these types are
 * written out as plain ones (scripts/flatten-declarations.ts), so reading them needs no zod either.
 *
 * Field tables follow spec sections 2 (resources) and 4 (request bodies). Where the spec says
 * "not shown", the shape is the one docs/architecture.md section 3 chose; those are marked (ours).
 */
import type { z } from 'zod';
import type * as schemas from '../server/schemas.js';

/** User account status (spec 2.1). */
export type UserStatus = z.infer<typeof schemas.UserStatusSchema>;

/** Gender values the service accepts (spec 2.1). */
export type Gender = z.infer<typeof schemas.GenderSchema>;

/** A person who can use a configured service (spec 2.1). */
export type User = z.infer<typeof schemas.UserSchema>;

/** Consultation workflow states (spec 3; transitions are ours, docs/architecture.md 3). */
export type ConsultationStatus = z.infer<typeof schemas.ConsultationStatusSchema>;

/** States after which no follow-up is accepted. */
export const FINAL_CONSULTATION_STATUSES: readonly ConsultationStatus[] = ['canceled', 'closed'];

/** Most questions one consultation may hold, the ones it was created with included (spec 8). */
export const MAX_QUESTIONS_PER_CONSULTATION = 3;

/** Longest question accepted, in characters (ours). */
export const MAX_QUESTION_LENGTH = 2000;

export type ProfessionalLicense = z.infer<typeof schemas.ProfessionalLicenseSchema>;

/** The professional who answered (spec 2.2). */
export type Professional = z.infer<typeof schemas.ProfessionalSchema>;

/** One question with, when available, its answer (spec 2.2). */
export type QuestionItem = z.infer<typeof schemas.QuestionItemSchema>;

/** A member's medical question and its workflow (spec 2.2). */
export type Consultation = z.infer<typeof schemas.ConsultationSchema>;

/** A period of access to the service (spec 2.3). */
export type Subscription = z.infer<typeof schemas.SubscriptionSchema>;

/** Event types: `questionResolved` is the spec's; the others are ours (docs/architecture.md 3). */
export const WEBHOOK_EVENT_TYPES = [
  'questionResolved',
  'consultationClaimed',
  'consultationCanceled',
  'consultationClosed',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** An asynchronous event (spec 2.4). */
export type WebhookEvent = z.infer<typeof schemas.WebhookEventSchema>;

/** A stored webhook registration (ours: the spec shows only its id in the delete path). */
export type Webhook = z.infer<typeof schemas.WebhookSchema>;

/** Response of the token operation (ours). */
export type AccessToken = z.infer<typeof schemas.AccessTokenSchema>;

/** One message of a health navigator conversation (ours). */
export type NavigatorMessage = z.infer<typeof schemas.NavigatorMessageSchema>;

/** A health navigator conversation (ours). */
export type NavigatorConversation = z.infer<typeof schemas.NavigatorConversationSchema>;

/** Response of sending a navigator message: the messages it added (ours). */
export type NavigatorReply = z.infer<typeof schemas.NavigatorReplySchema>;

export type PrescriptionStatus = z.infer<typeof schemas.PrescriptionStatusSchema>;

/** A prescription request (ours). */
export type PrescriptionRequest = z.infer<typeof schemas.PrescriptionRequestSchema>;

// Request bodies (spec 4): what a caller may pass, before the service's defaults and trimming.

export type CreateAccessTokenRequest = z.input<typeof schemas.CreateAccessTokenBody>;
export type CreateUserRequest = z.input<typeof schemas.CreateUserBody>;
export type UpdateUserRequest = z.input<typeof schemas.UpdateUserBody>;
export type SearchUsersRequest = z.input<typeof schemas.SearchUsersBody>;
export type CreateSubscriptionRequest = z.input<typeof schemas.CreateSubscriptionBody>;
export type CreateConsultationRequest = z.input<typeof schemas.CreateConsultationBody>;
export type AddFollowUpRequest = z.input<typeof schemas.AddFollowUpBody>;
export type CreateWebhookRequest = z.input<typeof schemas.CreateWebhookBody>;
export type FormatWebhookEventRequest = z.input<typeof schemas.FormatEventBody>;
export type StartNavigatorConversationRequest = z.input<typeof schemas.StartConversationBody>;
export type SendNavigatorMessageRequest = z.input<typeof schemas.SendMessageBody>;
export type CreatePrescriptionRequest = z.input<typeof schemas.CreatePrescriptionBody>;

/** One bad field of a rejected request. `field` is a dotted path such as `questions.3`. */
export type FieldError = z.infer<typeof schemas.FieldErrorSchema>;

/** Error body, `application/problem+json` (RFC 9457; ours, docs/architecture.md 3). */
export type Problem = z.infer<typeof schemas.ProblemSchema>;
