/**
 * Registering the elements: under their own names or a partner's, with the elements they render,
 * without throwing when a name is taken, and keeping what a page set on an element before it was
 * defined (docs/architecture.md 4, "Loading").
 */
import { ContextRoot } from '@lit/context';
import { VERSION } from '../../version.js';

/** An element class as registration sees it. */
export interface RegisteredClass extends CustomElementConstructor {
  dependencies: Record<string, RegisteredClass>;
  define(name: string, registry?: CustomElementRegistry): CustomElementConstructor;
}

/**
 * Elements load one chunk at a time, in no fixed order: a <consult-form> may be defined before the
 * <consult-session> around it. The context root keeps its request for the session and answers it
 * once the session element is defined. Attached once per page.
 */
if (typeof document !== 'undefined' && !document.documentElement.hasAttribute('data-consult-context-root')) {
  document.documentElement.setAttribute('data-consult-context-root', '');
  new ContextRoot().attach(document.documentElement);
}

/** The name each class was registered under first: how elements find the tags of their dependencies. */
const registeredNames = new WeakMap<CustomElementConstructor, string>();

/** Whether an element class is registered under a name already. */
export const isRegistered = (element: CustomElementConstructor): boolean => registeredNames.has(element);

/** The tag an element class is registered under, for rendering it; its default name otherwise. */
export const tagOf = (element: CustomElementConstructor, fallback: string): string =>
  registeredNames.get(element) ?? fallback;

/** `ConsultElement.define`: see there. */
export function defineElement(
  element: RegisteredClass,
  name: string,
  registry: CustomElementRegistry | undefined,
): CustomElementConstructor {
  if (!registry) return element;
  for (const [dependencyName, dependency] of Object.entries(element.dependencies)) {
    if (!registeredNames.has(dependency)) dependency.define(dependencyName, registry);
  }
  const existing = registry.get(name) as (CustomElementConstructor & { version?: string }) | undefined;
  if (existing) {
    if (existing !== element && !(existing.prototype instanceof element) && typeof document !== 'undefined') {
      console.warn(
        `consult-elements: <${name}> is already defined${existing.version ? ` by version ${existing.version}` : ' by another script'}; ` +
          `this copy (${VERSION}) was not registered. Load the bundle once, or register the class under another name.`,
      );
    }
    return existing;
  }
  if (!registeredNames.has(element)) registeredNames.set(element, name);
  // What a page set on the plain elements already there (a script, Vue's `.prop`) would hide the
  // accessors: it is taken off them and set again through the accessors once they are upgraded, so
  // it reads back at once, and Lit's own replay at the first update (which it does for an element
  // upgraded later) cannot undo a value set in between (test/browser/before-defined.test.ts).
  const early = [...(globalThis.document?.querySelectorAll(name) ?? [])].map((placed) => {
    const own = { ...placed };
    for (const key in own) Reflect.deleteProperty(placed, key);
    return [placed, own] as const;
  });
  try {
    registry.define(name, element);
    return element;
  } catch (error) {
    // One constructor, one name: a second name gets a subclass of its own.
    if (!(error instanceof DOMException && error.name === 'NotSupportedError')) throw error;
    const alias = class extends (element as unknown as typeof HTMLElement) {};
    registry.define(name, alias);
    return alias;
  } finally {
    for (const [placed, own] of early) Object.assign(placed, own);
  }
}
