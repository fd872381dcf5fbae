/**
 * Which consultation `<case-history>` has open, kept per member with their drafts (an id, no text:
 * docs/security.md S16), so a reload reopens it; cleared at sign-out with them. It is marked with
 * the page load that opened it: another list on the same page, or one added later, starts from the
 * list.
 */
import { clearDraft, loadDraft, saveDraft } from '../../session/drafts.js';

const OPEN_KEY = 'history:open';
interface OpenMark {
  id: string;
  /** `performance.timeOrigin` of the page that opened it. */
  page: number;
}
const thisPage = () => performance.timeOrigin;

/** Marks `consultationId` as the one open, by this page. */
export function rememberOpen(memberId: string, consultationId: string): void {
  saveDraft(memberId, OPEN_KEY, { id: consultationId, page: thisPage() } satisfies OpenMark);
}

/** Nothing is open: a reload starts from the list. */
export function forgetOpen(memberId: string): void {
  clearDraft(memberId, OPEN_KEY);
}

/** The consultation a previous page load left open, if any (never one this page opened). */
export function openBeforeReload(memberId: string): string | undefined {
  const mark = loadDraft<OpenMark>(memberId, OPEN_KEY);
  const id = mark?.page !== thisPage() ? mark?.id : undefined;
  return typeof id === 'string' ? id : undefined;
}
