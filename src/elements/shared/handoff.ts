/**
 * Finding the page's question form, to hand it text and focus: from the navigator ("Ask a doctor
 * about this") and from a thread that has ended ("Start a new consultation").
 */
import { ConsultElement } from './consult-element.js';

/** The public side of `<consult-form>` that a hand-off uses. */
export interface HandoffTarget extends HTMLElement {
  startWith(text: string): void;
}

/** The form with id `id`, else the first in `from`'s tree, else the first in the page. */
export function findQuestionForm(from: Element, id?: string): HandoffTarget | undefined {
  const root = from.getRootNode() as Document | ShadowRoot;
  const selector = ConsultElement.handoffSelector;
  const candidate: Element | null = id
    ? (root.getElementById?.(id) ?? document.getElementById(id))
    : (root.querySelector?.(selector) ?? document.querySelector(selector));
  return candidate && typeof (candidate as Partial<HandoffTarget>).startWith === 'function'
    ? (candidate as HandoffTarget)
    : undefined;
}
