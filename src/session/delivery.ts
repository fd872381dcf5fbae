/**
 * How answers reach the page: pushed through the live stream when the proxy has a webhook, and
 * otherwise (or while the stream is down) by polling the consultations that wait for an answer:
 * 5 s rising to 60 s, only while the page is visible and an element shows consultations, back to
 * 5 s after each change or write. While answers are pushed, a waiting consultation is still read
 * every 2 minutes, so that an answer whose push never came (a webhook the service could not
 * deliver, a public URL that does not reach the proxy) shows all the same.
 */
import type { ConsultationView } from '../client/browser-types.js';
import type { Timer } from './state-basics.js';

/** How answers reach the page: pushed through the live stream, or polled while it cannot push. */
export type Delivery = 'push' | 'poll';

/** At most this many consultations are re-read per poll, the newest first. */
const MAX_POLLED = 20;
const POLL_GROWTH = 1.5;
/** While answers are pushed: how often a waiting consultation is read in case its push is lost. */
export const PUSHED_CHECK_MS = 120_000;

export interface DeliveryOptions {
  /** Polling pace: the first wait and the longest; `pushedMs`, the check while pushed (2 minutes). */
  pace: { firstMs: number; maxMs: number; pushedMs?: number };
  /** Whether the page is visible; polling pauses while it is not. */
  visible(): boolean;
  timer: Timer;
  /** Whether any of the member's consultations waits for an answer (none without a member). */
  anyWaiting(): boolean;
  /** The consultations waiting for an answer, newest first. */
  waiting(): ConsultationView[];
  /** Reads a consultation again, in the member's scope. */
  read(id: string): Promise<unknown>;
  /** The member's scope now. */
  scope(): AbortSignal;
  changed(): void;
}

export class AnswerDelivery {
  readonly #options: DeliveryOptions;
  #live = false;
  #delivery: Delivery = 'push';
  #watchers = 0;
  #poll?: { timer: unknown; delay: number };
  #delay: number;
  /** Counts the records that changed: a poll that moves it found something. */
  #version = 0;
  /** When the waiting consultations were last read while pushed (or watching began). */
  #checkedAt = Date.now();

  constructor(options: DeliveryOptions) {
    this.#options = options;
    this.#delay = options.pace.firstMs;
  }

  /** Whether the live stream is open. */
  get live(): boolean {
    return this.#live;
  }

  /** How answers reach the page now. */
  get delivery(): Delivery {
    return this.#live && this.#delivery === 'push' ? 'push' : 'poll';
  }

  /** Whether an element shows the member's consultations. */
  get watched(): boolean {
    return this.#watchers > 0;
  }

  setLive(live: boolean): void {
    if (this.#live === live) return;
    this.#live = live;
    this.#options.changed();
    this.schedule();
  }

  setDelivery(delivery: Delivery): void {
    if (this.#delivery === delivery) return;
    this.#delivery = delivery;
    this.#options.changed();
    this.schedule();
  }

  /** An element shows consultations until it calls the function answered. */
  watch(): () => void {
    this.#watchers++;
    this.schedule();
    let watching = true;
    return () => {
      if (!watching) return;
      watching = false;
      this.#watchers--;
      this.schedule();
    };
  }

  /** A record changed: the next poll comes soon again. */
  noteChange(): void {
    this.#version++;
    this.#delay = this.#options.pace.firstMs;
  }

  /** A write went through: poll soon again, an answer may follow. */
  quicken(): void {
    this.#delay = this.#options.pace.firstMs;
    this.schedule();
  }

  /** Another member: polling starts over at the first pace. */
  reset(): void {
    this.stop();
    this.#delay = this.#options.pace.firstMs;
  }

  #shouldPoll(): boolean {
    const options = this.#options;
    return this.#watchers > 0 && options.visible() && options.anyWaiting();
  }

  /** The wait before the next read: the polling pace, or the slow check while answers are pushed. */
  #nextDelay(): number {
    if (this.delivery === 'poll') return this.#delay;
    // Counted from the last read, so that a page hidden and shown again often is still checked.
    const every = this.#options.pace.pushedMs ?? PUSHED_CHECK_MS;
    return Math.max(0, every - (Date.now() - this.#checkedAt));
  }

  /** Polls while it should, at the current pace; a running wait keeps going. */
  schedule(): void {
    if (!this.#shouldPoll()) {
      // Nothing to check, or no one to show it: the 2 minutes start when there is. A hidden page
      // keeps counting, so that one hidden and shown again often is still checked.
      if (this.#watchers === 0 || !this.#options.anyWaiting()) this.#checkedAt = Date.now();
      this.stop();
      return;
    }
    const delay = this.#nextDelay();
    // A shorter pace than the wait running (a change, a write) starts over at it.
    if (this.#poll && this.#poll.delay <= delay) return;
    this.stop();
    const { timer, pace } = this.#options;
    const scope = this.#options.scope();
    const handle = timer.set(async () => {
      this.#poll = undefined;
      const version = this.#version;
      const due = this.#options.waiting().slice(0, MAX_POLLED);
      await Promise.allSettled(due.map((c) => this.#options.read(c.consultationId)));
      this.#checkedAt = Date.now();
      if (scope.aborted) return;
      // Nothing moved: wait longer next time, up to the longest pace.
      if (this.#version === version && delay === this.#delay)
        this.#delay = Math.min(pace.maxMs, Math.round(this.#delay * POLL_GROWTH));
      this.schedule();
    }, delay);
    this.#poll = { timer: handle, delay };
  }

  /** Stops the wait running. */
  stop(): void {
    if (!this.#poll) return;
    this.#options.timer.clear(this.#poll.timer);
    this.#poll = undefined;
  }
}
