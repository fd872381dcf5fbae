/**
 * The elements, each named here once: its tag and the class its module exports. The script-tag
 * loader (src/define.ts, whose table of lazy imports must have exactly these tags), the classic
 * script, the React components, the README's element reference, the manifest test and CI's
 * Storybook check all take the list from here.
 *
 * Data only, with no imports: the classic script reads it, and an `import()` of an element here
 * would make every module of that one-file build lazily initialized. An element's class is in
 * `src/elements/<tag>/<tag>.ts`; test/node/registry.test.ts fails when a folder there holds an
 * element this list lacks, or this list names one custom-elements.json lacks.
 */

export interface ElementEntry {
  /** The name it registers under. */
  readonly tag: string;
  /** The class its module exports. */
  readonly className: string;
}

/** In the order a partner meets them: the README's reference and the React components follow it. */
export const ELEMENTS = [
  { tag: 'consult-session', className: 'ConsultSession' },
  { tag: 'consult-form', className: 'ConsultForm' },
  { tag: 'case-history', className: 'CaseHistory' },
  { tag: 'consult-thread', className: 'ConsultThread' },
  { tag: 'navigator-chat', className: 'NavigatorChat' },
  { tag: 'consult-access', className: 'ConsultAccess' },
  { tag: 'prescription-request', className: 'PrescriptionRequest' },
] as const satisfies readonly ElementEntry[];

export type ElementTag = (typeof ELEMENTS)[number]['tag'];
export type ElementClassName = (typeof ELEMENTS)[number]['className'];

/**
 * Elements another element shows inside itself (its `static dependencies`), whose code it needs
 * before it can render them: the loader fetches them beside it, and the build counts them in its
 * chunk graph (scripts/chunk-graph.ts). The question form shows a thread too, only once a question
 * is sent: it asks for the thread's code itself as it is registered
 * (src/elements/consult-form/load-thread.ts), and waits for none of it to be typed in.
 */
export const SHOWN_INSIDE: Readonly<Record<string, readonly ElementTag[]>> = {
  'case-history': ['consult-thread'],
};

/** The tags, in the order of ELEMENTS. */
export const ELEMENT_TAGS: readonly ElementTag[] = /* @__PURE__ */ ELEMENTS.map(({ tag }) => tag);

/** Where an element's class is, from the repository's root. */
export const elementModulePath = (tag: string) => `src/elements/${tag}/${tag}.ts`;
