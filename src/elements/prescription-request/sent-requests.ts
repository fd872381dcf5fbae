/**
 * The prescription requests the member sent on this page, as cards: what they asked for (in their
 * own words, kept in memory only), its status and when it was sent. They stay for the session,
 * whether or not the element is on the page, and go on sign-out.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { SentPrescription } from '../../session/member-state.js';
import type { LocalizeController } from '../shared/localize.js';
import { messageTime } from '../shared/message-time.js';

const KNOWN_STATUSES = ['received', 'inReview', 'approved', 'declined'] as const;

/** A status in words, or as the service wrote it when a newer service adds one. */
function statusWords(status: string, localize: LocalizeController<'prescription'>): string {
  return (KNOWN_STATUSES as readonly string[]).includes(status)
    ? localize.t(status as (typeof KNOWN_STATUSES)[number])
    : status;
}

export function sentRequests(
  requests: readonly SentPrescription[],
  localize: LocalizeController<'prescription'>,
  now: number,
): TemplateResult | typeof nothing {
  if (requests.length === 0) return nothing;
  return html`<section class="sent-requests" aria-labelledby="sent-requests">
    <h3 id="sent-requests" class="label">${localize.t('yourRequests')}</h3>
    <ul>
      ${[...requests].reverse().map(
        (r) =>
          html`<li part="request" class="request">
            ${r.asked ? html`<p class="asked" dir="auto">${r.asked}</p>` : nothing}
            <p class="meta">
              <span class="status status-${r.status}"
                >${localize.t('statusShort', { status: statusWords(r.status, localize) })}</span
              >
              ${Number.isNaN(Date.parse(r.createdAt)) ? nothing : messageTime(r.createdAt, now, localize.format)}
            </p>
          </li>`,
      )}
    </ul>
  </section>`;
}

export { statusWords };
