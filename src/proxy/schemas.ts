/**
 * What a browser may send (closed schemas: an unknown field is a 400 before any upstream call,
 * docs/security.md S5) and what it gets back (projections: only the fields the elements need).
 */
import { z } from 'zod';
import {
  AddFollowUpBody,
  ConsultationSchema,
  NavigatorConversationSchema,
  NavigatorReplySchema,
  QuestionText,
} from '../server/schemas.js';
import { MAX_QUESTIONS_PER_CONSULTATION, WEBHOOK_EVENT_TYPES } from '../client/types.js';
import type * as browser from '../client/browser-types.js';

/** Ids in paths and bodies: opaque, but never `..`, slashes or anything a URL would reinterpret. */
export const IdParam = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'is not a valid id');

export const BrowserCreateConsultation = z.strictObject({
  /** Optional, and must be the member's own: the proxy sets it. */
  userId: IdParam.optional(),
  questions: z
    .array(QuestionText, 'must be an array of questions')
    .min(1, 'must hold at least one question')
    .max(MAX_QUESTIONS_PER_CONSULTATION, `must hold at most ${MAX_QUESTIONS_PER_CONSULTATION} questions`),
});

export const BrowserFollowUp = AddFollowUpBody;

/** Operation 18's body is free-form upstream; from a browser only these optional hints pass. */
export const BrowserStartConversation = z.strictObject({
  topic: z.string().trim().max(100).optional(),
});

export const BrowserSendMessage = z.strictObject({
  conversationId: IdParam,
  message: z
    .string('must be a string')
    .trim()
    .min(1, 'must not be empty')
    .max(4000, 'must be at most 4000 characters'),
});

export const BrowserCreatePrescription = z.strictObject({
  userId: IdParam.optional(),
  indicationSurvey: z.record(z.string().max(100), z.unknown()).optional(),
});

export const DemoSignInBody = z.strictObject({
  demoUser: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be a demo member such as "alex"'),
});

// Projections: z.object strips every field not named here, so an upstream addition never reaches a browser.

export const MemberView = z.object({
  id: z.string(),
  uniqueId: z.string().optional(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  language: z.string(),
  physicianCountry: z.string().optional(),
  userStatus: z.enum(['activeUser', 'pendingActivation', 'deactivatedUser']).optional(),
});

export const SubscriptionView = z.object({
  subscriptionId: z.string(),
  userId: z.string(),
  active: z.union([z.literal(0), z.literal(1)]),
  startSubscription: z.string(),
  endSubscription: z.string(),
  canceledAt: z.string().optional(),
  renewFrom: z.string().optional(),
});

export const ConsultationView = ConsultationSchema;
export const ConversationView = NavigatorConversationSchema;
export const ReplyView = NavigatorReplySchema;

export const PrescriptionView = z.object({
  prescriptionId: z.string(),
  userId: z.string(),
  status: z.string(),
  createdAt: z.string(),
});

export const BrowserEvent = z.object({
  type: z.enum([...WEBHOOK_EVENT_TYPES, 'consultationChanged']),
  consultationId: z.string(),
  status: z.string(),
});

// One contract between proxy and browser: the views above produce exactly the browser's wire types
// (src/client/browser-types.ts), field for field, so neither can drift without tsc saying so.
type Exactly<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<T extends true> = T;
export type _ViewsAreTheBrowserContract = [
  Assert<Exactly<z.output<typeof MemberView>, browser.MemberView>>,
  Assert<Exactly<z.output<typeof SubscriptionView>, browser.SubscriptionView>>,
  Assert<Exactly<z.output<typeof ConsultationView>, browser.ConsultationView>>,
  Assert<Exactly<z.output<typeof ConversationView>, browser.ConversationView>>,
  Assert<Exactly<z.output<typeof ReplyView>, browser.ReplyView>>,
  Assert<Exactly<z.output<typeof PrescriptionView>, browser.PrescriptionView>>,
  Assert<Exactly<z.output<typeof BrowserEvent>, browser.ConsultationEvent>>,
];
