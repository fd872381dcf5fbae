/**
 * How `<navigator-chat>` waits for a message the member's conversation is delivering: the member's
 * plan is checked before a reply that suggests a doctor shows (so its hand-off shows whole), the
 * page hears each message that arrived (`navigator-message`), an urgent reply is said at once in
 * the assertive region, and a message the member cancelled while it waited for the connection
 * puts its words back in the composer.
 */
import { ApiError } from '../../client/errors.js';
import type { ChatMessage } from '../../session/conversation.js';
import type { MemberState } from '../../session/member-state.js';
import type { SessionManager } from '../../session/session.js';
import { NavigatorMessageEvent } from '../shared/events.js';
import { preloadMarkdown } from '../shared/markdown.js';

export interface DeliveryHost {
  state(): MemberState | undefined;
  session(): SessionManager | undefined;
  /** Keeps the draft and the unsent messages in the member's draft store. */
  persist(): void;
  /** Messages arrived (the chat is no longer one restored from a reload). */
  arrived(): void;
  emit(event: Event): void;
  /** The words for an urgent reply, with the emergency number when it is known. */
  urgentWords(emergencyNumber: string | undefined): string;
  announce(text: string, urgent: boolean): void;
  /** The member cancelled the message: its text goes back in the composer. */
  putBack(text: string): void;
  reportError(error: unknown, operation: string): void;
  /** The delivery is over, in the member's scope still. */
  settled(): void;
}

export class ChatDelivery {
  readonly #host: DeliveryHost;

  constructor(host: DeliveryHost) {
    this.#host = host;
  }

  /**
   * Before replies show: one that suggests a doctor waits for the session's plan check, shared
   * with the form. A check that fails still offers the hand-off (the form says what is wrong).
   */
  readonly beforeReplies = async (replies: readonly ChatMessage[]): Promise<void> => {
    const session = this.#host.session();
    if (session && replies.some((m) => m.suggestsDoctor)) await session.eligibility().catch(() => undefined);
  };

  /**
   * Waits for a message the conversation is delivering (`text`, the member's), and tells the page
   * and the member what arrived.
   */
  async deliver(delivery: Promise<ChatMessage[]>, text: string): Promise<void> {
    const host = this.#host;
    const state = host.state();
    const session = host.session();
    if (!state || !session) return;
    // The scope of the member who sent it: `state.signal` is the next member's once this one has gone.
    const scope = state.signal;
    void preloadMarkdown();
    host.persist();
    try {
      // In the member's scope: a sign-out meanwhile rejects it, and nothing below runs (S21).
      const arrived = await delivery;
      host.arrived();
      const replies = arrived.filter((m) => m.role === 'navigator');
      for (const m of arrived) {
        if (m.conversationId && m.messageId) {
          host.emit(
            new NavigatorMessageEvent({
              conversationId: m.conversationId,
              messageId: m.messageId,
              role: m.role,
            }),
          );
        }
      }
      // An urgent reply is not left to the polite log: the session's assertive region says it now.
      if (replies.some((m) => m.urgent)) host.announce(host.urgentWords(session.emergencyNumber), true);
    } catch (error) {
      if (scope.aborted) return;
      // The member cancelled it while it waited for the connection: their words go back in the composer.
      if (error instanceof DOMException && error.name === 'AbortError') {
        host.putBack(text);
        return;
      }
      host.reportError(error, error instanceof ApiError ? error.operation : 'sendNavigatorMessage');
    } finally {
      if (!scope.aborted) host.settled();
    }
  }
}
