/**
 * The classic-script build, `dist/browser/consult-elements.classic.js`: every element and the
 * English strings in one file, for pages that cannot load modules. No `import()` is needed: the
 * markdown renderer is in the file. It registers each element under its own name (never throwing
 * when a name is taken) and puts the classes and `registerTranslation` on `window.ConsultElements`.
 *
 *   <script src="/assets/consult-elements.classic.js" defer></script>
 *   <script src="/assets/consult-elements.classic.de.js" defer></script>  (one per other language)
 */
// First, before Lit's code runs: Lit makes its Trusted Types policy as it loads, and on a page whose
// policy does not allow it this whole file stops there. The developer hints are then already
// listening for the refusal, and say once on the console what to add, as with the module loader.
// package.json lists the module in "sideEffects", so the bundler keeps this import, and first.
import '../session/developer-hints.js';
import { CaseHistory } from '../elements/case-history/case-history.js';
import { ConsultAccess } from '../elements/consult-access/consult-access.js';
import { ConsultForm } from '../elements/consult-form/consult-form.js';
import { ConsultSession } from '../elements/consult-session/consult-session.js';
import { ConsultThread } from '../elements/consult-thread/consult-thread.js';
import { NavigatorChat } from '../elements/navigator-chat/navigator-chat.js';
import { PrescriptionRequest } from '../elements/prescription-request/prescription-request.js';
import { ELEMENTS, type ElementClassName } from '../elements/registry.js';
import type { ConsultElement } from '../elements/shared/consult-element.js';
import { registerTranslation, type TranslationOverride } from '../elements/shared/localize.js';

export { LANGUAGES, registerTranslation } from '../elements/shared/localize.js';
export { VERSION } from '../version.js';
export {
  CaseHistory,
  ConsultAccess,
  ConsultForm,
  ConsultSession,
  ConsultThread,
  NavigatorChat,
  PrescriptionRequest,
};

/** The classes by name; the registry gives each one's tag. */
const CLASSES = {
  CaseHistory,
  ConsultAccess,
  ConsultForm,
  ConsultSession,
  ConsultThread,
  NavigatorChat,
  PrescriptionRequest,
} satisfies Record<ElementClassName, typeof ConsultElement>;
for (const { tag, className } of ELEMENTS) CLASSES[className].define(tag);

// A language file that ran before this one left its strings here.
declare global {
  interface Window {
    ConsultElementsLanguages?: TranslationOverride[];
  }
}
for (const translation of globalThis.window?.ConsultElementsLanguages?.splice(0) ?? []) {
  registerTranslation(translation);
}
