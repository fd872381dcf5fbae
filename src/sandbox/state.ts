/**
 * The sandbox's records and the rules of each operation (docs/architecture.md 3). Route handlers call these
 * methods; everything that changes a record lives here or in accounts.ts (users and subscriptions, which this
 * builds on), so the rules read in one place.
 */
import {
  MAX_QUESTIONS_PER_CONSULTATION,
  WEBHOOK_EVENT_TYPES,
  type Consultation,
  type NavigatorConversation,
  type NavigatorMessage,
  type NavigatorReply,
  type PrescriptionRequest,
  type Professional,
  type Webhook,
  type WebhookEventType,
} from '../client/types.js';
import { ProblemError, unknownId } from '../server/problems.js';
import { clone, SandboxAccounts } from './accounts.js';
import type { SandboxClock } from './clock.js';
import { newId } from './ids.js';
import { navigatorGreeting, navigatorRespond, type NavigatorResponse } from './navigator.js';
import { answerFor, professionalFor } from './professionals.js';
import { newWebhookSecret, type StoredWebhook, type WebhookDispatcher } from './webhook-delivery.js';

export interface StoredConsultation extends Consultation {
  /** The professional who claimed it; answers are given in their name. */
  claimedBy?: Professional;
}

/** ISO 8601 times in UTC sort as text; a plain comparison, not a locale's collation. */
const newestFirst = (a: { createdAt: string }, b: { createdAt: string }) =>
  a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0;

export class SandboxState extends SandboxAccounts {
  consultations = new Map<string, StoredConsultation>();
  webhooks = new Map<string, StoredWebhook>();
  conversations = new Map<string, NavigatorConversation>();
  prescriptions = new Map<string, PrescriptionRequest>();

  constructor(
    clock: SandboxClock,
    partnerName: string,
    private readonly dispatcher: WebhookDispatcher,
    /** Called after a consultation gains an unanswered question (the professionals schedule work). */
    private readonly onQuestionAsked: (consultation: StoredConsultation) => void,
    /** Called when a consultation is read through the API (the member opened it). */
    private readonly onConsultationRead: (consultation: StoredConsultation) => void = () => undefined,
  ) {
    super(clock, partnerName);
  }

  /** Replies the navigator gives next, before its own rules (`POST /_sandbox/navigator/replies`). */
  navigatorReplies: NavigatorResponse[] = [];

  override clear(): void {
    super.clear();
    this.navigatorReplies = [];
    for (const map of [this.consultations, this.webhooks, this.conversations, this.prescriptions]) {
      map.clear();
    }
  }

  // Consultations (operations 11–14) and their lifecycle (docs/architecture.md 3).

  createConsultation(userId: string, questions: string[]): Consultation {
    this.#assertMayConsult(userId);
    const consultation: StoredConsultation = {
      consultationId: newId('cns'),
      userId,
      status: 'open',
      createdAt: this.clock.nowIso(),
      questions: questions.map((question) => ({ question })),
    };
    this.consultations.set(consultation.consultationId, consultation);
    this.onQuestionAsked(consultation);
    return this.presentConsultation(consultation);
  }

  getConsultation(consultationId: string): Consultation {
    const consultation = this.consultation(consultationId);
    this.onConsultationRead(consultation);
    return this.presentConsultation(consultation);
  }

  addFollowUp(consultationId: string, question: string): Consultation {
    const consultation = this.consultation(consultationId);
    this.#assertNotFinal(consultation);
    if (consultation.questions.length >= MAX_QUESTIONS_PER_CONSULTATION) {
      throw ProblemError.conflict({
        code: 'question_limit_reached',
        title: 'Question limit reached',
        detail: `A consultation holds at most ${MAX_QUESTIONS_PER_CONSULTATION} questions.`,
      });
    }
    consultation.questions.push({ question });
    // A follow-up on a resolved case reopens it; on open or claimed the status stays.
    if (consultation.status === 'resolved') consultation.status = 'open';
    this.onQuestionAsked(consultation);
    return this.presentConsultation(consultation);
  }

  getCaseHistory(userId: string): Consultation[] {
    this.storedUser(userId);
    return [...this.consultations.values()]
      .filter((c) => c.userId === userId)
      .sort(newestFirst)
      .map((c) => this.presentConsultation(c));
  }

  claim(consultationId: string, professional?: Professional): Consultation {
    const consultation = this.consultation(consultationId);
    if (consultation.status !== 'open') {
      throw ProblemError.conflict({
        code: 'invalid_transition',
        detail: `Only an open consultation can be claimed; this one is ${consultation.status}.`,
      });
    }
    this.#claim(consultation, professional);
    return this.presentConsultation(consultation);
  }

  /** Answers every unanswered question with `answer` (or the professional's own words) and resolves. */
  answer(consultationId: string, answer?: string, professional?: Professional): Consultation {
    const consultation = this.consultation(consultationId);
    this.#assertNotFinal(consultation);
    const unanswered = consultation.questions.filter((q) => q.answer === undefined);
    if (unanswered.length === 0) {
      throw ProblemError.conflict({
        code: 'nothing_to_answer',
        detail: 'Every question of this consultation is answered.',
      });
    }
    if (consultation.status === 'open') this.#claim(consultation, professional);
    const language = this.users.get(consultation.userId)?.language;
    const answeredBy =
      professional ?? consultation.claimedBy ?? professionalFor(unanswered[0]?.question ?? '', language);
    for (const item of unanswered) {
      // In the member's language (Arabic for a question written in Arabic), on the question's
      // topic, or the consultation's for a follow-up that names none.
      const earlier = consultation.questions
        .slice(0, consultation.questions.indexOf(item))
        .map((q) => q.question);
      item.answer = answer ?? answerFor(item.question, language, earlier).answer;
      item.professional = clone(answeredBy);
    }
    consultation.status = 'resolved';
    this.#emit('questionResolved', consultation);
    return this.presentConsultation(consultation);
  }

  cancel(consultationId: string): Consultation {
    return this.#finish(consultationId, 'canceled', 'consultationCanceled');
  }

  close(consultationId: string): Consultation {
    return this.#finish(consultationId, 'closed', 'consultationClosed');
  }

  consultation(consultationId: string): StoredConsultation {
    const consultation = this.consultations.get(consultationId);
    if (!consultation) throw unknownId('consultation', consultationId);
    return consultation;
  }

  /**
   * The consultation as the service answers it. Once claimed, the questions the professional is
   * working on carry that professional (ours: the spec gives a question its professional "when
   * available"), so a member can see who is on the case before the answer.
   */
  presentConsultation(consultation: StoredConsultation): Consultation {
    const { claimedBy, ...visible } = consultation;
    const presented = clone(visible);
    if (presented.status === 'claimed' && claimedBy) {
      for (const item of presented.questions) {
        if (item.answer === undefined) item.professional = clone(claimedBy);
      }
    }
    return presented;
  }

  #claim(consultation: StoredConsultation, professional?: Professional): void {
    consultation.claimedBy =
      professional ??
      professionalFor(
        consultation.questions[0]?.question ?? '',
        this.users.get(consultation.userId)?.language,
      );
    consultation.status = 'claimed';
    this.#emit('consultationClaimed', consultation);
  }

  #finish(consultationId: string, status: 'canceled' | 'closed', event: WebhookEventType): Consultation {
    const consultation = this.consultation(consultationId);
    this.#assertNotFinal(consultation);
    consultation.status = status;
    this.#emit(event, consultation);
    return this.presentConsultation(consultation);
  }

  #assertNotFinal(consultation: StoredConsultation): void {
    if (consultation.status === 'canceled' || consultation.status === 'closed') {
      throw ProblemError.conflict({
        code: 'consultation_closed',
        title: 'Consultation closed',
        detail: `This consultation is ${consultation.status}; it takes no more questions.`,
      });
    }
  }

  /** Only an active user with an active subscription may ask (ours: the spec's "configured service"). */
  #assertMayConsult(userId: string): void {
    const user = this.storedUser(userId);
    if (user.userStatus && user.userStatus !== 'activeUser') {
      throw ProblemError.forbidden({
        code: 'user_inactive',
        detail: `The user's account is ${user.userStatus}.`,
      });
    }
    if (!this.hasActiveSubscription(userId)) {
      throw ProblemError.forbidden({
        code: 'subscription_required',
        detail: 'The user has no active subscription.',
      });
    }
  }

  #emit(type: WebhookEventType, consultation: StoredConsultation): void {
    this.dispatcher.dispatch(this.webhooks.values(), {
      type,
      caseId: consultation.consultationId,
      userId: consultation.userId,
    });
  }

  // Webhooks (operations 15–16).

  createWebhook(url: string, events: WebhookEventType[] = [...WEBHOOK_EVENT_TYPES]): Webhook {
    const webhook: StoredWebhook = {
      webhookId: newId('whk'),
      url,
      events: [...new Set(events)],
      secret: newWebhookSecret(),
      createdAt: this.clock.nowIso(),
    };
    this.webhooks.set(webhook.webhookId, webhook);
    return clone(webhook);
  }

  deleteWebhook(webhookId: string): void {
    if (!this.webhooks.delete(webhookId)) throw unknownId('webhook', webhookId);
  }

  // Health navigator (operations 18–19).

  startConversation(userId: string): NavigatorConversation {
    const user = this.storedUser(userId);
    const createdAt = this.clock.nowIso();
    const conversation: NavigatorConversation = {
      conversationId: newId('cnv'),
      userId,
      createdAt,
      messages: [
        { messageId: newId('msg'), role: 'navigator', text: navigatorGreeting(user.language), createdAt },
      ],
    };
    this.conversations.set(conversation.conversationId, conversation);
    return clone(conversation);
  }

  sendMessage(conversationId: string, text: string): NavigatorReply {
    const conversation = this.conversations.get(conversationId);
    if (!conversation) throw unknownId('conversation', conversationId);
    const createdAt = this.clock.nowIso();
    // The navigator answers in the member's language.
    const reply =
      this.navigatorReplies.shift() ??
      navigatorRespond(text, this.users.get(conversation.userId)?.language, {
        mayAskDoctor: this.hasActiveSubscription(conversation.userId),
      });
    const added: NavigatorMessage[] = [
      { messageId: newId('msg'), role: 'member', text, createdAt },
      {
        messageId: newId('msg'),
        role: 'navigator',
        text: reply.text,
        createdAt,
        ...(reply.suggestsDoctor ? { suggestsDoctor: true } : {}),
        ...(reply.urgent ? { urgent: true } : {}),
      },
    ];
    conversation.messages.push(...added);
    return { conversationId, messages: clone(added) };
  }

  // Prescriptions (operation 20).

  createPrescription(userId: string, indicationSurvey?: Record<string, unknown>): PrescriptionRequest {
    this.storedUser(userId);
    const request: PrescriptionRequest = {
      prescriptionId: newId('rx'),
      userId,
      status: 'received',
      ...(indicationSurvey ? { indicationSurvey } : {}),
      createdAt: this.clock.nowIso(),
    };
    this.prescriptions.set(request.prescriptionId, request);
    return clone(request);
  }
}
