/**
 * The script-tag entry (`dist/browser/consult-elements.js`, and `consult-elements/define`): a small
 * loader that knows the elements' tag names and loads an element's code the first time its tag
 * appears on the page, so a page pays only for the elements it uses. Registration never throws:
 * a partner page that already uses one of these names can import the classes from the npm entry
 * and register them under other names instead (`CaseHistory.define('acme-case-history')`).
 *
 * It also exports what a page configures before the elements render: `registerTranslation` for
 * its own strings or languages, and `whenLoaded` to wait for an element's code.
 */
import type { ConsultElement } from './elements/shared/consult-element.js';
import { SHOWN_INSIDE, type ElementTag } from './elements/registry.js';
import { loadLanguage, resolveLanguage } from './elements/shared/localize.js';
import { TRUSTED_TYPES_MISSING } from './trusted-types-message.js';

export {
  LANGUAGES,
  loadLanguage,
  registerTranslation,
  type Language,
  type Translation,
  type TranslationOverride,
} from './elements/shared/localize.js';
export { VERSION } from './version.js';

type Loader = () => Promise<typeof ConsultElement>;

/**
 * Each element's code, a chunk of its own (one literal `import()` each, for the bundler); shared
 * code (Lit, the session, the client) is one chunk. Keyed by the registry's tags
 * (src/elements/registry.ts), no more and no fewer: the compiler refuses a tag added in one place
 * only. The tags' types on `document.createElement` and `querySelector` are read from it (below).
 */
const LOADERS = {
  'consult-session': () =>
    import('./elements/consult-session/consult-session.js').then((module) => module.ConsultSession),
  'consult-form': () =>
    import('./elements/consult-form/consult-form.js').then((module) => module.ConsultForm),
  'case-history': () =>
    import('./elements/case-history/case-history.js').then((module) => module.CaseHistory),
  'consult-thread': () =>
    import('./elements/consult-thread/consult-thread.js').then((module) => module.ConsultThread),
  'navigator-chat': () =>
    import('./elements/navigator-chat/navigator-chat.js').then((module) => module.NavigatorChat),
  'consult-access': () =>
    import('./elements/consult-access/consult-access.js').then((module) => module.ConsultAccess),
  'prescription-request': () =>
    import('./elements/prescription-request/prescription-request.js').then(
      (module) => module.PrescriptionRequest,
    ),
};

/**
 * Each element's loader, by tag. The compiler holds the table to the registry: a loader for each
 * of its tags, and no other key.
 */
export const ELEMENTS: Readonly<Record<string, Loader>> = LOADERS satisfies {
  readonly [Tag in ElementTag]: Loader;
} & { readonly [Other in Exclude<keyof typeof LOADERS, ElementTag>]: never };

/** Each tag's element, the class its loader loads. */
type LoadedElements = {
  [Tag in ElementTag]: InstanceType<Awaited<ReturnType<(typeof LOADERS)[Tag]>>>;
};

const started = new Map<string, Promise<CustomElementConstructor>>();

/** The chunk files asked for so far. */
const requested = new Set<string>();

let toldTrustedTypes = false;

/**
 * The strings of the languages the page's elements are set to (their own `lang` or their session's),
 * fetched beside their code: an element is defined with its words there, so it never stands empty
 * (or in English) while they load.
 */
const pageLanguages = new Map<string, Promise<unknown>>();
function wantLanguageOf(element: Element): void {
  const language = resolveLanguage(
    element.getAttribute('lang'),
    element.closest('consult-session')?.getAttribute('lang'),
  );
  if (language !== 'en' && !pageLanguages.has(language)) {
    pageLanguages.set(
      language,
      loadLanguage(language).catch(() => undefined),
    );
  }
}

/**
 * Each element's chunks: its own, every chunk it imports (the shared core, the English strings) and
 * those of the elements it opens. The build writes them in (scripts/chunk-graph.ts), so that all are
 * asked for in the same moment as the element's own: one wave, instead of each import found only
 * once the chunk naming it has arrived and been read. From the sources it stays unset.
 */
const CHUNK_GRAPH = '__CONSULT_CHUNK_GRAPH__';
let graph: Record<string, string[]> | undefined;
function chunksOf(tag: string): readonly string[] {
  try {
    graph ??= JSON.parse(CHUNK_GRAPH) as Record<string, string[]>;
  } catch {
    graph = {};
  }
  return graph[tag] ?? [];
}

/**
 * Without a chunk graph (the sources, a bundler of the partner's), the code every element shares
 * is still asked for beside the first element's own. Any module of that chunk fetches all of it.
 */
let shared: Promise<unknown> | undefined;
const loadShared = () => (shared ??= import('./elements/shared/styles.js').catch(() => (shared = undefined)));

/**
 * Loads the elements behind `tags` and registers each (once). Those whose code the loader carries
 * (the session and the form) are registered at once; those in chunks, all in the same moment once
 * all of their code is here: the page then renders them in one frame, not one frame (with its
 * style and layout) per element as each chunk arrives, and a form never waits for a list's chunk.
 * (The form registers its thread itself, once the thread's code is here.) One that fails to load
 * does not hold up the others.
 */
function loadTogether(tags: readonly string[]): void {
  const fresh = tags.filter((name) => Object.hasOwn(ELEMENTS, name) && !started.has(name));
  const carried = fresh.filter((name) => !chunksOf(name).length);
  for (const group of [carried, fresh.filter((name) => !carried.includes(name))]) {
    if (group.length) registerTogether(group);
  }
}

function registerTogether(fresh: readonly string[]): void {
  const classes = fresh.map((name) => {
    // Everything it needs is fetched beside its own code, not after it; each file asked for once
    // (an import() costs the page's main thread even for a file already on its way).
    const chunks = chunksOf(name);
    for (const file of chunks) {
      if (!requested.has(file)) {
        requested.add(file);
        void import(/* @vite-ignore */ new URL(file, import.meta.url).href).catch(() =>
          requested.delete(file),
        );
      }
    }
    if (!chunks.length) {
      void loadShared();
      for (const inner of SHOWN_INSIDE[name] ?? []) void ELEMENTS[inner]?.().catch(() => undefined);
    }
    return Promise.all([(ELEMENTS[name] as Loader)(), ...pageLanguages.values()]);
  });
  const allHere = Promise.allSettled(classes);
  fresh.forEach((name, index) => {
    const promise = allHere
      .then(() => classes[index])
      .then((loaded) => (loaded as [typeof ConsultElement])[0].define(name));
    // A chunk that failed to load (offline, a deploy in between) is tried again when the tag appears next.
    promise.catch((error: unknown) => {
      started.delete(name);
      console.error(`consult-elements: could not load <${name}>`, error);
      // Lit could not make its Trusted Types policy: the page's policy lacks its name.
      if (/trusted.?types|createPolicy/i.test(String(error)) && !toldTrustedTypes) {
        toldTrustedTypes = true;
        console.error(`consult-elements: ${TRUSTED_TYPES_MISSING}`);
      }
    });
    started.set(name, promise);
  });
}

/** Loads and registers the element behind `tag` (once); resolves when it is defined. */
export function whenLoaded(tag: string): Promise<CustomElementConstructor> {
  const name = tag.toLowerCase();
  if (!Object.hasOwn(ELEMENTS, name))
    return Promise.reject(new Error(`consult-elements: no element is called <${name}>`));
  loadTogether([name]);
  return started.get(name) as Promise<CustomElementConstructor>;
}

const selector = Object.keys(ELEMENTS).join(',');

function discover(root: ParentNode): void {
  const found = [...root.querySelectorAll(selector)];
  if (root instanceof Element && root.localName in ELEMENTS) found.unshift(root);
  const waiting = found.filter((element) => !customElements.get(element.localName));
  for (const element of waiting) wantLanguageOf(element);
  // The tags found together are registered together.
  loadTogether([...new Set(waiting.map((element) => element.localName))]);
}

if (typeof document !== 'undefined') {
  discover(document);
  new MutationObserver((mutations) => {
    for (const mutation of mutations) {
      for (const node of mutation.addedNodes) if (node instanceof Element) discover(node);
    }
  }).observe(document.documentElement, { childList: true, subtree: true });
}

declare global {
  // The registry's tags, each typed as its element (an empty body: the members come from the table).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface HTMLElementTagNameMap extends LoadedElements {}
}
