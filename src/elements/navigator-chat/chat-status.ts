/**
 * What `<navigator-chat>` shows for its session: the chat once the member is known, else a notice
 * (no session configured, connecting, or could not connect with "Try again"), or nothing when the
 * session inside `<consult-session>` has ended (its notice tells that; a sign-out is no outage).
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { SessionManager } from '../../session/session.js';
import type { LocalizeController } from '../shared/localize.js';

export type ChatStatus = 'unconfigured' | 'ended' | 'chat' | 'failed' | 'connecting';

export function chatStatus(
  session: SessionManager | undefined,
  fromContext: boolean,
  signedIn: boolean,
): ChatStatus {
  if (!session) return 'unconfigured';
  if (session.status === 'expired' && fromContext) return 'ended';
  if (signedIn) return 'chat';
  return session.status === 'error' || session.status === 'expired' ? 'failed' : 'connecting';
}

/** The notice for a status other than the chat's. */
export function statusNotice(
  t: LocalizeController<'navigator'>,
  status: Exclude<ChatStatus, 'chat'>,
  onRetry: () => void,
): TemplateResult | typeof nothing {
  switch (status) {
    case 'unconfigured':
      return html`<p class="notice error" role="alert">${t.t('unconfigured')}</p>`;
    case 'ended':
      return nothing;
    case 'failed':
      return html`<div class="notice error" role="alert" tabindex="-1">
        <p>${t.t('unavailable')}</p>
        <button type="button" @click=${onRetry}>${t.t('tryAgain')}</button>
      </div>`;
    case 'connecting':
      return html`<p class="notice" role="status">${t.t('connecting')}</p>`;
  }
}
