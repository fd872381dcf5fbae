/**
 * What of `<navigator-chat>` survives a reload, in the member's draft store (sessionStorage, S16):
 * what they were typing, the messages they typed that were not delivered (they come back into the
 * composer), and whether a conversation had started (after a reload, the chat says honestly that
 * this one is new).
 */
import type { ChatMessage } from '../../session/conversation.js';
import { DraftController } from '../shared/draft.js';

interface Stored {
  text: string;
  unsent: string[];
  conversation: boolean;
}

export class ChatDraft {
  readonly #stored: DraftController<Partial<Stored>>;

  constructor(member: () => string | undefined) {
    this.#stored = new DraftController<Partial<Stored>>(member, () => 'navigator-chat');
  }

  /** The text to put back in the composer, and whether a conversation had started before the reload. */
  load(): { text: string; restored: boolean } {
    const saved = this.#stored.load();
    const text = [...(saved?.unsent ?? []), saved?.text ?? ''].filter((t) => t.trim()).join('\n\n');
    return { text, restored: Boolean(saved?.conversation) };
  }

  /** Keeps the composer's text, the member's messages not delivered, and whether a conversation exists. */
  save(text: string, messages: readonly ChatMessage[], conversation: boolean): void {
    const unsent = messages.filter((m) => m.role === 'member' && m.status !== 'sent').map((m) => m.text);
    this.#stored.save(
      !text && unsent.length === 0 && !conversation ? undefined : { text, unsent, conversation },
    );
  }
}
