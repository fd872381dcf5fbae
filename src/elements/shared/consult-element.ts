import { LitElement } from 'lit';
import { property } from 'lit/decorators.js';
import { VERSION } from '../../version.js';
import { directionOf, isLoaded, loadLanguage, type LocalizedHost } from './localize.js';
import { checkAttributes } from '../../session/developer-hints.js';
import { hostStyles } from './styles.js';
import { defineElement, tagOf, type RegisteredClass } from './registration.js';
import { LanguageWatch } from './language-watch.js';
import { useSystemFontIfPageHasNone } from './system-font.js';

export { VERSION };
export { errorNotice } from './error-notice.js';

type ElementClass = typeof ConsultElement;

/**
 * The base of every element: shared host styles and tokens, reactive `lang` and `dir`, strings in
 * the element's language (loaded before it renders, so there is no flash of English), typed events,
 * and a `define()` that never throws.
 */
export class ConsultElement extends LitElement implements LocalizedHost {
  static override styles = [hostStyles];
  static readonly version = VERSION;

  /**
   * Elements this one renders, by their default tag: `define()` registers them too, and the
   * element renders each under whatever name it ended up registered as (`tagOf`).
   */
  static dependencies: Record<string, ElementClass> = {};

  /**
   * Registers the element as `name`. A class already registered under another name is registered
   * again as an anonymous subclass, so a second name always works; a name taken by something else
   * only warns (two copies of the bundle on one partner page must not break it).
   *
   * On a server there is nothing to register and nobody to warn: with no `customElements` at all
   * it does nothing, and on Lit's stand-in registry (Node, where there is no `document`) a name
   * already taken stays silent. A server framework may load the package once per bundle it builds
   * (Next.js's server and client component layers), all on the one stand-in registry; the elements
   * are registered for real in the browser.
   */
  static define(
    name: string,
    registry: CustomElementRegistry | undefined = globalThis.customElements,
  ): CustomElementConstructor {
    return defineElement(this as unknown as RegisteredClass, name, registry);
  }

  /** The tag an element class is registered under, for rendering it; its default name otherwise. */
  static tagOf: (element: ElementClass, fallback: string) => string = tagOf;

  /**
   * A new element of one of this element's `dependencies`, under the name its class is registered
   * as. Made with `createElement`, never from markup: the one HTML sink stays the markdown renderer.
   */
  static createDependency<T extends HTMLElement>(element: ElementClass, fallback: string): T {
    return document.createElement(tagOf(element, fallback)) as T;
  }

  /** The language of the element's text (BCP 47). Without it: the session's, the member's, then the page's. */
  @property() override lang = '';

  /** `ltr` or `rtl`; without it, the direction of the language in use. */
  @property() override dir = '';

  /** `light` or `dark` forces a look; without it the member's system preference is followed. */
  @property({ reflect: true }) theme?: 'light' | 'dark';

  #language = 'en';
  readonly #languageWatch = new LanguageWatch(this);

  /** The language this update renders in, resolved once per update. @internal */
  get resolvedLanguage(): string {
    return this.#language;
  }

  /** The direction this update renders in. @internal */
  get resolvedDir(): 'ltr' | 'rtl' {
    return this.dir === 'rtl' || this.dir === 'ltr' ? this.dir : directionOf(this.#language);
  }

  /** The member's language, when a session knows it; it comes after an explicit `lang`. */
  protected get memberLanguage(): string | undefined {
    return undefined;
  }

  readonly #internals = this.attachInternals();

  override connectedCallback(): void {
    super.connectedCallback();
    useSystemFontIfPageHasNone(this, this.#internals);
    // A misspelt attribute does nothing, silently, and a property a framework set as an attribute
    // (bound before the element was defined) never arrives: the console says so, once.
    if (!this.hasUpdated) {
      const { observedAttributes, elementProperties } = this.constructor as typeof LitElement;
      checkAttributes(this, observedAttributes, elementProperties);
    }
  }

  /**
   * Resolves the language before each update and waits for its strings, so the element renders
   * in the new language at once rather than in English first.
   */
  protected override async scheduleUpdate(): Promise<void> {
    const language = this.#languageWatch.resolve(this.lang, this.memberLanguage);
    if (!isLoaded(language)) {
      // A language chunk that cannot load (offline) leaves the element in English, not blank.
      await loadLanguage(language).catch(() => undefined);
    }
    this.#language = isLoaded(language) ? language : 'en';
    await super.scheduleUpdate();
  }

  /**
   * Focus is in this element, or nowhere (the button that had it was just removed): moving it
   * after an update takes it from no one.
   * @internal
   */
  focusIsFree(): boolean {
    const active = document.activeElement;
    return Boolean(this.shadowRoot?.activeElement) || !active || active === document.body;
  }

  /** Dispatches one of the elements' typed events from this element. */
  protected emit(event: Event): boolean {
    return this.dispatchEvent(event);
  }
}
