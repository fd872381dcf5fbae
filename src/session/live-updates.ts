/**
 * Keeps the member's consultations current while an element shows them: the one live event
 * stream of the session, open while anyone watches, its events turned into the member state's
 * hints (an event is never the consultation's data), and the page's visibility, which sets the
 * state's polling pace.
 */
import type { ConsultationEvent } from '../client/browser-types.js';
import { EventStream, type EventStreamOptions } from './event-stream.js';
import type { MemberState } from './member-state.js';

export interface LiveUpdatesOptions extends Pick<
  EventStreamOptions,
  'url' | 'token' | 'fetch' | 'refused' | 'onSilent'
> {
  state: MemberState;
  /** The proxy said the session ended: sign in again, once. */
  signInAgain(): void;
  /** The stream opened (it said something) or closed. */
  onLive(live: boolean): void;
  /** Updates may have been missed: what is shown is read again. */
  onResync(): void;
}

export class LiveUpdates {
  readonly #state: MemberState;
  readonly #stream: EventStream;
  #watchers = 0;

  constructor({ state, signInAgain, onLive, ...stream }: LiveUpdatesOptions) {
    this.#state = state;
    this.#stream = new EventStream({
      ...stream,
      onEvent: (name, data) => {
        if (name === 'consultation') this.#hint(data);
        else if (name === 'ready') this.#onReady(data);
        else if (name === 'session-expired') signInAgain();
      },
      onLive: (live) => {
        if (state.link.live === live) return;
        state.link.setLive(live);
        onLive(live);
      },
    });
  }

  /**
   * The stream comes back for whoever still watches: after a sign-in that follows an ended session,
   * or opened again (`anew`) at another endpoint.
   */
  resume(anew = false): void {
    if (!this.#watchers) return;
    if (anew) this.#stream.stop();
    this.#stream.start();
  }

  /** The session ended: the stream closes until the member signs in again. */
  stop(): void {
    this.#stream.stop();
  }

  /** Watches until the answered function is called: the stream is open, and the state polls when the proxy cannot push. */
  watch(): () => void {
    const unwatch = this.#state.link.watch();
    if (++this.#watchers === 1) {
      this.#stream.start();
      this.#listenToPage(true);
    }
    let watching = true;
    return () => {
      if (!watching) return;
      watching = false;
      unwatch();
      if (--this.#watchers === 0) {
        this.#stream.stop();
        this.#listenToPage(false);
      }
    };
  }

  /** Polling pauses while the page is hidden. (The browser's `online` and `offline` are the session's.) */
  #onVisibility = (): void => this.#state.link.visibilityChanged();

  /** The page's signals, listened to only while an element shows the member's consultations. */
  #listenToPage(on: boolean): void {
    const method = on ? 'addEventListener' : 'removeEventListener';
    if (typeof document !== 'undefined') document[method]('visibilitychange', this.#onVisibility);
  }

  /** The stream's first event says whether the proxy pushes answers (it has a webhook) or the page polls. */
  #onReady(data: string): void {
    try {
      const ready = JSON.parse(data) as { webhooks?: unknown };
      this.#state.link.setDelivery(ready.webhooks === false ? 'poll' : 'push');
    } catch {
      // An older proxy's ready event: it pushes.
    }
  }

  /** An event is a hint: the consultation is re-read by the state, never taken from the event. */
  #hint(data: string): void {
    let hint: Partial<ConsultationEvent>;
    try {
      hint = JSON.parse(data) as typeof hint;
    } catch {
      return;
    }
    if (hint.consultationId) this.#state.hint(hint.consultationId, hint);
  }
}
