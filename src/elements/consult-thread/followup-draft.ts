/**
 * What the member is typing in `<consult-thread>`'s follow-up box, kept per member and
 * consultation in sessionStorage (S16), with the idempotency key of an attempt that failed: the
 * same words sent again keep their key, so the proxy cannot record them twice (S14).
 */
import type { ReactiveControllerHost } from 'lit';
import { newIdempotencyKey } from '../../client/retry.js';
import { DraftController } from '../shared/draft.js';

interface Stored {
  text: string;
  /** The key of an attempt that failed, reused while the text is the same. */
  attempt?: { key: string; text: string };
}

export class FollowupDraft {
  readonly #host: ReactiveControllerHost;
  readonly #stored: DraftController<Stored>;
  #text = '';
  #attempt?: { key: string; text: string };

  /** `member` and `consultation` are read at each call: the draft follows what is open. */
  constructor(
    host: ReactiveControllerHost,
    member: () => string | undefined,
    consultation: () => string | undefined,
  ) {
    this.#host = host;
    this.#stored = new DraftController<Stored>(member, () => {
      const id = consultation();
      return id && `followup:${id}`;
    });
  }

  get text(): string {
    return this.#text;
  }

  /** The draft of the consultation now open, for the member now signed in. */
  restore(): void {
    const saved = this.#stored.load();
    this.#text = saved?.text ?? '';
    this.#attempt = saved?.attempt;
    this.#host.requestUpdate();
  }

  edit(text: string): void {
    this.#text = text;
    this.#host.requestUpdate();
    this.#save();
  }

  /** The key to send `text` with, stored before it goes: a retry of the same words reuses it. */
  keyFor(text: string): string {
    if (this.#attempt?.text !== text) this.#attempt = { key: newIdempotencyKey(), text };
    this.#save();
    return this.#attempt.key;
  }

  /** Sent, or handed to a new consultation: the box is empty and nothing is kept. */
  clear(): void {
    this.#text = '';
    this.#attempt = undefined;
    this.#stored.clear();
    this.#host.requestUpdate();
  }

  /** Another member: forgotten in memory; the session clears their stored drafts. */
  forget(): void {
    this.#text = '';
    this.#attempt = undefined;
    this.#host.requestUpdate();
  }

  #save(): void {
    const attempt = this.#attempt;
    this.#stored.save(
      this.#text || attempt ? { text: this.#text, ...(attempt ? { attempt } : {}) } : undefined,
    );
  }
}
