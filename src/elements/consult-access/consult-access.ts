import { initialState, Task, TaskStatus } from '@lit/task';
import { html, nothing, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { SubscriptionView } from '../../client/browser-types.js';
import { SessionElement } from '../shared/consult-element.js';
import { LocalizeController } from '../shared/localize.js';
import { styles } from './consult-access.styles.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the member's plan says about asking a doctor, as the element shows it. */
export type AccessState = 'active' | 'expiring' | 'canceled' | 'expired' | 'none' | 'inactive';

interface Plan {
  state: AccessState;
  /** The subscription the state is about: the active one, else the one that ended last. */
  current?: SubscriptionView;
  /** Earlier subscriptions this one renewed, newest first. */
  renewedFrom: SubscriptionView[];
}

const endOf = (s: SubscriptionView) => Date.parse(s.endSubscription);

/**
 * @tagname consult-access
 * @summary The member's plan at a glance: whether it includes questions to a doctor, until when,
 * whether it is ending soon or was renewed (with its history), canceled, run out, or missing.
 *
 * It reads the member's subscriptions and, for a renewed plan, its history, through the proxy.
 * Its words come from the same knowledge `<consult-form>` and the navigator's hand-off use.
 *
 * @slot none - Your offer, shown when the member has no active plan (none, canceled or run out).
 * @slot expiring - Your renewal text, shown when the plan ends within `expiring-days`.
 *
 * @event consult-error - Loading failed (`{ code, status, operation }`).
 *
 * @csspart base - The wrapper of everything.
 * @csspart summary - The plan's state in words, with its dates.
 * @csspart history - The plans this one renewed.
 * @csspart notice - Load errors.
 * @csspart retry-button - "Try again" after a load error.
 */
export class ConsultAccess extends SessionElement {
  static override styles = [...SessionElement.styles, styles];

  /** A plan ending within this many days is "ending soon". Default 30. */
  @property({ attribute: 'expiring-days', type: Number }) expiringDays = 30;

  @state() private plan?: Plan;

  private readonly localize = new LocalizeController(this, 'access');

  readonly #load = new Task(this, {
    // The member as signed in, not only their id: a sign-in that finds the account suspended reads again.
    args: () => [this.activeSession, this.user] as const,
    task: async ([session, user], { signal }) => {
      const userId = user?.id;
      if (!session)
        throw new Error('consult-access has no session: place it in <consult-session> or set endpoint.');
      if (!userId) {
        await session.ready();
        return initialState;
      }
      const member = await session.ready();
      signal.throwIfAborted();
      if (member.userStatus && member.userStatus !== 'activeUser') {
        this.plan = { state: 'inactive', renewedFrom: [] };
        return this.plan;
      }
      const subscriptions = await session.client.getUserSubscriptions(userId, { signal });
      const active = subscriptions.find((s) => s.active === 1);
      const latest = active ?? [...subscriptions].sort((a, b) => endOf(b) - endOf(a))[0];
      let renewedFrom: SubscriptionView[] = [];
      if (active?.renewFrom) {
        const history = await session.client.getSubscriptionHistory(userId, active.subscriptionId, {
          signal,
        });
        renewedFrom = history.filter((s) => s.subscriptionId !== active.subscriptionId);
      }
      signal.throwIfAborted();
      this.plan = {
        state: this.#stateOf(active, latest),
        renewedFrom,
        ...(latest ? { current: latest } : {}),
      };
      return this.plan;
    },
    onError: (error) => this.reportError(error, 'getUserSubscriptions'),
  });

  /** Another member, or none: nothing of the previous member's plan stays. */
  protected override memberChanged(): void {
    this.#load.abort();
    this.plan = undefined;
  }

  /** Reads the plan again, for example after the member bought or renewed one. */
  reload(): Promise<unknown> {
    return this.#load.run();
  }

  #stateOf(active: SubscriptionView | undefined, latest: SubscriptionView | undefined): AccessState {
    if (active) {
      const left = endOf(active) - Date.now();
      return left <= this.expiringDays * DAY_MS ? 'expiring' : 'active';
    }
    if (!latest) return 'none';
    return latest.canceledAt ? 'canceled' : 'expired';
  }

  protected override render() {
    const loading = !this.plan && this.#load.status !== TaskStatus.ERROR;
    return html`<div
      part="base"
      class="base"
      lang=${this.localize.language}
      dir=${this.localize.dir}
      aria-busy=${loading ? 'true' : 'false'}
    >
      ${this.#renderBody(loading)}
    </div>`;
  }

  #renderBody(loading: boolean): TemplateResult {
    const { localize } = this;
    if (this.#load.status === TaskStatus.ERROR && !this.plan) {
      return html`<div part="notice" class="notice error" role="alert">
        <p>${localize.t('loadFailed')}</p>
        <button part="retry-button" type="button" @click=${() => void this.#load.run()}>
          ${localize.t('retry')}
        </button>
      </div>`;
    }
    if (loading || !this.plan) {
      return html`<div class="loading">
        <p class="visually-hidden">${localize.t('loading')}</p>
        <div class="notice placeholder" aria-hidden="true">
          <span class="skeleton"></span><span class="skeleton short"></span>
        </div>
      </div>`;
    }
    const { state, current, renewedFrom } = this.plan;
    const date = (iso: string | undefined) =>
      iso && !Number.isNaN(Date.parse(iso)) ? localize.format.date(iso) : '';
    const kind =
      state === 'active' ? 'success' : state === 'expiring' ? 'warning' : state === 'inactive' ? 'error' : '';
    let words: string;
    switch (state) {
      case 'active':
        words = localize.t('active', { date: date(current?.endSubscription) });
        break;
      case 'expiring': {
        const days = Math.max(0, Math.ceil(((current ? endOf(current) : Date.now()) - Date.now()) / DAY_MS));
        words = localize.t('expiring', { date: date(current?.endSubscription), count: days });
        break;
      }
      case 'canceled':
        words = localize.t('canceled', { date: date(current?.canceledAt) });
        break;
      case 'expired':
        words = localize.t('expired', { date: date(current?.endSubscription) });
        break;
      case 'inactive':
        words = localize.t('inactive');
        break;
      default:
        words = localize.t('none');
    }
    const offer = state === 'none' || state === 'canceled' || state === 'expired';
    return html`<div part="summary" class="notice summary ${kind}" data-state=${state}>
        <p class="title">
          ${localize.t(state === 'active' || state === 'expiring' ? 'included' : 'notIncluded')}
        </p>
        <p>${words}</p>
        ${offer ? html`<slot name="none"></slot>` : nothing}
        ${state === 'expiring' ? html`<slot name="expiring"></slot>` : nothing}
      </div>
      ${
        renewedFrom.length
          ? html`<div part="history" class="history">
              <p class="label">${localize.t('renewed')}</p>
              <ul>
                ${renewedFrom.map(
                  (s) =>
                    html`<li>
                      ${localize.t('period', { start: date(s.startSubscription), end: date(s.endSubscription) })}
                    </li>`,
                )}
              </ul>
            </div>`
          : nothing
      }`;
  }
}
