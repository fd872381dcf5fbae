/**
 * Localization: one translation module per language for all elements (`../translations/en.ts`,
 * `de.ts`, …), typed by the English one. English ships with the elements; every other built-in
 * language is its own chunk, loaded the first time an element needs it. A partner can override any
 * string or add a language with `registerTranslation`.
 *
 * Messages are data: `{name}` placeholders, and plural forms (`{ one, other, … }`) chosen by
 * `Intl.PluralRules` on the `count` parameter. Numbers are formatted by `Intl.NumberFormat`.
 */
import en from '../translations/en-core.js';
import type { EnglishTranslation } from '../translations/en.js';

/** The languages that ship with the elements. */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'nl', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Plural forms by `Intl.PluralRules` category; `other` is always there. */
export type PluralMessage = { other: string } & Partial<
  Record<Exclude<Intl.LDMLPluralRule, 'other'>, string>
>;
type Message = string | PluralMessage;

type Widen<T> = {
  [N in keyof T]: N extends `$${string}`
    ? string
    : { [K in keyof T[N]]: T[N][K] extends string ? string : PluralMessage };
};

/** A complete translation: every key of the English one. `$code` is a BCP 47 language tag. */
export type Translation = Widen<EnglishTranslation> & { $dir: 'ltr' | 'rtl' };
/** What `registerTranslation` takes: any subset of the keys, for overrides or a partial language. */
export type TranslationOverride = { $code: string; $name?: string; $dir?: 'ltr' | 'rtl' } & {
  [N in Namespace]?: Partial<Translation[N]>;
};
/** The groups of strings: one per element, and the shared ones. */
export type Namespace = Exclude<keyof EnglishTranslation, `$${string}`>;

/** The `{placeholders}` a message needs, read from its English text. */
type Placeholders<S> = S extends `${string}{${infer P}}${infer Rest}` ? P | Placeholders<Rest> : never;
type PlaceholdersOf<M> = M extends string
  ? Placeholders<M>
  : M extends object
    ? Placeholders<M[keyof M]> | 'count'
    : never;
export type MessageArgs<M> = [PlaceholdersOf<M>] extends [never]
  ? []
  : [Record<PlaceholdersOf<M>, string | number>];

const registered = new Map<string, TranslationOverride>([['en', en as TranslationOverride]]);
const loaders: Record<Exclude<Language, 'en'>, () => Promise<{ default: TranslationOverride }>> = {
  de: () => import('../translations/de.js'),
  fr: () => import('../translations/fr.js'),
  es: () => import('../translations/es.js'),
  nl: () => import('../translations/nl.js'),
  ar: () => import('../translations/ar.js'),
};
const loading = new Map<string, Promise<void>>();
const loaded = new Set<string>(['en']);
const listeners = new Set<() => void>();

const normalize = (code: string) => code.trim().toLowerCase().replace(/_/g, '-');

/**
 * Adds a language or overrides strings of one. Overrides merge key by key with what is there, so
 * `registerTranslation({ $code: 'en', form: { submit: 'Ask a doctor' } })` changes one button.
 * Elements on the page render again in the new words.
 */
export function registerTranslation(...translations: TranslationOverride[]): void {
  for (const translation of translations) {
    const code = normalize(translation.$code);
    const current = registered.get(code);
    const merged: Record<string, unknown> = { ...current, ...translation, $code: code };
    for (const [name, group] of Object.entries(translation) as [string, object][]) {
      const before = current?.[name as Namespace];
      if (!name.startsWith('$') && before) merged[name] = { ...before, ...group };
    }
    registered.set(code, merged as TranslationOverride);
  }
  for (const listener of listeners) listener();
}

/**
 * English that an element's chunk carries (the thread's, the list's, the navigator's, the plan's and
 * the prescriptions'), registered as that chunk runs: beneath any words the page registered for
 * them before.
 */
export function addEnglish(namespaces: Partial<Record<Namespace, object>>): void {
  const current = (registered.get('en') ?? {}) as Record<string, unknown>;
  const merged: Record<string, unknown> = { ...current };
  for (const [name, group] of Object.entries(namespaces))
    merged[name] = { ...group, ...(current[name] as object) };
  registered.set('en', merged as TranslationOverride);
}

/** Calls `listener` whenever a translation is registered or loaded; answers an unsubscribe. */
export function onTranslationsChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The registered code for `candidate` (`de-CH` falls back to `de`), whether loaded yet or not. */
function match(candidate: string | null | undefined): string | undefined {
  if (!candidate?.trim()) return undefined;
  const code = normalize(candidate).split(/-[ux]-/)[0] ?? '';
  const [primary] = code.split('-');
  for (const option of [code, primary ?? code]) {
    if (registered.has(option) || option in loaders) return option;
  }
  return undefined;
}

/** The translation a locale's strings come from: `de-CH` and `ar-u-nu-arab` speak `de` and `ar`. */
const stringsOf = (locale: string): string => match(locale) ?? 'en';

/**
 * The locale to render in: the first candidate whose language the elements can speak (a registered
 * or built-in one), English otherwise. A Unicode extension stays, so `lang="ar-u-nu-arab"` shows
 * Arabic-Indic digits.
 */
export function resolveLanguage(...candidates: (string | null | undefined)[]): string {
  for (const candidate of candidates) {
    const code = match(candidate);
    if (!code) continue;
    const extension = /-(u-.+)$/i.exec(candidate?.trim() ?? '')?.[1];
    return extension ? `${code}-${extension.toLowerCase()}` : code;
  }
  return 'en';
}

/** Whether the strings for `locale` are here (registered, or a built-in language already loaded). */
export function isLoaded(locale: string): boolean {
  const code = stringsOf(locale);
  return code in loaders ? loaded.has(code) : registered.has(code);
}

/** Loads a built-in language's strings; partner overrides registered before stay on top. */
export function loadLanguage(locale: string): Promise<void> {
  const code = stringsOf(locale);
  const loader = loaders[code as Exclude<Language, 'en'>];
  if (!loader) return Promise.resolve();
  let promise = loading.get(code);
  if (!promise) {
    promise = loader().then(
      ({ default: translation }) => {
        const overrides = registered.get(code);
        registered.delete(code);
        loaded.add(code);
        registerTranslation(translation, ...(overrides ? [overrides] : []));
      },
      (error: unknown) => {
        // A chunk that failed to load (offline, a deploy in between) is tried again next time.
        loading.delete(code);
        throw error;
      },
    );
    loading.set(code, promise);
  }
  return promise;
}

/** The text direction of a language: the translation's `$dir`, else by script. */
export function directionOf(locale: string): 'ltr' | 'rtl' {
  const code = stringsOf(locale);
  const declared = registered.get(code)?.$dir;
  if (declared) return declared;
  return /^(ar|fa|he|ur|ps|yi|dv|ckb)\b/.test(code) ? 'rtl' : 'ltr';
}

/** Intl formatters for one language, made once and reused by every element. */
export interface Formatters {
  date(value: string | number | Date): string;
  dateTime(value: string | number | Date): string;
  /** The time of day, for today's messages. */
  time(value: string | number | Date): string;
  number(value: number): string;
  plural(value: number): Intl.LDMLPluralRule;
  list(items: string[]): string;
  /** A country or region's name from its ISO 3166 code; the code itself when unknown. */
  region(code: string): string;
  readonly relative: Intl.RelativeTimeFormat;
}
const formattersByLanguage = new Map<string, Formatters>();

/**
 * Each formatter is made the first time it is used: making one loads ICU data, and an element's
 * first frame (a question box) needs none of them.
 */
export function formatters(code: string): Formatters {
  let cached = formattersByLanguage.get(code);
  if (!cached) {
    let date: Intl.DateTimeFormat | undefined;
    let dateTime: Intl.DateTimeFormat | undefined;
    let time: Intl.DateTimeFormat | undefined;
    let number: Intl.NumberFormat | undefined;
    let plural: Intl.PluralRules | undefined;
    let list: Intl.ListFormat | undefined;
    let regions: Intl.DisplayNames | undefined;
    let relative: Intl.RelativeTimeFormat | undefined;
    // Whole numbers under 1,000 are written with plain digits in these languages (in every
    // browser), so counters need no NumberFormat, whose first use is a long task before the
    // question box could paint. A tag with its own numbering (`-u-nu-…`) does not match.
    const plainDigits = /^(en|de|es|fr|nl)(-[a-z\d]{2,8})*$/i.test(code);
    cached = {
      date: (value) =>
        (date ??= new Intl.DateTimeFormat(code, { dateStyle: 'medium' })).format(new Date(value)),
      dateTime: (value) =>
        (dateTime ??= new Intl.DateTimeFormat(code, { dateStyle: 'medium', timeStyle: 'short' })).format(
          new Date(value),
        ),
      time: (value) =>
        (time ??= new Intl.DateTimeFormat(code, { timeStyle: 'short' })).format(new Date(value)),
      number: (value) =>
        plainDigits && Number.isInteger(value) && value >= 0 && value < 1000
          ? String(value)
          : (number ??= new Intl.NumberFormat(code)).format(value),
      plural: (value) => (plural ??= new Intl.PluralRules(code)).select(value),
      list: (items) => (list ??= new Intl.ListFormat(code, { type: 'conjunction' })).format(items),
      region: (region) => {
        try {
          return (
            (regions ??= new Intl.DisplayNames([code], { type: 'region' })).of(region.toUpperCase()) ?? region
          );
        } catch {
          return region;
        }
      },
      get relative() {
        return (relative ??= new Intl.RelativeTimeFormat(code, { numeric: 'auto' }));
      },
    };
    formattersByLanguage.set(code, cached);
  }
  return cached;
}

/** One message in `code`, with English as the fallback for a key a partial translation lacks. */
export function translate(
  locale: string,
  namespace: Namespace,
  key: string,
  params: Record<string, string | number> = {},
): string {
  const group = (registered.get(stringsOf(locale))?.[namespace] ?? {}) as Record<string, Message | undefined>;
  const english = (registered.get('en')?.[namespace] ?? {}) as Record<string, Message | undefined>;
  const message = group[key] ?? english[key] ?? key;
  const format = formatters(locale);
  const text =
    typeof message === 'string'
      ? message
      : (message[format.plural(Number(params.count ?? 0))] ?? message.other);
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === 'number' ? format.number(value) : value;
  });
}

/** What the controller reads from its element: the language and direction resolved for this update. */
export interface LocalizedHost {
  readonly resolvedLanguage: string;
  readonly resolvedDir: 'ltr' | 'rtl';
}

/** An element's strings of one namespace, in the language its base class resolved for this update. */
export class LocalizeController<N extends Namespace> {
  constructor(
    private readonly host: LocalizedHost,
    private readonly namespace: N,
  ) {}

  get language(): string {
    return this.host.resolvedLanguage;
  }

  get dir(): 'ltr' | 'rtl' {
    return this.host.resolvedDir;
  }

  get format(): Formatters {
    return formatters(this.language);
  }

  /** The message for `key`; its `{placeholders}` filled from `params` (numbers formatted). */
  t<K extends keyof EnglishTranslation[N] & string>(
    key: K,
    ...args: MessageArgs<EnglishTranslation[N][K]>
  ): string {
    return translate(this.language, this.namespace, key, args[0]);
  }
}
