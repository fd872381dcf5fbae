/**
 * Registers an element with its session's placement (`src/session/placement.ts`) while it is on
 * the page: a list as the place that shows a consultation, a form as the place that takes a new
 * question. Follows the element to another session, and lets go when it leaves the page.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Placement } from '../../session/placement.js';

export class PlaceController implements ReactiveController {
  readonly #host: ReactiveControllerHost & HTMLElement;
  readonly #placement: () => Placement | undefined;
  readonly #register: (placement: Placement) => () => void;
  #registered?: { placement: Placement; release: () => void };

  /** `placement` answers the host's session's placement now; `register` adds the host to it. */
  constructor(
    host: ReactiveControllerHost & HTMLElement,
    placement: () => Placement | undefined,
    register: (placement: Placement) => () => void,
  ) {
    this.#host = host;
    this.#placement = placement;
    this.#register = register;
    host.addController(this);
  }

  hostUpdate(): void {
    this.#follow(this.#host.isConnected ? this.#placement() : undefined);
  }

  hostDisconnected(): void {
    this.#follow(undefined);
  }

  #follow(placement: Placement | undefined): void {
    if (placement === this.#registered?.placement) return;
    this.#registered?.release();
    this.#registered = placement ? { placement, release: this.#register(placement) } : undefined;
  }
}
