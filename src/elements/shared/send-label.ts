/**
 * A send button while the service cannot be reached: "Waiting to send…" instead of its own words,
 * and "Cancel sending" beside it, which stops the wait and keeps the text.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { MemberState } from '../../session/member-state.js';
import { translate } from './localize.js';

/** A send of this element is waiting for the service to be reachable again. */
export const waitingToSend = (state: MemberState | undefined, sending: boolean): boolean =>
  sending && state?.connection === 'reconnecting';

/** A send button's words: its own, `busy` while sending, "Waiting to send…" while the service cannot be reached. */
export function sendLabel(
  state: MemberState | undefined,
  language: string,
  [sending, idle, busy]: [boolean, string, string],
): string {
  if (!sending) return idle;
  return waitingToSend(state, true) ? translate(language, 'session', 'waitingToSend') : busy;
}

/** "Cancel sending", while a send waits for the connection. */
export function cancelSend(
  state: MemberState | undefined,
  language: string,
  sending: boolean,
  cancel: () => void,
): TemplateResult | typeof nothing {
  if (!waitingToSend(state, sending)) return nothing;
  return html`<button type="button" class="cancel" @click=${cancel}>
    ${translate(language, 'session', 'cancelSend')}
  </button>`;
}
