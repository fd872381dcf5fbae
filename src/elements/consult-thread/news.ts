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

/** The thread: its state, and the consultation it shows. */
export interface NewsHost extends ReactiveControllerHost {
  readonly isConnected: boolean;
  readonly memberState: MemberState | undefined;
  readonly consultationId?: string | undefined;
}

export class NewsController implements ReactiveController {
  readonly #host: NewsHost;
  readonly #localize: LocalizeController<'thread'>;
  readonly #announce: (words: string) => void;
  readonly #emit: (event: Event) => void;
  /** The state whose consultation events this thread follows. */
  #following?: MemberState;

  constructor(
    host: NewsHost,
    localize: LocalizeController<'thread'>,
    announce: (words: string) => void,
    emit: (event: Event) => void,
  ) {
    this.#host = host;
    this.#localize = localize;
    this.#announce = announce;
    this.#emit = emit;
    host.addController(this);
  }

  /**
   * Follows the state in use while the thread is on the page; the element calls it as it updates,
   * before it hands a record of the page to the state (whose change is then heard).
   */
  follow(): void {
    this.#follow(this.#host.isConnected ? this.#host.memberState : undefined);
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
    if (record.consultationId !== this.#host.consultationId || !previous) return;
    this.#told(previous, record);
  };

  /** Tells the member what changed between two records of the consultation on screen. */
  #told(previous: ConsultationView, next: ConsultationView): void {
    const localize = this.#localize;
    const announce = this.#announce;
    const news = newsOf(previous, next);
    // An answer in the same words as the session's own announcement of it: heard once.
    if (news === 'answered') {
      announce(answeredWords(next, localize.language));
      this.#emit(new ConsultAnsweredEvent({ consultationId: next.consultationId, status: next.status }));
    } else if (news === 'reviewing') {
      // The status line's words: the reviewer named when the screen names them.
      announce(statusLine(next, localize));
    } else if (news) announce(localize.t(news));
  }
}
