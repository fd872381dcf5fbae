/**
 * The sandbox's user accounts and their subscriptions (operations 2–10), with the sandbox's own
 * controls over them: the records and the rules that change them. `SandboxState` (state.ts) builds
 * the consultations, webhooks, navigator and prescriptions on them.
 */
import type {
  CreateSubscriptionRequest,
  CreateUserRequest,
  Subscription,
  UpdateUserRequest,
  User,
  UserStatus,
} from '../client/types.js';
import { ProblemError, unknownId } from '../server/problems.js';
import type { SandboxClock } from './clock.js';
import { newId } from './ids.js';

export interface StoredUser extends User {
  shouldNotify?: boolean;
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

/**
 * A copy of a record (plain objects, arrays, strings, numbers, booleans, as JSON holds), so no
 * caller can change the stored one. A tenth of `structuredClone`'s cost, which a long case history
 * pays once per consultation.
 */
export const clone = <T>(value: T): T => {
  if (Array.isArray(value)) return value.map(clone) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = clone((value as Record<string, unknown>)[key]);
  return copy as T;
};

export class SandboxAccounts {
  users = new Map<string, StoredUser>();
  subscriptions = new Map<string, StoredSubscription>();

  constructor(
    readonly clock: SandboxClock,
    readonly partnerName: string,
  ) {}

  clear(): void {
    this.users.clear();
    this.subscriptions.clear();
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
    return this.presentUser(this.storedUser(userId));
  }

  updateUser(userId: string, body: UpdateUserRequest): User {
    const user = this.storedUser(userId);
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

  /** The user's record, or 404 `not_found`. */
  protected storedUser(userId: string): StoredUser {
    const user = this.users.get(userId);
    if (!user) throw unknownId('user', userId);
    return user;
  }

  // Subscriptions (operations 7–10).

  createSubscription(userId: string, body: CreateSubscriptionRequest): Subscription {
    this.storedUser(userId);
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
    this.storedUser(userId);
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
    this.storedUser(userId);
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
    this.storedUser(userId).userStatus = status;
    return this.getUser(userId);
  }
}
