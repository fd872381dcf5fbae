/**
 * What `<consult-thread>` tells the member when the consultation on screen changes in the member
 * state (a live hint, a poll, another view's read): an answer (in the same words as the session's
 * own announcement of it, so it is heard once, and `consult-answered` for the page), a reviewer
 * taking it, or its end.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ConsultationView } from '../../client/browser-types.js';
import type { MemberState } from '../../session/member-state.js';
import { ConsultAnsweredEvent } from '../shared/events.js';
import type { LocalizeController } from '../shared/localize.js';
import { answeredWords } from '../shared/status.js';
import { newsOf, statusLine } from './messages.js';

export interface NewsOptions {
  /** The state to follow, while there is one. */
  state: () => MemberState | undefined;
  /** The consultation on screen. */
  consultationId: () => string | undefined;
  localize: LocalizeController<'thread'>;
  announce: (words: string) => void;
  emit: (event: Event) => void;
}

export class NewsController implements ReactiveController {
  readonly #host: ReactiveControllerHost & { readonly isConnected: boolean };
  readonly #options: NewsOptions;
  /** The state whose consultation events this thread follows. */
  #following?: MemberState;

  constructor(host: ReactiveControllerHost & { readonly isConnected: boolean }, options: NewsOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  /**
   * Follows the state in use while the thread is on the page; the element calls it as it updates,
   * before it hands a record of the page to the state (whose change is then heard).
   */
  follow(): void {
    this.#follow(this.#host.isConnected ? this.#options.state() : undefined);
  }

  hostDisconnected(): void {
    this.#follow(undefined);
  }

  #follow(state: MemberState | undefined): void {
    if (state === this.#following) return;
    this.#following?.removeEventListener('consultation', this.#onConsultation);
    this.#following = state;
    state?.addEventListener('consultation', this.#onConsultation);
  }

  #onConsultation = (event: Event): void => {
    const { previous, record } = (
      event as CustomEvent<{ previous?: ConsultationView; record: ConsultationView }>
    ).detail;
    if (record.consultationId !== this.#options.consultationId() || !previous) return;
    this.#told(previous, record);
  };

  /** Tells the member what changed between two records of the consultation on screen. */
  #told(previous: ConsultationView, next: ConsultationView): void {
    const { localize, announce } = this.#options;
    const news = newsOf(previous, next);
    // An answer in the same words as the session's own announcement of it: heard once.
    if (news === 'answered') {
      announce(answeredWords(next, localize.language));
      this.#options.emit(
        new ConsultAnsweredEvent({ consultationId: next.consultationId, status: next.status }),
      );
    } else if (news === 'reviewing') {
      // The status line's words: the reviewer named when the screen names them.
      announce(statusLine(next, localize));
    } else if (news) announce(localize.t(news));
  }
}
