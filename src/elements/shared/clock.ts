/**
 * The clock relative times ("5 minutes ago") are told against: moved on every 30 seconds while the
 * element is on the page, so what it says stays true.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

const TICK_MS = 30_000;

export class ClockController implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  #timer?: ReturnType<typeof setInterval>;
  now = Date.now();

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  hostConnected(): void {
    this.#tick();
    this.#timer = setInterval(() => this.#tick(), TICK_MS);
  }

  hostDisconnected(): void {
    clearInterval(this.#timer);
  }

  #tick(): void {
    this.now = Date.now();
    this.#host.requestUpdate();
  }
}
