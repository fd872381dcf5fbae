/**
 * Where focus goes after an update: one controller for every element, so focus moves only when
 * the member asked for something here, and never away from something they moved on to.
 */
import type { ReactiveController } from 'lit';
import type { ConsultElement } from './consult-element.js';

type Target = string | (() => HTMLElement | null | undefined);

export class FocusController implements ReactiveController {
  readonly #host: ConsultElement;
  #next?: Target;
  #settle?: { settled: () => boolean; target: Target };

  constructor(host: ConsultElement) {
    this.#host = host;
    host.addController(this);
  }

  /**
   * Focuses `target` (a selector in the shadow root, or a function) after the next update, which
   * it asks for: focus moves even when nothing else changed (an empty box handed focus).
   */
  next(target: Target): void {
    this.#next = target;
    this.#host.requestUpdate();
  }

  /**
   * For an action that replaces the control that had focus ("Try again"): once `settled()` holds
   * after an update, focus goes to the first `target` there is, if nobody has taken it since. With
   * `onlyIfFocusedHere` (the default) it does so only when focus was in the element when asked.
   */
  whenSettled(settled: () => boolean, target: Target, onlyIfFocusedHere = true): void {
    const here = !onlyIfFocusedHere || Boolean(this.#host.shadowRoot?.activeElement);
    this.#settle = here ? { settled, target } : undefined;
  }

  hostUpdated(): void {
    const settle = this.#settle;
    if (settle?.settled()) {
      this.#settle = undefined;
      if (this.#host.focusIsFree()) this.#next ??= settle.target;
    }
    const target = this.#next;
    if (!target) return;
    this.#next = undefined;
    const element =
      typeof target === 'string' ? this.#host.renderRoot.querySelector<HTMLElement>(target) : target();
    element?.focus();
  }
}
