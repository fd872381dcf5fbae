/**
 * Keeps what the member is reading or typing where it is on screen while an element updates: the
 * focused control, else a given landmark while it is in view. Content growing above it (an answer
 * arriving) scrolls the page by as much, so the member's place does not jump.
 */
import type { ReactiveController, ReactiveElement } from 'lit';

export class KeepInPlaceController implements ReactiveController {
  readonly #host: ReactiveElement;
  readonly #landmark: string;
  #anchor?: { element: Element; top: number };

  /** `landmark` is a selector in the host's shadow root, kept in place while it is in view. */
  constructor(host: ReactiveElement, landmark: string) {
    this.#host = host;
    this.#landmark = landmark;
    host.addController(this);
  }

  hostUpdate(): void {
    this.#anchor = undefined;
    if (!this.#host.hasUpdated) return;
    const root = this.#host.renderRoot as ShadowRoot;
    const element = root.activeElement ?? root.querySelector(this.#landmark);
    if (!element) return;
    const { top, bottom } = element.getBoundingClientRect();
    if (bottom > 0 && top < innerHeight) this.#anchor = { element, top };
  }

  hostUpdated(): void {
    const anchor = this.#anchor;
    this.#anchor = undefined;
    if (!anchor?.element.isConnected) return;
    const moved = anchor.element.getBoundingClientRect().top - anchor.top;
    if (Math.abs(moved) >= 1) scrollBy({ top: moved, behavior: 'instant' });
  }
}
