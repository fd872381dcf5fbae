/**
 * Tells `<case-history>` when the end of its rendered rows scrolls near (its `.sentinel`), so the
 * next chunk renders before the member reaches it.
 */
import type { ReactiveController, ReactiveElement } from 'lit';

export class NearEndController implements ReactiveController {
  readonly #host: ReactiveElement;
  readonly #onNear: () => void;
  #observer?: IntersectionObserver;
  #observed?: Element;

  constructor(host: ReactiveElement, onNear: () => void) {
    this.#host = host;
    this.#onNear = onNear;
    host.addController(this);
  }

  hostUpdated(): void {
    const sentinel = this.#host.renderRoot.querySelector('.sentinel') ?? undefined;
    if (sentinel === this.#observed) return;
    this.#observer?.disconnect();
    this.#observed = sentinel;
    if (!sentinel || typeof IntersectionObserver === 'undefined') return;
    this.#observer ??= new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        this.#onNear();
        // Still in view after the chunk (a tall screen)? Observing again reports it once more.
        void this.#host.updateComplete.then(() => {
          if (!this.#observed) return;
          this.#observer?.unobserve(this.#observed);
          this.#observer?.observe(this.#observed);
        });
      },
      { rootMargin: '0px 0px 400px 0px' },
    );
    this.#observer.observe(sentinel);
  }

  hostDisconnected(): void {
    this.#observer?.disconnect();
    this.#observed = undefined;
  }
}
