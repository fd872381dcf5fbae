/**
 * Localization: English, German, French, Spanish, Dutch and Arabic. Each element keeps its
 * strings in a table typed by its English strings, so a missing translation is a type error.
 * The language comes from the element's `lang`, then the member's language, then the page's.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export const LANGUAGES = ['en', 'de', 'fr', 'es', 'nl', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];

const RTL: ReadonlySet<Language> = new Set(['ar']);

/** A string, or a function of values for plurals and interpolation. */
export type Message = string | ((...args: never[]) => string);
type Widen<T> = { [K in keyof T]: T[K] extends string ? string : T[K] };
export type StringTable<T extends Record<string, Message>> = Record<Language, Widen<T>>;

/** Declares an element's strings: English first, every other language with exactly the same keys. */
export function defineStrings<T extends Record<string, Message>>(
  table: { en: T } & { [L in Exclude<Language, 'en'>]: NoInfer<Widen<T>> },
): StringTable<T> {
  return table as StringTable<T>;
}

/** The first candidate whose primary subtag is a supported language; English otherwise. */
export function resolveLanguage(...candidates: (string | null | undefined)[]): Language {
  for (const candidate of candidates) {
    const primary = candidate?.trim().toLowerCase().split(/[-_]/)[0];
    if (primary && (LANGUAGES as readonly string[]).includes(primary)) return primary as Language;
  }
  return 'en';
}

export const directionOf = (language: Language): 'ltr' | 'rtl' => (RTL.has(language) ? 'rtl' : 'ltr');

/** Intl pieces for a language: dates, numbers and plural categories. */
export function formatters(language: Language) {
  const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium' });
  const dateTime = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  const number = new Intl.NumberFormat(language);
  const plural = new Intl.PluralRules(language);
  const relative = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  return {
    date: (value: string | number | Date) => date.format(new Date(value)),
    dateTime: (value: string | number | Date) => dateTime.format(new Date(value)),
    number: (value: number) => number.format(value),
    plural: (value: number) => plural.select(value),
    relative,
  };
}

interface LocalizedHost extends ReactiveControllerHost, HTMLElement {
  /** The member's language, when a session knows it. */
  readonly memberLanguage?: string | undefined;
}

/**
 * Resolves the element's language and direction, and re-renders when the page's language
 * changes (Shoelace's approach: one observer on <html lang> for all elements).
 */
export class LocalizeController<T extends Record<string, Message>> implements ReactiveController {
  static readonly #hosts = new Set<ReactiveControllerHost>();
  static #observer: MutationObserver | undefined;

  constructor(
    private readonly host: LocalizedHost,
    private readonly strings: StringTable<T>,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    LocalizeController.#hosts.add(this.host);
    LocalizeController.#observer ??= new MutationObserver(() => {
      for (const host of LocalizeController.#hosts) host.requestUpdate();
    });
    LocalizeController.#observer.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['lang', 'dir'],
    });
  }

  hostDisconnected(): void {
    LocalizeController.#hosts.delete(this.host);
  }

  get language(): Language {
    const own = this.host.getAttribute('lang');
    // A lang on the enclosing <consult-session> configures all its elements, like their own.
    const session = this.host.parentElement?.closest('consult-session')?.getAttribute('lang');
    const inherited = this.host.parentElement?.closest('[lang]')?.getAttribute('lang');
    // The element's (or its session's) lang wins; then the member's language; then the page's.
    return resolveLanguage(own, session, this.host.memberLanguage, inherited, document.documentElement.lang);
  }

  get dir(): 'ltr' | 'rtl' {
    return directionOf(this.language);
  }

  get format() {
    return formatters(this.language);
  }

  /** The string for `key` in the current language. */
  t<K extends keyof T>(key: K, ...args: T[K] extends (...a: infer A) => string ? A : []): string {
    const message = this.strings[this.language][key] ?? this.strings.en[key];
    return typeof message === 'function'
      ? (message as (...a: unknown[]) => string)(...args)
      : (message as string);
  }
}
