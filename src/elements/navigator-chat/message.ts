/**
 * One message of `<navigator-chat>`, as messengers show it: the sender and a relative time at the
 * start of each run of messages, the navigator's replies as sanitized markdown, "Not sent" with a
 * retry; on an urgent reply the emergency number to call first; and on a reply that suggests a
 * doctor the hand-off (or why there is none), after it.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { classMap } from 'lit/directives/class-map.js';
import type { ChatMessage } from '../../session/conversation.js';
import type { Eligibility } from '../../session/member-state.js';
import type { Formatters, LocalizeController } from '../shared/localize.js';
import { markdown } from '../shared/markdown.js';
import { shortTime } from '../shared/message-time.js';

/** Messages from one sender within this long of each other form a group under one name and time. */
const GROUP_WINDOW_MS = 5 * 60_000;

/** Whether `messages[index]` starts a group: another sender, or a pause since the one before. */
export function startsGroup(messages: readonly ChatMessage[], index: number): boolean {
  const message = messages[index];
  const before = messages[index - 1];
  if (!message || !before || before.role !== message.role) return true;
  return Math.abs(Date.parse(message.createdAt) - Date.parse(before.createdAt)) > GROUP_WINDOW_MS;
}

export interface ChatMessageOptions {
  localize: LocalizeController<'navigator'>;
  format: Formatters;
  /** The clock relative times are told against. */
  now: number;
  /** The language replies are rendered in. */
  language: string;
  /** The partner's emergency number (`emergency-number`), shown as a call link on an urgent reply. */
  emergencyNumber: string | undefined;
  /** A message is on its way: retries wait. */
  sending: boolean;
  /** While the message on its way waits for the connection: the words that say so ("Waiting to send…"). */
  waiting: string | undefined;
  /** The member's plan, once checked; the hand-off is offered only with one (or when it is unknown). */
  eligibility: Eligibility | 'unknown' | undefined;
  /** Where this reply's hand-off went, once the member chose it. */
  handedTo: 'consult-form' | 'none' | undefined;
  onRetry(): void;
  onHandOff(): void;
}

export function chatMessage(
  m: ChatMessage,
  firstOfGroup: boolean,
  {
    localize: t,
    format,
    now,
    language,
    emergencyNumber,
    sending,
    waiting,
    eligibility,
    handedTo: handoff,
    onRetry,
    onHandOff,
  }: ChatMessageOptions,
): TemplateResult {
  const fromNavigator = m.role === 'navigator';
  return html`<div
    part="message"
    class=${classMap({
      message: true,
      [m.role]: true,
      grouped: !firstOfGroup,
      urgent: Boolean(m.urgent),
      failed: m.status === 'failed',
    })}
  >
    ${
      firstOfGroup
        ? html`<p class="meta">
            <span class="sender">${fromNavigator ? t.t('navigator') : t.t('you')}</span>
            <time datetime=${m.createdAt} title=${format.dateTime(m.createdAt)}
              >${shortTime(m.createdAt, now, format)}</time
            >
          </p>`
        : html`<p class="visually-hidden">${fromNavigator ? t.t('navigator') : t.t('you')}</p>`
    }
    ${m.urgent ? html`<p class="urgent-label">${t.t('urgentTitle')}</p>` : nothing}
    ${
      fromNavigator
        ? html`<div class="markdown" dir="auto">${markdown(m.text, language)}</div>`
        : html`<p class="text" dir="auto">${m.text}</p>`
    }
    ${m.urgent && fromNavigator ? emergencyCall(emergencyNumber, t) : nothing}
    ${m.status === 'sending' ? html`<p class="state">${waiting ?? t.t('sending')}</p>` : nothing}
    ${
      m.status === 'failed'
        ? html`<p class="state error">
            <span>${t.t('notSent')}</span>
            <button
              type="button"
              part="retry-button"
              aria-disabled=${sending ? 'true' : 'false'}
              @click=${onRetry}
            >
              ${t.t('retry')}
            </button>
          </p>`
        : nothing
    }
    ${
      fromNavigator && m.suggestsDoctor && (eligibility === 'no-subscription' || eligibility === 'inactive')
        ? html`<p class="hint">${t.t('noPlan')}</p>`
        : nothing
    }
    ${
      fromNavigator && m.suggestsDoctor && (eligibility === 'eligible' || eligibility === 'unknown')
        ? html`<div class="actions">
            <button type="button" part="handoff-button" @click=${onHandOff}>${t.t('askDoctor')}</button>
            ${
              handoff
                ? html`<p class="hint">${handoff === 'none' ? t.t('noForm') : t.t('handedOver')}</p>`
                : nothing
            }
          </div>`
        : nothing
    }
  </div>`;
}

/** What a `tel:` link may hold: digits and the dialling signs, nothing else. */
const dialable = (number: string) => number.replace(/[^\d+*#]/g, '');

/**
 * On an urgent reply, before anything else it offers: the emergency number as a large call link,
 * or, where the partner set none, the words to call the local one.
 */
function emergencyCall(number: string | undefined, t: LocalizeController<'navigator'>): TemplateResult {
  const dial = number ? dialable(number) : '';
  return dial
    ? html`<a class="call" part="emergency-call" href="tel:${dial}"
        >${t.t('call', { number: number ?? dial })}</a
      >`
    : html`<p class="call" part="emergency-call">${t.t('callLocal')}</p>`;
}
