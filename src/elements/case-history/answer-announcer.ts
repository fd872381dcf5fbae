/**
 * While `<case-history>` shows its list, an answer that arrives for one of the member's
 * consultations is announced, in the same words as the session's own announcement of it (so it is
 * heard once). With a consultation open, its thread announces the answer itself.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { MemberState } from '../../session/member-state.js';
import { answeredWords } from '../shared/status.js';

export interface AnswerAnnouncerOptions {
  /** The state to follow, while there is one. */
  state: () => MemberState | undefined;
  /** Whether a consultation is open (its thread then announces). */
  opened: () => boolean;
  language: () => string;
  announce: (words: string) => void;
}

export class AnswerAnnouncer implements ReactiveController {
  readonly #host: ReactiveControllerHost & { readonly isConnected: boolean };
  readonly #options: AnswerAnnouncerOptions;
  /** The state this list follows for answers. */
  #following?: MemberState;

  constructor(
    host: ReactiveControllerHost & { readonly isConnected: boolean },
    options: AnswerAnnouncerOptions,
  ) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  hostUpdate(): void {
    this.#follow(this.#host.isConnected ? this.#options.state() : undefined);
  }

  hostDisconnected(): void {
    this.#follow(undefined);
  }

  #follow(state: MemberState | undefined): void {
    if (state === this.#following) return;
    this.#following?.removeEventListener('answer', this.#onAnswer);
    this.#following = state;
    state?.addEventListener('answer', this.#onAnswer);
  }

  #onAnswer = (event: Event): void => {
    if (this.#options.opened()) return;
    const { consultationId } = (event as CustomEvent<{ consultationId: string }>).detail;
    const record = this.#options.state()?.consultation(consultationId);
    if (record) this.#options.announce(answeredWords(record, this.#options.language()));
  };
}
