/**
 * Ending widget sessions before their tokens expire, in every instance that shares the store: one
 * token (the member signed out in this tab), or every token of a member issued until now (the
 * portal signed them out everywhere, or blocked them). Open event streams of an ended session
 * close at once.
 */
import type { ProxyCore } from './context.js';
import { readWithGeneration } from './generation.js';
import { MAX_WIDGET_TOKEN_TTL_SECONDS, type WidgetIdentity } from './widget-token.js';

/** Where the events route hears that sessions of a member ended. */
export const sessionsChannel = (userId: string) => `sessions:${userId}`;

/** What is published there: one token's id, or every token issued until `before` (ms). */
export type SessionsEnded = { tokenId: string } | { before: number };

const revokedKey = (tokenId: string) => `revoked-token:${tokenId}`;
const endedKey = (userId: string) => `sessions-ended:${userId}`;
/** A member-wide end outlives every token it concerns. */
const ENDED_TTL_MS = MAX_WIDGET_TOKEN_TTL_SECONDS * 1000 + 60_000;

/** Ends the session of one token, for its remaining lifetime. */
export async function endSession(core: ProxyCore, identity: WidgetIdentity): Promise<void> {
  const ttlMs = Math.max(1000, identity.expiresAt - Date.now() + 1000);
  await core.store.set(revokedKey(identity.tokenId), '1', ttlMs);
  await core.store.publish(
    sessionsChannel(identity.userId),
    JSON.stringify({ tokenId: identity.tokenId } satisfies SessionsEnded),
  );
}

/** Ends every session of the upstream user `userId` issued until now. */
export async function endMemberSessions(core: ProxyCore, userId: string): Promise<void> {
  const before = Date.now();
  await core.store.set(endedKey(userId), String(before), ENDED_TTL_MS);
  await core.store.publish(sessionsChannel(userId), JSON.stringify({ before } satisfies SessionsEnded));
}

/**
 * Whether the session this identity belongs to has been ended, or began before the store's data
 * did (a Redis that came back empty has forgotten which sessions ended: none from before is trusted).
 */
export async function isEnded(core: ProxyCore, identity: WidgetIdentity): Promise<boolean> {
  const [[revoked, ended], generation] = await readWithGeneration(core, [
    revokedKey(identity.tokenId),
    endedKey(identity.userId),
  ]);
  return (
    identity.issuedAt <
      (identity.issuedToTheSecond ? Math.floor(generation.startedAt / 1000) * 1000 : generation.startedAt) ||
    revoked !== undefined ||
    (ended !== undefined && identity.issuedAt <= Number(ended))
  );
}

/** Whether a published end concerns this identity. */
export function concerns(message: string, identity: WidgetIdentity): boolean {
  try {
    const ended = JSON.parse(message) as Partial<{ tokenId: string; before: number }>;
    if (ended.tokenId !== undefined) return ended.tokenId === identity.tokenId;
    return typeof ended.before === 'number' && identity.issuedAt <= ended.before;
  } catch {
    return false;
  }
}
