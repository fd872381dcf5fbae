/**
 * While `<case-history>` shows its list, an answer that arrives for one of the member's
 * consultations is announced, in the same words as the session's own announcement of it (so it is
 * heard once). With a consultation open, its thread announces the answer itself.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { MemberState } from '../../session/member-state.js';
import { answeredWords } from '../shared/status.js';

/** The list: its state, and the consultation it has open, if any. */
export interface AnswerAnnouncerHost extends ReactiveControllerHost {
  readonly isConnected: boolean;
  readonly memberState: MemberState | undefined;
  readonly selected?: string | undefined;
}

export class AnswerAnnouncer implements ReactiveController {
  readonly #host: AnswerAnnouncerHost;
  readonly #language: () => string;
  readonly #announce: (words: string) => void;
  /** The state this list follows for answers. */
  #following?: MemberState;

  constructor(host: AnswerAnnouncerHost, language: () => string, announce: (words: string) => void) {
    this.#host = host;
    this.#language = language;
    this.#announce = announce;
    host.addController(this);
  }

  hostUpdate(): void {
    this.#follow(this.#host.isConnected ? this.#host.memberState : undefined);
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
    if (this.#host.selected) return;
    const { consultationId } = (event as CustomEvent<{ consultationId: string }>).detail;
    const record = this.#host.memberState?.consultation(consultationId);
    if (record) this.#announce(answeredWords(record, this.#language()));
  };
}
