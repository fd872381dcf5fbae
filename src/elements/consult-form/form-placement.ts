import type { ReactiveControllerHost } from 'lit';
import type { MemberState } from '../../session/member-state.js';
import { PlaceController } from '../shared/place.js';

/** What the session's placement needs of a form. */
interface PlacedForm extends ReactiveControllerHost, HTMLElement {
  readonly memberState: MemberState | undefined;
  startWith(text: string): void;
}

/**
 * The session's placement starts new questions in `form`: "Start a new consultation" in a thread
 * and the navigator's "Ask a doctor about this" land in its box (the navigator's `for` names it by
 * id). The form draws again when what the page shows changes: its note about a question sent
 * shows only while the list does not show it open.
 */
export function formPlacement(form: PlacedForm): PlaceController {
  return new PlaceController(
    form,
    () => form.memberState?.placement,
    (placement) => {
      const release = placement.addForm({
        idOnPage: () => form.id || undefined,
        startQuestion: (text) => form.startWith(text),
      });
      const shownChanged = () => form.requestUpdate();
      placement.addEventListener('change', shownChanged);
      return () => {
        release();
        placement.removeEventListener('change', shownChanged);
      };
    },
  );
}
