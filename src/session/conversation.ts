/**
 * The member's conversation with the health navigator, part of the member state: the messages as
 * the chat shows them (delivered, on their way, or not sent with a retry), the conversation's id
 * once the first message has started it, and the keys that make every start, send and retry
 * idempotent (S14). While the service cannot be reached a message waits, as the question form's
 * does, and goes out by itself with its key when the connection is back, unless the member
 * cancels it. Plain TypeScript: `<navigator-chat>` is a view of it.
 */
import type { BrowserClient } from '../client/browser-types.js';
import { ApiError } from '../client/errors.js';
import { newIdempotencyKey } from '../client/retry.js';
import type { NavigatorMessage } from '../client/types.js';

/** A message as the chat shows it: the navigator's, or the member's, delivered or not. */
export interface ChatMessage {
  /** Stable within the page, for rendering; the service's id arrives later for the member's own. */
  key: string;
  role: 'member' | 'navigator';
  text: string;
  createdAt: string;
  status: 'sending' | 'failed' | 'sent';
  messageId?: string;
  conversationId?: string;
  /** The member's key for this message, reused on every retry (S14). */
  idempotencyKey?: string;
  suggestsDoctor?: boolean;
  urgent?: boolean;
  /** For a reply: the member's text it answers, which "Ask a doctor" hands on. */
  prompt?: string;
}

/** Runs before replies are shown, so they appear whole: for example the plan check a hand-off needs. */
export type BeforeReplies = (replies: readonly ChatMessage[]) => Promise<void> | void;

export type ConversationClient = Pick<BrowserClient, 'startNavigatorConversation' | 'sendNavigatorMessage'>;

/**
 * Makes one keyed write in the member's scope (see `MemberState`): while the service cannot be
 * reached it waits and is tried again when the connection is back, until `signal` aborts.
 */
export type KeyedSend = <T>(
  run: (client: ConversationClient, signal: AbortSignal) => Promise<T>,
  signal?: AbortSignal,
) => Promise<T>;

export class Conversation {
  readonly #send: KeyedSend;
  readonly #memberId: string;
  readonly #changed: () => void;
  #messages: ChatMessage[] = [];
  #id?: string;
  /** The key for starting the conversation, kept until it has started so a retry cannot start two. */
  #startKey?: string;
  #counter = 0;
  #sending = false;
  /** Stops the message on its way from waiting for the connection (the member's "Cancel sending"). */
  #cancel?: AbortController;

  constructor(send: KeyedSend, memberId: string, changed: () => void) {
    this.#send = send;
    this.#memberId = memberId;
    this.#changed = changed;
  }

  /** Every message, in the order the chat shows them. */
  get messages(): readonly ChatMessage[] {
    return this.#messages;
  }

  /** The conversation's id, once the first message has started it. */
  get id(): string | undefined {
    return this.#id;
  }

  /** A message is on its way, and the navigator is answering. */
  get sending(): boolean {
    return this.#sending;
  }

  /**
   * Stops waiting to send: the message waiting for the connection leaves the chat (its delivery
   * rejects with an AbortError), so its text can go back in the composer.
   */
  cancel(): void {
    this.#cancel?.abort(new DOMException('The member cancelled sending', 'AbortError'));
  }

  /**
   * Sends the member's `text`: it shows at once, and the answer brings the navigator's replies.
   * Resolves with the messages new on screen (a greeting, the member's, the replies); while the
   * service cannot be reached it waits and goes out by itself when it is back. Rejects with the
   * client's error, the message then staying "not sent" with a retry that keeps its key; or, when
   * the member cancels the wait, with an AbortError, the message gone.
   */
  send(text: string, beforeReplies?: BeforeReplies): Promise<ChatMessage[]> {
    const message: ChatMessage = {
      key: this.#key(),
      role: 'member',
      text,
      createdAt: new Date().toISOString(),
      status: 'sending',
      idempotencyKey: newIdempotencyKey(),
    };
    this.#messages = [...this.#messages, message];
    return this.#deliver(message, beforeReplies);
  }

  /** Sends a message that was not sent again, with its key; it moves to the end, where its reply follows. */
  retry(key: string, beforeReplies?: BeforeReplies): Promise<ChatMessage[]> {
    const message = this.#messages.find((m) => m.key === key);
    if (!message) return Promise.resolve([]);
    this.#messages = [...this.#messages.filter((m) => m.key !== key), message];
    return this.#deliver(message, beforeReplies);
  }

  async #deliver(message: ChatMessage, beforeReplies?: BeforeReplies): Promise<ChatMessage[]> {
    this.#sending = true;
    const cancel = (this.#cancel = new AbortController());
    this.#set(message.key, { status: 'sending' });
    let arrived: ChatMessage[] = [];
    try {
      const conversationId = (this.#id ??= await this.#start(
        (opening) => (arrived = opening),
        cancel.signal,
      ));
      const reply = await this.#send(
        (client, signal) =>
          client.sendNavigatorMessage(
            { conversationId, message: message.text },
            { ...(message.idempotencyKey ? { idempotencyKey: message.idempotencyKey } : {}), signal },
          ),
        cancel.signal,
      );
      const own = reply.messages.find((m) => m.role === 'member');
      const replies = reply.messages
        .filter((m) => m.role === 'navigator')
        .map((m) => this.#fromRecord(m, reply.conversationId, message.text));
      // What the replies need to show whole (the member's plan, for a hand-off) is learned first.
      await beforeReplies?.(replies);
      this.#set(message.key, {
        status: 'sent',
        conversationId: reply.conversationId,
        ...(own ? { messageId: own.messageId, createdAt: own.createdAt } : {}),
      });
      this.#messages = [...this.#messages, ...replies];
      const sent = this.#messages.find((m) => m.key === message.key);
      return [...arrived, ...(sent ? [sent] : []), ...replies];
    } catch (error) {
      // Cancelled while waiting for the connection: the message leaves the chat, its text goes back.
      if (cancel.signal.aborted) this.#messages = this.#messages.filter((m) => m.key !== message.key);
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      // The conversation is no longer the member's (the proxy forgot it): a retry starts a new one.
      if (
        error instanceof ApiError &&
        error.operation === 'sendNavigatorMessage' &&
        [403, 404].includes(error.status)
      ) {
        this.#id = undefined;
      }
      this.#set(message.key, { status: 'failed' });
      throw error;
    } finally {
      if (this.#cancel === cancel) this.#cancel = undefined;
      this.#sending = false;
      this.#changed();
    }
  }

  /** Starts the conversation: the navigator's greeting comes first, before the message that started it. */
  async #start(opened: (opening: ChatMessage[]) => void, cancel: AbortSignal): Promise<string> {
    this.#startKey ??= newIdempotencyKey();
    const idempotencyKey = this.#startKey;
    const conversation = await this.#send(
      (client, signal) => client.startNavigatorConversation(this.#memberId, {}, { idempotencyKey, signal }),
      cancel,
    );
    this.#startKey = undefined;
    const opening = conversation.messages.map((m) => this.#fromRecord(m, conversation.conversationId));
    this.#messages = [...opening, ...this.#messages];
    opened(opening);
    return conversation.conversationId;
  }

  #set(key: string, change: Partial<ChatMessage>): void {
    this.#messages = this.#messages.map((m) => (m.key === key ? { ...m, ...change } : m));
    this.#changed();
  }

  #key(): string {
    return `m${++this.#counter}`;
  }

  #fromRecord(record: NavigatorMessage, conversationId: string, prompt?: string): ChatMessage {
    return {
      key: this.#key(),
      role: record.role,
      text: record.text,
      createdAt: record.createdAt,
      status: 'sent',
      messageId: record.messageId,
      conversationId,
      ...(record.suggestsDoctor ? { suggestsDoctor: true } : {}),
      ...(record.urgent ? { urgent: true } : {}),
      ...(prompt !== undefined ? { prompt } : {}),
    };
  }
}
