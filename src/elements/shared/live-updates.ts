/**
 * Live updates for an element that shows consultations: the session's consultation events while
 * the live stream is open, and polling while it is not.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ConsultationUpdate, SessionManager } from '../../session/session.js';

/** What the host decides: what an update does to its data, what to poll and when. */
export interface LiveUpdatesOptions {
  /** A consultation changed upstream. */
  onUpdate(update: ConsultationUpdate): void;
  /** Re-reads what the host shows; `signal` aborts when polling stops. Failures are ignored. */
  poll(session: SessionManager, signal: AbortSignal): Promise<void> | void;
  /** Whether anything on screen is still waiting for a change worth polling for. */
  shouldPoll(): boolean;
  /** Milliseconds between polls; 0 or less turns polling off. */
  interval(): number;
}

/**
 * Subscribes the host to its session's consultation updates, and polls while the live stream is
 * down. The host hands over its session from `sessionChanged`; polling follows the host's updates.
 */
export class LiveUpdatesController implements ReactiveController {
  readonly #host: ReactiveControllerHost & HTMLElement;
  readonly #options: LiveUpdatesOptions;
  #session?: SessionManager;
  #unsubscribe?: () => void;
  #polling?: { every: number; timer: ReturnType<typeof setInterval>; controller: AbortController };

  /** Attaches to `host`; `options` carry the host's own logic. */
  constructor(host: ReactiveControllerHost & HTMLElement, options: LiveUpdatesOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  /** Follows another session (or none): its updates, its live stream, its polling. */
  setSession(session: SessionManager | undefined): void {
    this.#unsubscribe?.();
    this.#session?.removeEventListener('live', this.#onLive);
    this.#session?.removeEventListener('status', this.#onLive);
    this.#session?.removeEventListener('resync', this.#onResync);
    this.#session = session;
    this.#unsubscribe = session?.subscribe((update) => this.#options.onUpdate(update));
    session?.addEventListener('live', this.#onLive);
    // Events were missed that cannot be replayed: read what is shown once, now.
    session?.addEventListener('resync', this.#onResync);
    // A signed-out or refused session polls no more.
    session?.addEventListener('status', this.#onLive);
    this.#sync();
  }

  /** Starts polling if it is due. */
  hostConnected(): void {
    this.#sync();
  }

  /** A detached element polls no more. */
  hostDisconnected(): void {
    this.#stop();
  }

  /** The host's data or interval may have changed whether (and how often) to poll. */
  hostUpdated(): void {
    this.#sync();
  }

  #onLive = (): void => this.#sync();

  #onResync = (): void => {
    const session = this.#session;
    if (!session || !this.#host.isConnected) return;
    void Promise.resolve(this.#options.poll(session, new AbortController().signal)).catch(() => undefined);
  };

  /** Polls while the live stream is down and the host wants it; stops otherwise. */
  #sync(): void {
    const session = this.#session;
    const interval = this.#options.interval();
    const every =
      this.#host.isConnected &&
      session?.status === 'ready' &&
      !session.live &&
      interval > 0 &&
      this.#options.shouldPoll()
        ? interval
        : undefined;
    // A running timer at the same pace keeps going rather than restarting its wait.
    if (this.#polling?.every === every) return;
    this.#stop();
    if (every === undefined || !session) return;
    const controller = new AbortController();
    let inFlight = false;
    const timer = setInterval(async () => {
      // A slow answer must not pile up requests behind it.
      if (inFlight) return;
      inFlight = true;
      try {
        await this.#options.poll(session, controller.signal);
      } catch {
        // The next poll or the live stream catches up.
      } finally {
        inFlight = false;
      }
    }, every);
    this.#polling = { every, timer, controller };
  }

  #stop(): void {
    if (!this.#polling) return;
    clearInterval(this.#polling.timer);
    this.#polling.controller.abort();
    this.#polling = undefined;
  }
}
