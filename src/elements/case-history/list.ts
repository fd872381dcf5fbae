/**
 * The list `<case-history>` shows once the member's consultations are read: how many answers are
 * unseen, the rendered rows (one Tab stop; the element moves focus among them), and "Show more"
 * while rows are left to render.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { ConsultationView } from '../../client/browser-types.js';
import type { MemberState } from '../../session/member-state.js';
import type { LocalizeController } from '../shared/localize.js';
import { consultationRow } from './row.js';

export interface ListOptions {
  localize: LocalizeController<'history'>;
  /** The member's consultations, newest first. */
  consultations: readonly ConsultationView[];
  /** How many rows are rendered. */
  shown: number;
  /** The row that takes the list's Tab stop. */
  activeIndex: number;
  state: MemberState | undefined;
  onKeydown: (event: KeyboardEvent) => void;
  onFocusin: (event: FocusEvent) => void;
  onOpen: (consultation: ConsultationView) => void;
  onShowMore: () => void;
}

export function consultationList(options: ListOptions): TemplateResult {
  const { localize, consultations, state } = options;
  const visible = consultations.slice(0, options.shown);
  const left = consultations.length - visible.length;
  const unread = state?.unread.length ?? 0;
  const unreadText = unread > 0 ? localize.t('unread', { count: unread }) : '';
  return html`${
      unread > 0 ? html`<p part="unread" class="unread-count" aria-hidden="true">${unreadText}</p>` : nothing
    }
    <ul
      part="list"
      class="list"
      aria-label=${unread > 0 ? `${localize.t('list')}, ${unreadText}` : localize.t('list')}
      @keydown=${options.onKeydown}
      @focusin=${options.onFocusin}
    >
      ${repeat(
        visible,
        (c) => c.consultationId,
        (c, index) =>
          consultationRow(c, {
            localize,
            unread: state?.isUnread(c.consultationId) ?? false,
            active: index === options.activeIndex,
            times: state?.messageTimes(c.consultationId),
            now: Date.now(),
            onOpen: () => options.onOpen(c),
          }),
      )}
    </ul>
    ${
      left > 0
        ? html`<div class="more">
            <span class="sentinel" aria-hidden="true"></span>
            <button part="more-button" type="button" @click=${options.onShowMore}>
              ${localize.t('showMore', { count: left })}
            </button>
          </div>`
        : nothing
    }`;
}

/**
 * Roving focus in the list: the row an arrow key, Home or End moves to from `current`, among
 * `shown` rendered rows (unclamped; the element renders more rows first when ArrowDown leaves the
 * last one), or undefined for any other key.
 */
export function rowForKey(key: string, current: number, shown: number): number | undefined {
  switch (key) {
    case 'ArrowDown':
      return current + 1;
    case 'ArrowUp':
      return current - 1;
    case 'Home':
      return 0;
    case 'End':
      return shown - 1;
    default:
      return undefined;
  }
}
