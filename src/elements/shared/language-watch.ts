/**
 * The elements' language follows the page: a `lang` or `dir` set on <html>, on a
 * <consult-session> or on any other ancestor, and strings that arrive later, render every
 * connected element again. One observer for the page, while any element is connected.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { onTranslationsChanged, resolveLanguage } from './localize.js';

const connected = new Set<ReactiveControllerHost>();
let languageObserver: MutationObserver | undefined;
let stopListening: (() => void) | undefined;

const renderAll = (): void => {
  for (const element of connected) element.requestUpdate();
};

export class LanguageWatch implements ReactiveController {
  readonly #host: ReactiveControllerHost & HTMLElement;

  constructor(host: ReactiveControllerHost & HTMLElement) {
    this.#host = host;
    host.addController(this);
  }

  hostConnected(): void {
    connected.add(this.#host);
    if (languageObserver) return;
    languageObserver = new MutationObserver(renderAll);
    languageObserver.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['lang', 'dir'],
      subtree: true,
    });
    stopListening = onTranslationsChanged(renderAll);
  }

  hostDisconnected(): void {
    connected.delete(this.#host);
    if (connected.size > 0) return;
    languageObserver?.disconnect();
    languageObserver = undefined;
    stopListening?.();
  }

  /** The element's language: its own, its session's, the member's, an ancestor's, the page's. */
  resolve(own: string, member: string | undefined): string {
    const host = this.#host;
    // A lang on the enclosing <consult-session> configures all its elements, like their own.
    const session = host.parentElement?.closest('consult-session')?.getAttribute('lang');
    const inherited = host.parentElement?.closest('[lang]')?.getAttribute('lang');
    return resolveLanguage(own, session, member, inherited, document.documentElement.lang);
  }
}
