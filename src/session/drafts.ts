/**
 * Drafts of what a member is typing, so nothing is lost on a reload (docs/security.md S16): kept in
 * sessionStorage (gone when the tab closes), namespaced per member, cleared on submit, on
 * sign-out and when another member signs in. Never localStorage, cookies or URLs.
 */
const PREFIX = 'consult-elements:draft:';

const key = (userId: string, name: string) => `${PREFIX}${userId}:${name}`;

function storage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    // Storage can be blocked (privacy settings, sandboxed frames): drafts then live only in memory.
    return undefined;
  }
}

export function loadDraft<T>(userId: string, name: string): T | undefined {
  try {
    const raw = storage()?.getItem(key(userId, name));
    return raw ? (JSON.parse(raw) as T) : undefined;
  } catch {
    return undefined;
  }
}

export function saveDraft(userId: string, name: string, value: unknown): void {
  try {
    storage()?.setItem(key(userId, name), JSON.stringify(value));
  } catch {
    // Quota or blocked storage: the draft stays in memory only.
  }
}

export function clearDraft(userId: string, name: string): void {
  storage()?.removeItem(key(userId, name));
}

/**
 * Removes every stored key `remove` picks. The keys are listed first: removing one may reorder
 * the others (Chromium does), so removing while counting through them would skip some.
 */
function removeKeys(remove: (key: string) => boolean): void {
  const store = storage();
  if (!store) return;
  const keys = Array.from({ length: store.length }, (_, i) => store.key(i));
  for (const k of keys) if (k !== null && remove(k)) store.removeItem(k);
}

/** Every draft of one member. */
export function clearDrafts(userId: string): void {
  const mine = `${PREFIX}${userId}:`;
  removeKeys((k) => k.startsWith(mine));
}

/**
 * Every draft that is not this member's: a tab where someone else was signed in before (even
 * before a reload) keeps nothing of theirs once this member signs in.
 */
export function clearDraftsExcept(userId: string): void {
  const mine = `${PREFIX}${userId}:`;
  removeKeys((k) => k.startsWith(PREFIX) && !k.startsWith(mine));
}
