/**
 * The sandbox's records and the rules of each operation (docs/architecture.md 3). Route handlers call these
 * methods; everything that changes a record lives here, so the rules read in one place.
 */
import {
  MAX_QUESTIONS_PER_CONSULTATION,
  WEBHOOK_EVENT_TYPES,
  type Consultation,
  type CreateSubscriptionRequest,
  type CreateUserRequest,
  type NavigatorConversation,
  type NavigatorMessage,
  type NavigatorReply,
  type PrescriptionRequest,
  type Professional,
  type Subscription,
  type UpdateUserRequest,
  type User,
  type UserStatus,
  type Webhook,
  type WebhookEventType,
} from '../client/types.js';
import type { SandboxClock } from './clock.js';
import { navigatorGreeting, navigatorRespond, type NavigatorResponse } from './navigator.js';
import { ProblemError, unknownId } from '../server/problems.js';
import { answerFor, professionalFor } from './professionals.js';
import {
  newWebhookSecret,
  randomBytes,
  type StoredWebhook,
  type WebhookDispatcher,
} from './webhook-delivery.js';

export interface StoredUser extends User {
  shouldNotify?: boolean;
}

export interface StoredConsultation extends Consultation {
  /** The professional who claimed it; answers are given in their name. */
  claimedBy?: Professional;
}

export interface StoredSubscription {
  subscriptionId: string;
  userId: string;
  start: number;
  end: number;
  createdAt: string;
  canceledAt?: string;
  renewFrom?: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

export function newId(prefix: string): string {
  let id = '';
  for (const byte of randomBytes(12)) id += ALPHABET[byte % ALPHABET.length];
  return `${prefix}_${id}`;
}

const clone = <T>(value: T): T => structuredClone(value);

export class SandboxState {
  users = new Map<string, StoredUser>();
  consultations = new Map<string, StoredConsultation>();
  subscriptions = new Map<string, StoredSubscription>();
  webhooks = new Map<string, StoredWebhook>();
  conversations = new Map<string, NavigatorConversation>();
  prescriptions = new Map<string, PrescriptionRequest>();

  constructor(
    readonly clock: SandboxClock,
    readonly partnerName: string,
    private readonly dispatcher: WebhookDispatcher,
    /** Called after a consultation gains an unanswered question (the professionals schedule work). */
    private readonly onQuestionAsked: (consultation: StoredConsultation) => void,
    /** Called when a consultation is read through the API (the member opened it). */
    private readonly onConsultationRead: (consultation: StoredConsultation) => void = () => undefined,
  ) {}

  /** Replies the navigator gives next, before its own rules (`POST /_sandbox/navigator/replies`). */
  navigatorReplies: NavigatorResponse[] = [];

  clear(): void {
    this.navigatorReplies = [];
    for (const map of [
      this.users,
      this.consultations,
      this.subscriptions,
      this.webhooks,
      this.conversations,
      this.prescriptions,
    ]) {
      map.clear();
    }
  }

  // Users (operations 2–6).

  createUser(body: CreateUserRequest, partnerName = this.partnerName): User {
    if (body.uniqueId !== undefined && this.findUsers({ uniqueId: body.uniqueId }).length > 0) {
      throw ProblemError.conflict({
        code: 'unique_id_taken',
        detail: `A user with uniqueId "${body.uniqueId}" exists.`,
      });
    }
    const physicianCountry = body.physicianCountry ?? 'GB';
    const user: StoredUser = {
      id: newId('usr'),
      ...(body.uniqueId !== undefined ? { uniqueId: body.uniqueId } : {}),
      ...(body.email !== undefined ? { email: body.email } : {}),
      ...(body.phone !== undefined ? { phone: body.phone } : {}),
      language: body.language ?? 'en',
      location: physicianCountry,
      origin: physicianCountry,
      physicianCountry,
      partnerName,
      userStatus: 'activeUser',
      shouldNotify: body.shouldNotify ?? true,
    };
    this.users.set(user.id, user);
    return this.presentUser(user);
  }

  getUser(userId: string): User {
    return this.presentUser(this.#user(userId));
  }

  updateUser(userId: string, body: UpdateUserRequest): User {
    const user = this.#user(userId);
    Object.assign(user, body);
    return this.presentUser(user);
  }

  findUsers(query: { uniqueId?: string; email?: string }): User[] {
    return [...this.users.values()]
      .filter(
        (u) =>
          (query.uniqueId === undefined || u.uniqueId === query.uniqueId) &&
          (query.email === undefined || u.email?.toLowerCase() === query.email.toLowerCase()),
      )
      .map((u) => this.presentUser(u));
  }

  presentUser(user: StoredUser): User {
    const { shouldNotify: _internal, ...visible } = user;
    return clone(visible);
  }

  #user(userId: string): StoredUser {
    const user = this.users.get(userId);
    if (!user) throw unknownId('user', userId);
    return user;
  }

  // Subscriptions (operations 7–10).

  createSubscription(userId: string, body: CreateSubscriptionRequest): Subscription {
    this.#user(userId);
    const now = this.clock.now();
    const start = body.subscriptionStartDate ? Date.parse(body.subscriptionStartDate) : now;
    const end = body.subscriptionEndDate ? Date.parse(body.subscriptionEndDate) : start + 365 * DAY_MS;
    if (end <= start) {
      throw ProblemError.badRequest({
        detail: 'subscriptionEndDate must be after the start.',
        errors: [{ field: 'subscriptionEndDate', message: 'must be after the start of the subscription' }],
      });
    }
    // A subscription that follows an expired one renews it (docs/architecture.md 3).
    const previous = this.#subscriptionsOf(userId).at(0);
    const renewFrom =
      previous && !previous.canceledAt && previous.end <= start ? previous.subscriptionId : undefined;
    const subscription: StoredSubscription = {
      subscriptionId: newId('sub'),
      userId,
      start,
      end,
      createdAt: this.clock.nowIso(),
      ...(renewFrom ? { renewFrom } : {}),
    };
    this.subscriptions.set(subscription.subscriptionId, subscription);
    return this.presentSubscription(subscription);
  }

  getUserSubscriptions(userId: string): Subscription[] {
    this.#user(userId);
    return this.#subscriptionsOf(userId).map((s) => this.presentSubscription(s));
  }

  getSubscription(userId: string, subscriptionId: string): Subscription {
    return this.presentSubscription(this.#subscription(userId, subscriptionId));
  }

  /** The renewal chain that ends at this subscription, newest first. */
  getSubscriptionHistory(userId: string, subscriptionId: string): Subscription[] {
    const chain: StoredSubscription[] = [];
    let current: StoredSubscription | undefined = this.#subscription(userId, subscriptionId);
    while (current && !chain.includes(current)) {
      chain.push(current);
      current = current.renewFrom ? this.subscriptions.get(current.renewFrom) : undefined;
    }
    return chain.map((s) => this.presentSubscription(s));
  }

  hasActiveSubscription(userId: string): boolean {
    return this.#subscriptionsOf(userId).some((s) => this.#isActive(s));
  }

  presentSubscription(s: StoredSubscription): Subscription {
    return {
      subscriptionId: s.subscriptionId,
      userId: s.userId,
      active: this.#isActive(s) ? 1 : 0,
      startSubscription: new Date(s.start).toISOString(),
      endSubscription: new Date(s.end).toISOString(),
      createdAt: s.createdAt,
      ...(s.canceledAt ? { canceledAt: s.canceledAt } : {}),
      ...(s.renewFrom ? { renewFrom: s.renewFrom } : {}),
    };
  }

  #isActive(s: StoredSubscription): boolean {
    const now = this.clock.now();
    return !s.canceledAt && s.start <= now && now < s.end;
  }

  /** A user's subscriptions, the one ending last first. */
  #subscriptionsOf(userId: string): StoredSubscription[] {
    return [...this.subscriptions.values()].filter((s) => s.userId === userId).sort((a, b) => b.end - a.end);
  }

  #subscription(userId: string, subscriptionId: string): StoredSubscription {
    this.#user(userId);
    const subscription = this.subscriptions.get(subscriptionId);
    if (!subscription || subscription.userId !== userId) throw unknownId('subscription', subscriptionId);
    return subscription;
  }

  /** Sandbox control: the subscription ends now, canceled (with `canceledAt`) or run out. */
  endSubscription(subscriptionId: string, how: 'cancel' | 'expire'): Subscription {
    const subscription = this.subscriptions.get(subscriptionId);
    if (!subscription) throw unknownId('subscription', subscriptionId);
    const now = this.clock.now();
    if (how === 'cancel') subscription.canceledAt = this.clock.nowIso();
    // Ended a moment ago, so it is no longer active now.
    subscription.end = Math.min(subscription.end, now - 1);
    if (subscription.start > subscription.end) subscription.start = subscription.end;
    return this.presentSubscription(subscription);
  }

  /** Sandbox control: a user's account becomes active, pending activation or deactivated. */
  setUserStatus(userId: string, status: UserStatus): User {
    this.#user(userId).userStatus = status;
    return this.getUser(userId);
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
    this.#user(userId);
    return [...this.consultations.values()]
      .filter((c) => c.userId === userId)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
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
    const answeredBy =
      professional ?? consultation.claimedBy ?? professionalFor(unanswered[0]?.question ?? '');
    for (const item of unanswered) {
      // In the member's language, or Arabic for a question written in Arabic.
      item.answer = answer ?? answerFor(item.question, this.users.get(consultation.userId)?.language).answer;
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
    consultation.claimedBy = professional ?? professionalFor(consultation.questions[0]?.question ?? '');
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
    const user = this.#user(userId);
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
    const user = this.#user(userId);
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
      this.navigatorReplies.shift() ?? navigatorRespond(text, this.users.get(conversation.userId)?.language);
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
    this.#user(userId);
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
