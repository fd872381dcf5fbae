/**
 * The member's plan: whether they may ask a doctor (an active subscription, none, or an account
 * that is not active). One check answers every element for a minute; a failed check is not kept.
 */
import type { MemberView, SubscriptionView } from '../client/browser-types.js';
import { unreachable } from './connection.js';
import type { LoadStatus, ScopedCall } from './state-basics.js';

/** Whether the member may ask a doctor now: an active plan, no plan, or an account that is not active. */
export type Eligibility = 'eligible' | 'no-subscription' | 'inactive';

/** The member's plan: whether they may ask, and the subscriptions that say so. */
export interface Plan {
  status: LoadStatus;
  value?: Eligibility;
  /** The member's subscriptions as last read (none for an account that is not active). */
  subscriptions?: SubscriptionView[];
  error?: unknown;
}

export interface PlanCheckOptions {
  /** The member's scope. */
  signal: AbortSignal;
  call: ScopedCall;
  changed(): void;
}

export class PlanCheck {
  readonly #options: PlanCheckOptions;
  #plan: Plan & { at: number; read?: Promise<Eligibility> } = { status: 'idle', at: 0 };
  /** The plans each subscription renewed, by its id; `undefined` while the read is on its way. */
  #renewals = new Map<string, SubscriptionView[] | undefined>();

  constructor(options: PlanCheckOptions) {
    this.#options = options;
  }

  /** The check as it stands. */
  get plan(): Plan {
    const { status, value, subscriptions, error } = this.#plan;
    return { status, value, subscriptions, error };
  }

  /** A check could not go out (the connection was lost): it is due when the connection is back. */
  get stalled(): boolean {
    return this.#plan.status === 'loading' && !this.#plan.read;
  }

  /** The account's status changed: the plan is checked again. */
  forget(): void {
    this.#plan = { status: 'idle', at: 0 };
  }

  /** Whether `member` may ask a doctor: see `MemberState.checkPlan`. */
  check(member: MemberView, { fresh = false, maxAgeMs = 60_000 } = {}): Promise<Eligibility> {
    const { changed } = this.#options;
    if (fresh) this.#renewals = new Map();
    if (member.userStatus && member.userStatus !== 'activeUser') {
      if (this.#plan.value !== 'inactive') {
        this.#plan = { status: 'ready', value: 'inactive', subscriptions: [], at: Date.now() };
        changed();
      }
      return Promise.resolve('inactive');
    }
    const plan = this.#plan;
    // A fresh check asked for during one in flight (which may predate a change) follows it.
    if (plan.read)
      return fresh
        ? plan.read.catch(() => undefined).then(() => this.check(member, { fresh: true }))
        : plan.read;
    if (!fresh && plan.status === 'ready' && plan.value && Date.now() - plan.at < maxAgeMs)
      return Promise.resolve(plan.value);
    const scope = this.#options.signal;
    plan.status = 'loading';
    plan.error = undefined;
    const read = (async () => {
      try {
        const subscriptions = await this.#options.call((client, signal) =>
          client.getUserSubscriptions(member.id, { signal }),
        );
        const value: Eligibility = subscriptions.some((s) => s.active === 1) ? 'eligible' : 'no-subscription';
        this.#plan = { status: 'ready', value, subscriptions, at: Date.now() };
        return value;
      } catch (error) {
        if (scope.aborted) throw error;
        // Unreachable: it stays loading, and is checked again when the connection is back.
        this.#plan = unreachable(error) ? { status: 'loading', at: 0 } : { status: 'error', error, at: 0 };
        throw error;
      } finally {
        if (!scope.aborted) changed();
      }
    })();
    plan.read = read;
    read.catch(() => undefined);
    changed();
    return read;
  }

  /** The plans subscription `id` of `memberId` renewed, newest first; undefined until read (a read starts then). */
  renewalsOf(memberId: string, id: string): readonly SubscriptionView[] | undefined {
    if (!this.#renewals.has(id)) {
      const renewals = this.#renewals.set(id, undefined);
      this.#options
        .call((client, signal) => client.getSubscriptionHistory(memberId, id, { signal }))
        .then(
          (history) => history.filter((s) => s.subscriptionId !== id),
          () => [],
        )
        .then((list) => {
          if (this.#renewals !== renewals) return;
          renewals.set(id, list);
          this.#options.changed();
        });
    }
    return this.#renewals.get(id);
  }

  /** The service refused a write for the plan's sake: the member cannot ask. */
  refused(value: Exclude<Eligibility, 'eligible'>): void {
    this.#plan = { ...this.#plan, status: 'ready', value, at: Date.now() };
    this.#options.changed();
  }
}
