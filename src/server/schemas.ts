/**
 * The wire types of the service, written once: request bodies (which validate every request the
 * sandbox takes) and resources (which document its responses). The client's types are inferred
 * from these (src/client/types.ts, by type-only imports, so no browser bundle carries zod), and the
 * OpenAPI document is generated from them (src/sandbox/openapi.ts), so the validation, the types
 * and the documentation cannot drift apart. Field comments show in a partner's editor.
 */
import { z } from 'zod';
import { MAX_QUESTION_LENGTH, MAX_QUESTIONS_PER_CONSULTATION, WEBHOOK_EVENT_TYPES } from '../client/types.js';

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

// Each its own schema, though alike: the OpenAPI document names each operation's by identity.
export const FormatEventBody = z.record(z.string(), z.unknown());
export const StartConversationBody = z.record(z.string(), z.unknown());

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

/** User account status (spec 2.1). */
export const UserStatusSchema = z.enum(['activeUser', 'pendingActivation', 'deactivatedUser']);
/** Gender values the service accepts (spec 2.1). */
export const GenderSchema = z.enum(['male', 'other', 'female']);
/** Consultation workflow states (spec 3; transitions are ours, docs/architecture.md 3). */
export const ConsultationStatusSchema = z.enum(['open', 'claimed', 'resolved', 'canceled', 'closed']);
export const PrescriptionStatusSchema = z.enum(['received', 'inReview', 'approved', 'declined']);

/** A person who can use a configured service (spec 2.1). */
export const UserSchema = z.object({
  id: z.string(),
  uniqueId: z.string().optional(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  email: z.string().optional(),
  /** E.164, for example `+447700900123`. */
  phone: z.string().optional(),
  dateOfBirth: z.string().optional(),
  gender: GenderSchema.optional(),
  language: z.string(),
  country: z.string().optional(),
  location: z.string(),
  origin: z.string(),
  physicianCountry: z.string(),
  partnerName: z.string(),
  associatedAccounts: z.number().int().optional(),
  userStatus: UserStatusSchema.optional(),
});

export const ProfessionalLicenseSchema = z.object({
  licenseNumber: z.string(),
  countries: z.array(z.string()),
});

/** The professional who answered (spec 2.2). */
export const ProfessionalSchema = z.object({
  name: z.string(),
  title: z.string(),
  specialties: z.array(z.string()),
  licenses: z.array(ProfessionalLicenseSchema),
  profileUrl: z.string().optional(),
});

/** One question with, when available, its answer (spec 2.2). */
export const QuestionItemSchema = z.object({
  question: z.string(),
  answer: z.string().optional(),
  attachments: z.array(z.string()).optional(),
  professional: ProfessionalSchema.optional(),
});

/** A member's medical question and its workflow (spec 2.2). */
export const ConsultationSchema = z.object({
  consultationId: z.string(),
  userId: z.string(),
  status: ConsultationStatusSchema,
  createdAt: z.string(),
  questions: z.array(QuestionItemSchema).max(MAX_QUESTIONS_PER_CONSULTATION),
});

/** A period of access to the service (spec 2.3). */
export const SubscriptionSchema = z.object({
  subscriptionId: z.string(),
  userId: z.string(),
  /** 1 while active, else 0. */
  active: z.union([z.literal(0), z.literal(1)]),
  startSubscription: z.string(),
  endSubscription: z.string(),
  createdAt: z.string(),
  canceledAt: z.string().optional(),
  renewFrom: z.string().optional(),
});

/** An asynchronous event (spec 2.4). */
export const WebhookEventSchema = z.object({ type: z.string(), caseId: z.string(), userId: z.string() });

/** A stored webhook registration (ours: the spec shows only its id in the delete path). */
export const WebhookSchema = z.object({
  webhookId: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  /** Signing secret, `whsec_…`, returned once when the webhook is created (Standard Webhooks). */
  secret: z.string().optional(),
  createdAt: z.string(),
});

/** Response of the token operation (ours). */
export const AccessTokenSchema = z.object({
  accessToken: z.string(),
  tokenType: z.literal('Bearer'),
  /** Lifetime in seconds. */
  expiresIn: z.number().int(),
});

/** One message of a health navigator conversation (ours). */
export const NavigatorMessageSchema = z.object({
  messageId: z.string(),
  role: z.enum(['member', 'navigator']),
  /** Plain text from the member; markdown from the navigator. */
  text: z.string(),
  createdAt: z.string(),
  /** Set on a navigator reply that suggests asking a doctor. */
  suggestsDoctor: z.boolean().optional(),
  /** Set on a navigator reply that urges emergency care. */
  urgent: z.boolean().optional(),
});

/** A health navigator conversation (ours). */
export const NavigatorConversationSchema = z.object({
  conversationId: z.string(),
  userId: z.string(),
  createdAt: z.string(),
  messages: z.array(NavigatorMessageSchema),
});

/** Response of sending a navigator message: the messages it added (ours). */
export const NavigatorReplySchema = z.object({
  conversationId: z.string(),
  messages: z.array(NavigatorMessageSchema),
});

/** A prescription request (ours). */
export const PrescriptionRequestSchema = z.object({
  prescriptionId: z.string(),
  userId: z.string(),
  status: PrescriptionStatusSchema,
  indicationSurvey: FreeFormObject.optional(),
  createdAt: z.string(),
});

/** One bad field of a rejected request. `field` is a dotted path such as `questions.3`. */
export const FieldErrorSchema = z.object({ field: z.string(), message: z.string() });

/** Error body, `application/problem+json` (RFC 9457; ours, docs/architecture.md 3). */
export const ProblemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  code: z.string(),
  errors: z.array(FieldErrorSchema).optional(),
});
