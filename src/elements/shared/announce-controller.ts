/**
 * What an element tells screen readers: through its session's one announcer (heard once however
 * many elements tell it) when the element is inside `<consult-session>`, or through a live region
 * of its own when it is used alone. The element's own words are the member's view: they go when
 * the member changes.
 */
import { html, nothing, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { MemberController } from './member-controller.js';

export class AnnounceController {
  readonly #host: ReactiveControllerHost;
  readonly #member: MemberController;
  #own = '';

  constructor(host: ReactiveControllerHost, member: MemberController) {
    this.#host = host;
    this.#member = member;
    member.holds(this);
  }

  /** Tells screen readers `text`, assertively when `urgent`. */
  announce(text: string, urgent = false): void {
    if (this.#member.fromContext) {
      this.#member.session?.announcer.announce(text, urgent);
      return;
    }
    // The same words twice in a row would not be read again: make them differ invisibly.
    this.#own = this.#own === text ? `${text}\u00a0` : text;
    this.#host.requestUpdate();
  }

  /** The element's own live region, rendered only when no `<consult-session>` speaks for it. */
  render(): TemplateResult | typeof nothing {
    if (this.#member.fromContext) return nothing;
    return html`<div class="visually-hidden" role="status">${this.#own}</div>`;
  }

  forget(): void {
    this.#own = '';
  }
}
