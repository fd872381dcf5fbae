import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property } from 'lit/decorators.js';
import type { SubscriptionView } from '../../client/browser-types.js';
import { errorNotice } from '../shared/error-notice.js';
import { SessionElement } from '../shared/session-element.js';
import { addEnglish, LocalizeController } from '../shared/localize.js';
import { access } from '../translations/en-access.js';
import { styles } from './consult-access.styles.js';

// This element's English comes with its code, not with the loader.
addEnglish({ access });

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
 * It shows the member's subscriptions from the session's member state (the same plan check
 * `<consult-form>` and the navigator's hand-off use, made once for the page) and, for a renewed
 * plan, reads its history through the proxy.
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

  private readonly localize = new LocalizeController(this, 'access');

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    const state = this.memberState;
    if (!this.member.current || !state) {
      this.member.signInIfIdle();
      return;
    }
    if (state.plan.status === 'idle' && this.isConnected) this.#check(false);
  }

  #check(fresh: boolean): Promise<unknown> {
    const check = this.memberState?.checkPlan({ fresh });
    if (!check) return Promise.resolve();
    return check.catch((error: unknown) => this.reportError(error, 'getUserSubscriptions'));
  }

  /** The plan as the element shows it, once the member's plan is known. */
  get #plan(): Plan | undefined {
    const plan = this.memberState?.plan;
    if (!this.member.current || plan?.status !== 'ready') return undefined;
    if (plan.value === 'inactive') return { state: 'inactive', renewedFrom: [] };
    const subscriptions = plan.subscriptions ?? [];
    const active = subscriptions.find((s) => s.active === 1);
    const latest = active ?? [...subscriptions].sort((a, b) => endOf(b) - endOf(a))[0];
    // A renewed plan shows once its history is there (the member state reads it once), so nothing
    // moves under the member's eyes.
    const renewedFrom = active?.renewFrom ? this.memberState?.renewalsOf(active.subscriptionId) : [];
    if (!renewedFrom) return undefined;
    return {
      state: this.#stateOf(active, latest),
      renewedFrom: [...renewedFrom],
      ...(latest ? { current: latest } : {}),
    };
  }

  /** Reads the plan again, for example after the member bought or renewed one. */
  reload(): Promise<unknown> {
    if (!this.member.current) return this.activeSession?.retry().catch(() => undefined) ?? Promise.resolve();
    return this.#check(true);
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
    const failed = this.member.signInStatus === 'error' || this.memberState?.plan.status === 'error';
    const loading = !this.#plan && !failed;
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
    const plan = this.#plan;
    if (!loading && !plan) {
      return errorNotice(localize.t('loadFailed'), localize.t('retry'), () => void this.reload());
    }
    if (!plan) {
      // The notice most members get, its words drawn as bars: the card keeps its size when they
      // arrive. The date is a stand-in of a date's length: formatting a real one would load the
      // browser's date data before the first frame.
      return html`<div class="loading">
        <p class="visually-hidden">${localize.t('loading')}</p>
        <div class="notice summary placeholder" aria-hidden="true">
          <p class="title"><span class="skeleton-text" data-words=${localize.t('included')}></span></p>
          <p>
            <span class="skeleton-text" data-words=${localize.t('active', { date: '00 Mmm 0000' })}></span>
          </p>
        </div>
      </div>`;
    }
    const { state, current, renewedFrom } = plan;
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
      }
    </div>`;
  }
}
