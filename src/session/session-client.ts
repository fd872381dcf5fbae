/**
 * The client a member's browser uses: the eleven operations the proxy forwards to a member, each
 * typed as the proxy's view of it (src/client/browser-types.ts). Only these operations ship to
 * browsers; the server's `ConsultClient` has all 20.
 */
import type {
  BrowserClient,
  ConsultationView,
  KeptPrescription,
  SeenView,
  ConversationView,
  MemberView,
  PrescriptionView,
  ReplyView,
  SubscriptionView,
} from '../client/browser-types.js';
import {
  addConsultationFollowUpOperation,
  createConsultationOperation,
  createPrescriptionRequestOperation,
  getCaseHistoryOperation,
  getConsultationOperation,
  getSubscriptionHistoryOperation,
  getSubscriptionOperation,
  getUserOperation,
  getUserSubscriptionsOperation,
  OperationClient,
  sendNavigatorMessageOperation,
  startNavigatorConversationOperation,
  type Operation,
  type RequestOptions,
} from '../client/client.js';
import type {
  AddFollowUpRequest,
  CreateConsultationRequest,
  CreatePrescriptionRequest,
  SendNavigatorMessageRequest,
} from '../client/types.js';

export class SessionClient extends OperationClient implements BrowserClient {
  getUser(userId: string, options?: RequestOptions): Promise<MemberView> {
    return this.call(getUserOperation, { params: { userId } }, options);
  }

  getUserSubscriptions(userId: string, options?: RequestOptions): Promise<SubscriptionView[]> {
    return this.call(getUserSubscriptionsOperation, { params: { userId } }, options);
  }

  getSubscription(
    userId: string,
    subscriptionId: string,
    options?: RequestOptions,
  ): Promise<SubscriptionView> {
    return this.call(getSubscriptionOperation, { params: { userId, subscriptionId } }, options);
  }

  getSubscriptionHistory(
    userId: string,
    subscriptionId: string,
    options?: RequestOptions,
  ): Promise<SubscriptionView[]> {
    return this.call(getSubscriptionHistoryOperation, { params: { userId, subscriptionId } }, options);
  }

  createConsultation(body: CreateConsultationRequest, options?: RequestOptions): Promise<ConsultationView> {
    return this.call(createConsultationOperation, { body }, options);
  }

  getConsultation(consultationId: string, options?: RequestOptions): Promise<ConsultationView> {
    return this.call(getConsultationOperation, { params: { consultationId } }, options);
  }

  addConsultationFollowUp(
    consultationId: string,
    body: AddFollowUpRequest,
    options?: RequestOptions,
  ): Promise<ConsultationView> {
    return this.call(addConsultationFollowUpOperation, { params: { consultationId }, body }, options);
  }

  getCaseHistory(userId: string, options?: RequestOptions): Promise<ConsultationView[]> {
    return this.call(getCaseHistoryOperation, { params: { userId } }, options);
  }

  startNavigatorConversation(
    userId: string,
    body: Record<string, unknown> = {},
    options?: RequestOptions,
  ): Promise<ConversationView> {
    return this.call(startNavigatorConversationOperation, { params: { userId }, body }, options);
  }

  sendNavigatorMessage(body: SendNavigatorMessageRequest, options?: RequestOptions): Promise<ReplyView> {
    return this.call(sendNavigatorMessageOperation, { body }, options);
  }

  createPrescriptionRequest(
    body: CreatePrescriptionRequest,
    options?: RequestOptions,
  ): Promise<PrescriptionView> {
    return this.call(createPrescriptionRequestOperation, { body }, options);
  }

  markConsultationSeen(consultationId: string, answers: number, options?: RequestOptions): Promise<SeenView> {
    return this.call(markSeenOperation, { params: { consultationId }, body: { answers } }, options);
  }

  getPrescriptions(options?: RequestOptions): Promise<KeptPrescription[]> {
    return this.call(getPrescriptionsOperation, {}, options);
  }
}

// The proxy's own routes (docs/architecture.md 2.1), numbered 0: they are no operation of the service.
/** A PUT of a count that only rises: safe to repeat. */
const markSeenOperation = {
  name: 'markConsultationSeen',
  number: 0,
  method: 'PUT',
  path: '/consultations/{consultationId}/seen',
  auth: true,
  creates: false,
  retrySafe: true,
} as const satisfies Operation;
const getPrescriptionsOperation = {
  name: 'getPrescriptions',
  number: 0,
  method: 'GET',
  path: '/prescriptions',
  auth: true,
  creates: false,
  retrySafe: true,
} as const satisfies Operation;
