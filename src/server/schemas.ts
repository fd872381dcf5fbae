/**
 * Schemas of the interface as the sandbox models it: request bodies (which validate every request)
 * and resources (which document responses). The OpenAPI document is generated from these, so the
 * validation and the documentation cannot drift apart.
 */
import { z } from 'zod';
import { MAX_QUESTION_LENGTH, MAX_QUESTIONS_PER_CONSULTATION, WEBHOOK_EVENT_TYPES } from '../client/types.js';
import type * as types from '../client/types.js';

// Formats the spec leaves open (ours): BCP 47 language tags, ISO 3166-1 alpha-2 countries.
export const LanguageCode = z
  .string()
  .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as "en" or "pt-BR"');
export const CountryCode = z
  .string()
  .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code such as "GB"');
export const E164Phone = z
  .string()
  .regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 phone number such as "+447700900123"');
const Email = z.email('must be an e-mail address');
const DateTime = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' });
const Id = z.string().trim().min(1, 'must not be empty').max(200);
const FreeFormObject = z.record(z.string(), z.unknown());

export const QuestionText = z
  .string('must be a string')
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_QUESTION_LENGTH, `must be at most ${MAX_QUESTION_LENGTH} characters`);

// Request bodies (spec section 4).

export const CreateAccessTokenBody = z.strictObject({
  apiKey: z.string().min(1, 'must not be empty').meta({ format: 'password', writeOnly: true }),
  subPartnerName: z.string().trim().min(1).max(100).optional(),
});

export const CreateUserBody = z.strictObject({
  uniqueId: Id.optional(),
  language: LanguageCode.optional(),
  physicianCountry: CountryCode.optional(),
  phone: E164Phone.optional(),
  email: Email.optional(),
  shouldNotify: z.boolean().optional(),
});

export const UpdateUserBody = CreateUserBody.omit({ uniqueId: true });

export const SearchUsersBody = z
  .strictObject({ uniqueId: Id.optional(), email: Email.optional() })
  .refine((b) => b.uniqueId !== undefined || b.email !== undefined, {
    message: 'give uniqueId, email or both',
    path: ['uniqueId'],
  });

export const CreateSubscriptionBody = z
  .strictObject({ subscriptionStartDate: DateTime.optional(), subscriptionEndDate: DateTime.optional() })
  .refine(
    (b) =>
      !b.subscriptionStartDate ||
      !b.subscriptionEndDate ||
      Date.parse(b.subscriptionEndDate) > Date.parse(b.subscriptionStartDate),
    { message: 'must be after subscriptionStartDate', path: ['subscriptionEndDate'] },
  );

export const CreateConsultationBody = z.strictObject({
  userId: Id,
  questions: z
    .array(QuestionText, 'must be an array of questions')
    .min(1, 'must hold at least one question')
    .max(MAX_QUESTIONS_PER_CONSULTATION, `must hold at most ${MAX_QUESTIONS_PER_CONSULTATION} questions`),
});

export const AddFollowUpBody = z.strictObject({ question: QuestionText });

export const CreateWebhookBody = z.strictObject({
  url: z.url({ protocol: /^https?$/, message: 'must be an http or https URL' }),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES))
    .min(1, 'must name at least one event; leave it out for all events')
    .optional(),
});

export const FormatEventBody = FreeFormObject;
export const StartConversationBody = FreeFormObject;

export const SendMessageBody = z.strictObject({
  conversationId: Id,
  message: z
    .string('must be a string')
    .trim()
    .min(1, 'must not be empty')
    .max(4000, 'must be at most 4000 characters'),
});

export const CreatePrescriptionBody = z.strictObject({
  userId: Id,
  indicationSurvey: FreeFormObject.optional(),
});

// Resources (spec section 2, and docs/architecture.md 3 for the records the spec does not show).

export const UserSchema = z.object({
  id: z.string(),
  uniqueId: z.string().optional(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
  dateOfBirth: z.string().optional(),
  gender: z.enum(['male', 'other', 'female']).optional(),
  language: z.string(),
  country: z.string().optional(),
  location: z.string(),
  origin: z.string(),
  physicianCountry: z.string(),
  partnerName: z.string(),
  associatedAccounts: z.number().int().optional(),
  userStatus: z.enum(['activeUser', 'pendingActivation', 'deactivatedUser']).optional(),
});

export const ProfessionalSchema = z.object({
  name: z.string(),
  title: z.string(),
  specialties: z.array(z.string()),
  licenses: z.array(z.object({ licenseNumber: z.string(), countries: z.array(z.string()) })),
  profileUrl: z.string().optional(),
});

export const ConsultationSchema = z.object({
  consultationId: z.string(),
  userId: z.string(),
  status: z.enum(['open', 'claimed', 'resolved', 'canceled', 'closed']),
  createdAt: z.string(),
  questions: z
    .array(
      z.object({
        question: z.string(),
        answer: z.string().optional(),
        attachments: z.array(z.string()).optional(),
        professional: ProfessionalSchema.optional(),
      }),
    )
    .max(MAX_QUESTIONS_PER_CONSULTATION),
});

export const SubscriptionSchema = z.object({
  subscriptionId: z.string(),
  userId: z.string(),
  active: z.union([z.literal(0), z.literal(1)]),
  startSubscription: z.string(),
  endSubscription: z.string(),
  createdAt: z.string(),
  canceledAt: z.string().optional(),
  renewFrom: z.string().optional(),
});

export const WebhookEventSchema = z.object({ type: z.string(), caseId: z.string(), userId: z.string() });

export const WebhookSchema = z.object({
  webhookId: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  secret: z.string().optional(),
  createdAt: z.string(),
});

export const AccessTokenSchema = z.object({
  accessToken: z.string(),
  tokenType: z.literal('Bearer'),
  expiresIn: z.number().int(),
});

export const NavigatorMessageSchema = z.object({
  messageId: z.string(),
  role: z.enum(['member', 'navigator']),
  text: z.string(),
  createdAt: z.string(),
  suggestsDoctor: z.boolean().optional(),
  urgent: z.boolean().optional(),
});

export const NavigatorConversationSchema = z.object({
  conversationId: z.string(),
  userId: z.string(),
  createdAt: z.string(),
  messages: z.array(NavigatorMessageSchema),
});

export const NavigatorReplySchema = z.object({
  conversationId: z.string(),
  messages: z.array(NavigatorMessageSchema),
});

export const PrescriptionRequestSchema = z.object({
  prescriptionId: z.string(),
  userId: z.string(),
  status: z.enum(['received', 'inReview', 'approved', 'declined']),
  indicationSurvey: FreeFormObject.optional(),
  createdAt: z.string(),
});

export const ProblemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  code: z.string(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});

// The schemas above and the client's hand-written types describe the same records: the client
// carries no validation library, so tsc checks here that the two never drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type _SchemasMatchClientTypes = [
  Assert<Same<z.infer<typeof UserSchema>, types.User>>,
  Assert<Same<z.infer<typeof ConsultationSchema>, types.Consultation>>,
  Assert<Same<z.infer<typeof SubscriptionSchema>, types.Subscription>>,
  Assert<Same<z.infer<typeof WebhookEventSchema>, types.WebhookEvent>>,
  Assert<Same<z.infer<typeof WebhookSchema>, types.Webhook>>,
  Assert<Same<z.infer<typeof AccessTokenSchema>, types.AccessToken>>,
  Assert<Same<z.infer<typeof NavigatorConversationSchema>, types.NavigatorConversation>>,
  Assert<Same<z.infer<typeof NavigatorReplySchema>, types.NavigatorReply>>,
  Assert<Same<z.infer<typeof PrescriptionRequestSchema>, types.PrescriptionRequest>>,
  Assert<Same<z.infer<typeof ProblemSchema>, types.Problem>>,
  Assert<Same<z.input<typeof CreateUserBody>, types.CreateUserRequest>>,
  Assert<Same<z.input<typeof UpdateUserBody>, types.UpdateUserRequest>>,
  Assert<Same<z.input<typeof CreateConsultationBody>, types.CreateConsultationRequest>>,
  Assert<Same<z.input<typeof AddFollowUpBody>, types.AddFollowUpRequest>>,
  Assert<Same<z.input<typeof SendMessageBody>, types.SendNavigatorMessageRequest>>,
  Assert<Same<z.input<typeof CreatePrescriptionBody>, types.CreatePrescriptionRequest>>,
  Assert<Same<z.input<typeof CreateSubscriptionBody>, types.CreateSubscriptionRequest>>,
  Assert<Same<z.input<typeof SearchUsersBody>, types.SearchUsersRequest>>,
  Assert<Same<z.input<typeof CreateAccessTokenBody>, types.CreateAccessTokenRequest>>,
];
