/**
 * Where a consultation shows, and where a new question's text and focus go: one decision for
 * the elements of a session, so a case is live in one place and the member is never left
 * nowhere. Views register what they can take while they are on the page, and ask the placement
 * rather than look for each other:
 *
 * - a list (`<case-history>`) shows a consultation: a question just sent from a form opens there,
 *   its heading focused; a page without a list shows it where it was sent;
 * - a form (`<consult-form>`) takes a new question: "Start a new consultation" in a thread and
 *   "Ask a doctor about this" in the navigator land the member in its question box, with their
 *   text or without, focus in the box.
 *
 * Plain TypeScript: no DOM is needed, so it is tested in Node.
 */

/** A view that shows a consultation (a list). */
export interface ConsultationPlace {
  /** Shows the consultation, its heading focused when `focus`; answers false when it cannot now. */
  showConsultation(consultationId: string, options: { focus: boolean }): boolean;
  /** The consultation it shows open now, if any. */
  showing?(): string | undefined;
}

/** A view that takes a new question (a form). */
export interface QuestionPlace {
  /** The form's id on the page, which a hand-off may name (the navigator's `for`). */
  idOnPage(): string | undefined;
  /** Starts a new question with `text` (empty: none carried), the member's focus in its box. */
  startQuestion(text: string): void;
}

/**
 * Dispatches `change` when what a list shows open changes: a form's note about a question it sent
 * is not repeated while the list shows that question.
 */
export class Placement extends EventTarget {
  readonly #lists: ConsultationPlace[] = [];
  readonly #forms: QuestionPlace[] = [];

  /** A list is on the page: it shows consultations until the function answered is called. */
  addList(list: ConsultationPlace): () => void {
    return add(this.#lists, list);
  }

  /** A form is on the page: it takes new questions until the function answered is called. */
  addForm(form: QuestionPlace): () => void {
    return add(this.#forms, form);
  }

  /**
   * Shows a consultation in the page's list (the first registered that takes it). Answers false
   * when there is none: the caller shows it where it is.
   */
  showConsultation(consultationId: string, { focus = true }: { focus?: boolean } = {}): boolean {
    return this.#lists.some((list) => list.showConsultation(consultationId, { focus }));
  }

  /** Whether a list of the page shows `consultationId` open now. */
  isShowing(consultationId: string): boolean {
    return this.#lists.some((list) => list.showing?.() === consultationId);
  }

  /** A list opened or closed a consultation. */
  shownChanged(): void {
    this.dispatchEvent(new Event('change'));
  }

  /** The form a new question goes to: the one with id `formId` if named, else the first registered. */
  formFor(formId?: string): QuestionPlace | undefined {
    return formId ? this.#forms.find((form) => form.idOnPage() === formId) : this.#forms[0];
  }

  /**
   * Starts a new question in the page's form, with `text` or none, the member's focus in its box.
   * Answers false when there is no such form: the caller says where to go instead.
   */
  startQuestion(text: string, { formId }: { formId?: string } = {}): boolean {
    const form = this.formFor(formId);
    form?.startQuestion(text);
    return form !== undefined;
  }
}

function add<T>(places: T[], place: T): () => void {
  if (!places.includes(place)) places.push(place);
  return () => {
    const at = places.indexOf(place);
    if (at >= 0) places.splice(at, 1);
  };
}
