/**
 * The messages of `<navigator-chat>`: a cue when older ones are scrolled out of view above, the log
 * itself (a polite live region, one Tab stop to scroll it), and the typing indicator while the
 * navigator answers.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { ChatMessage } from '../../session/conversation.js';
import type { LocalizeController } from '../shared/localize.js';
import { startsGroup } from './message.js';

export interface LogView {
  messages: readonly ChatMessage[];
  /** Older messages are above what the member sees. */
  olderAbove: boolean;
  /** The navigator is answering. */
  typing: boolean;
  onScroll(event: Event): void;
  renderMessage(message: ChatMessage, firstOfGroup: boolean): TemplateResult;
}

export function chatLog(t: LocalizeController<'navigator'>, view: LogView): TemplateResult {
  const { messages } = view;
  return html`<p class="older" aria-hidden="true" ?hidden=${!view.olderAbove}>
      <span>${t.t('earlier')}</span>
    </p>
    <div
      part="log"
      role="log"
      aria-live="polite"
      aria-relevant="additions"
      aria-label=${t.t('logLabel')}
      tabindex=${messages.length ? '0' : '-1'}
      @scroll=${view.onScroll}
    >
      ${repeat(
        messages,
        (m) => m.key,
        (m, index) => view.renderMessage(m, startsGroup(messages, index)),
      )}
    </div>
    <div role="status">
      ${
        view.typing
          ? html`<span part="typing" class="typing"
              ><span class="dots" aria-hidden="true"><span></span><span></span><span></span></span>${t.t(
                'typing',
              )}</span
            >`
          : nothing
      }
    </div>`;
}
