/**
 * One draft of what the member is typing in one element, so nothing is lost on a reload.
 * Every element stores its drafts through this controller in the same format:
 * `{ "v": 1, "value": … }` under the member's namespace in sessionStorage (see drafts.ts). The
 * session clears them on sign-out and when another member signs in.
 */
import { clearDraft, loadDraft, saveDraft } from '../../session/drafts.js';

interface StoredDraft<T> {
  v: 1;
  value: T;
}

export class DraftController<T> {
  readonly #member: () => string | undefined;
  readonly #name: () => string | undefined;

  /** `member` and `name` are read at each call: the draft follows the member and what is open. */
  constructor(member: () => string | undefined, name: () => string | undefined) {
    this.#member = member;
    this.#name = name;
  }

  #where(): [string, string] | undefined {
    const member = this.#member();
    const name = this.#name();
    return member && name ? [member, name] : undefined;
  }

  /** The member's saved draft here, if any. */
  load(): T | undefined {
    const where = this.#where();
    const stored = where ? loadDraft<StoredDraft<T>>(...where) : undefined;
    return stored?.v === 1 ? stored.value : undefined;
  }

  /** Saves `value`, or forgets the draft when it is undefined. */
  save(value: T | undefined): void {
    const where = this.#where();
    if (!where) return;
    if (value === undefined) clearDraft(...where);
    else saveDraft(...where, { v: 1, value } satisfies StoredDraft<T>);
  }

  /** Forgets the draft (sent, or discarded). */
  clear(): void {
    this.save(undefined);
  }
}
