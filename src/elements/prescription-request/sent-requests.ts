/**
 * The member's prescription requests, as cards: when each was sent and its reference (what the
 * service let us know, kept by the proxy, so they are here on any visit or device), and what was
 * asked for when this page sent it (in the member's words, kept in this page's memory only). No
 * status: the service reports none after taking a request, so the card promises none.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { SentPrescription } from '../../session/member-state.js';
import type { LocalizeController } from '../shared/localize.js';
import { messageTime } from '../shared/message-time.js';

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
              <span class="reference">${localize.t('reference', { id: r.prescriptionId })}</span>
              ${Number.isNaN(Date.parse(r.createdAt)) ? nothing : messageTime(r.createdAt, now, localize.format)}
            </p>
          </li>`,
      )}
    </ul>
  </section>`;
}
