/**
 * What a browser may send (closed schemas: an unknown field is a 400 before any upstream call,
 * docs/security.md S5) and what it gets back (projections: only the fields the elements need).
 *
 * Written with zod/mini, whose functions a bundler keeps only when used: the proxy bundled for an
 * edge runtime carries a small part of zod (test/node/edge-bundle.test.ts holds its weight). The
 * sandbox's schemas (src/server/schemas.ts) stay with zod's full API, for its OpenAPI document;
 * test/node/proxy-schemas.test.ts checks that the ones both describe decide the same.
 */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { MAX_QUESTION_LENGTH, MAX_QUESTIONS_PER_CONSULTATION, WEBHOOK_EVENT_TYPES } from '../client/types.js';
import type { $ZodType } from 'zod/v4/core';
import type { MemberOperationName } from '../client/operations.js';
import type * as upstream from '../server/schemas.js';

// zod/mini says only "Invalid input" until a locale is chosen; the messages a browser sees stay zod's English.
if (!z.config().localeError) z.config(en());

/** Ids in paths and bodies: opaque, but never `..`, slashes or anything a URL would reinterpret. */
export const IdParam = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,128}$/, 'is not a valid id'));

/** One question, as the service takes it (src/server/schemas.ts `QuestionText`). */
const QuestionText = z
  .string('must be a string')
  .check(
    z.trim(),
    z.minLength(1, 'must not be empty'),
    z.maxLength(MAX_QUESTION_LENGTH, `must be at most ${MAX_QUESTION_LENGTH} characters`),
  );

export const BrowserCreateConsultation = z.strictObject({
  /** Optional, and must be the member's own: the proxy sets it. */
  userId: z.optional(IdParam),
  questions: z
    .array(QuestionText, 'must be an array of questions')
    .check(
      z.minLength(1, 'must hold at least one question'),
      z.maxLength(
        MAX_QUESTIONS_PER_CONSULTATION,
        `must hold at most ${MAX_QUESTIONS_PER_CONSULTATION} questions`,
      ),
    ),
});

/** The service's own follow-up body (src/server/schemas.ts `AddFollowUpBody`). */
export const BrowserFollowUp = z.strictObject({ question: QuestionText });

/** Operation 18's body is free-form upstream; from a browser only these optional hints pass. */
export const BrowserStartConversation = z.strictObject({
  topic: z.optional(z.string().check(z.trim(), z.maxLength(100))),
});

export const BrowserSendMessage = z.strictObject({
  conversationId: IdParam,
  message: z
    .string('must be a string')
    .check(
      z.trim(),
      z.minLength(1, 'must not be empty'),
      z.maxLength(4000, 'must be at most 4000 characters'),
    ),
});

export const BrowserCreatePrescription = z.strictObject({
  userId: z.optional(IdParam),
  indicationSurvey: z.optional(z.record(z.string().check(z.maxLength(100)), z.unknown())),
});

export const DemoSignInBody = z.strictObject({
  demoUser: z.string().check(z.regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be a demo member such as "alex"')),
});

// Projections: z.object strips every field not named here, so an upstream addition never reaches a browser.

export const MemberView = z.object({
  id: z.string(),
  uniqueId: z.optional(z.string()),
  firstName: z.optional(z.string()),
  lastName: z.optional(z.string()),
  language: z.string(),
  physicianCountry: z.optional(z.string()),
  userStatus: z.optional(z.enum(['activeUser', 'pendingActivation', 'deactivatedUser'])),
});

export const SubscriptionView = z.object({
  subscriptionId: z.string(),
  userId: z.string(),
  active: z.union([z.literal(0), z.literal(1)]),
  startSubscription: z.string(),
  endSubscription: z.string(),
  canceledAt: z.optional(z.string()),
  renewFrom: z.optional(z.string()),
});

/** The consultation as the service sends it (src/server/schemas.ts `ConsultationSchema`). */
export const ConsultationView = z.object({
  consultationId: z.string(),
  userId: z.string(),
  status: z.enum(['open', 'claimed', 'resolved', 'canceled', 'closed']),
  createdAt: z.string(),
  questions: z
    .array(
      z.object({
        question: z.string(),
        answer: z.optional(z.string()),
        attachments: z.optional(z.array(z.string())),
        professional: z.optional(
          z.object({
            name: z.string(),
            title: z.string(),
            specialties: z.array(z.string()),
            licenses: z.array(z.object({ licenseNumber: z.string(), countries: z.array(z.string()) })),
            profileUrl: z.optional(z.string()),
          }),
        ),
      }),
    )
    .check(z.maxLength(MAX_QUESTIONS_PER_CONSULTATION)),
});

/** `PUT {base}/consultations/{id}/seen`: how many answers the member has had on screen. */
export const BrowserSeen = z.strictObject({
  answers: z
    .number('must be a number')
    .check(
      z.int('must be a whole number'),
      z.minimum(0, 'must be 0 or more'),
      z.maximum(MAX_QUESTIONS_PER_CONSULTATION, `must be at most ${MAX_QUESTIONS_PER_CONSULTATION}`),
    ),
});

const NavigatorMessage = z.object({
  messageId: z.string(),
  role: z.enum(['member', 'navigator']),
  text: z.string(),
  createdAt: z.string(),
  suggestsDoctor: z.optional(z.boolean()),
  urgent: z.optional(z.boolean()),
});

/** As the service sends them (src/server/schemas.ts `NavigatorConversationSchema`, `NavigatorReplySchema`). */
export const ConversationView = z.object({
  conversationId: z.string(),
  userId: z.string(),
  createdAt: z.string(),
  messages: z.array(NavigatorMessage),
});

export const ReplyView = z.object({
  conversationId: z.string(),
  messages: z.array(NavigatorMessage),
});

export const PrescriptionView = z.object({
  prescriptionId: z.string(),
  userId: z.string(),
  status: z.string(),
  createdAt: z.string(),
});

export const BrowserEvent = z.object({
  type: z.enum([...WEBHOOK_EVENT_TYPES, 'consultationChanged', 'consultationSeen']),
  consultationId: z.string(),
  status: z.string(),
  /** `consultationSeen` only: how many of its answers the member has now seen. */
  answers: z.optional(z.number()),
});

/**
 * What the proxy answers a member for each operation it forwards: the browser's types are these
 * schemas' outputs (src/client/browser-types.ts), and the keys are exactly the operations table's
 * member operations (src/client/operations.ts).
 */
export const MEMBER_VIEWS = {
  getUser: MemberView,
  getUserSubscriptions: z.array(SubscriptionView),
  getSubscription: SubscriptionView,
  getSubscriptionHistory: z.array(SubscriptionView),
  createConsultation: ConsultationView,
  getConsultation: ConsultationView,
  addConsultationFollowUp: ConsultationView,
  getCaseHistory: z.array(ConsultationView),
  startNavigatorConversation: ConversationView,
  sendNavigatorMessage: ReplyView,
  createPrescriptionRequest: PrescriptionView,
} satisfies { [N in MemberOperationName]: $ZodType };

// The schemas this file repeats from the sandbox's take and give the same types as those
// (test/node/proxy-schemas.test.ts checks that they decide alike).
type Exactly<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<T extends true> = T;
export type _RepeatedSchemasMatchTheSandboxs = [
  Assert<Exactly<z.output<typeof ConsultationView>, z.output<typeof upstream.ConsultationSchema>>>,
  Assert<Exactly<z.output<typeof ConversationView>, z.output<typeof upstream.NavigatorConversationSchema>>>,
  Assert<Exactly<z.output<typeof ReplyView>, z.output<typeof upstream.NavigatorReplySchema>>>,
  Assert<Exactly<z.input<typeof BrowserFollowUp>, z.input<typeof upstream.AddFollowUpBody>>>,
  Assert<Exactly<z.output<typeof BrowserFollowUp>, z.output<typeof upstream.AddFollowUpBody>>>,
];
