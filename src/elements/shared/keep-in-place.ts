/**
 * Keeps what the member is reading or typing where it is on screen while an element updates: the
 * focused control, else the first message at the top of the screen, else a given landmark while
 * it is in view. Content growing above it (an answer arriving) scrolls the page by as much, so the
 * member's place does not jump, also in browsers without scroll anchoring.
 */
import type { ReactiveController, ReactiveElement } from 'lit';

export class KeepInPlaceController implements ReactiveController {
  readonly #host: ReactiveElement;
  readonly #landmark: string;
  #anchor?: { element: Element; top: number };

  readonly #reading: string;

  /**
   * `reading` selects what the member reads (messages): without focus, the first of them at the
   * top of the screen stays in place; `landmark` (a selector in the host's shadow root) does when
   * none is.
   */
  constructor(host: ReactiveElement, landmark: string, reading: string) {
    this.#host = host;
    this.#landmark = landmark;
    this.#reading = reading;
    host.addController(this);
  }

  hostUpdate(): void {
    this.#anchor = undefined;
    if (!this.#host.hasUpdated) return;
    const root = this.#host.renderRoot as ShadowRoot;
    const inView = (element: Element | null | undefined) => {
      const box = element?.getBoundingClientRect();
      return box && box.bottom > 0 && box.top < innerHeight ? box.top : undefined;
    };
    // What has focus, else the first message the member reads at the top of the screen, else the landmark.
    const focused = root.activeElement;
    const reading = [...root.querySelectorAll(this.#reading)].find((element) => (inView(element) ?? -1) >= 0);
    for (const element of [focused, reading, root.querySelector(this.#landmark)]) {
      const top = inView(element);
      if (element && top !== undefined) {
        this.#anchor = { element, top };
        return;
      }
    }
  }

  hostUpdated(): void {
    const anchor = this.#anchor;
    this.#anchor = undefined;
    if (!anchor?.element.isConnected) return;
    const moved = anchor.element.getBoundingClientRect().top - anchor.top;
    if (Math.abs(moved) >= 1) scrollBy({ top: moved, behavior: 'instant' });
  }
}
