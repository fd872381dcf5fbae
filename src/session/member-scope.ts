/**
 * Who the member is, and the one place that knows when that changes: a sign-in (the same member
 * again, or another one) or a sign-out. Everything of a previous member goes here, at once (S16,
 * S21): the requests of their scope abort, their drafts, seen-marks and announcements are wiped,
 * the client forgets their token. Then `change` tells every element, synchronously, so the page
 * renders nothing of theirs before any other script runs.
 *
 * The member themselves is held once, by the member state (`state.member`); this is the only
 * code that sets it.
 */
import type { MemberView } from '../client/browser-types.js';
import type { Announcer } from './announcer.js';
import { clearDrafts, clearDraftsExcept } from './drafts.js';
import type { MemberState } from './member-state.js';

export class MemberScope extends EventTarget {
  readonly #state: MemberState;
  readonly #announcer: Announcer;
  readonly #forgetToken: () => void;

  constructor(state: MemberState, announcer: Announcer, forgetToken: () => void) {
    super();
    this.#state = state;
    this.#announcer = announcer;
    this.#forgetToken = forgetToken;
  }

  /** The signed-in member, or undefined. */
  get current(): MemberView | undefined {
    return this.#state.member;
  }

  /** The proxy named the member: the same one (a renewed token) keeps everything, another one starts afresh. */
  signedIn(member: MemberView): void {
    const previous = this.#state.member;
    if (previous && previous.id !== member.id) {
      this.#forgetToken();
      this.#announcer.clear();
    }
    clearDraftsExcept(member.id);
    this.#state.setMember(member);
    if (previous && previous.id !== member.id) this.dispatchEvent(new Event('change'));
  }

  /** Signed out: the member's scope aborts first, so nothing in flight for them may land after this. */
  signedOut(): void {
    const previous = this.#state.member;
    if (previous) clearDrafts(previous.id);
    this.#state.signOut();
    this.#announcer.clear();
    if (previous) this.dispatchEvent(new Event('change'));
  }
}
