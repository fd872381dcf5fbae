/**
 * Widget tokens: short-lived (at most 15 minutes), HS256-signed, bound to one upstream user. The
 * browser holds one in memory and sends it as `Authorization: Bearer …`; it is the only source of
 * the member's identity (SECURITY.md S2).
 */
import { sign, verify } from 'hono/jwt';

export const MAX_WIDGET_TOKEN_TTL_SECONDS = 15 * 60;
const AUDIENCE = 'consult-widget';

export interface WidgetIdentity {
  /** The upstream user id. */
  userId: string;
  /** The partner's own id for the member. */
  uniqueId: string;
  /** Expiry, epoch milliseconds. */
  expiresAt: number;
}

export async function mintWidgetToken(
  secret: string,
  member: { userId: string; uniqueId: string },
  ttlSeconds: number,
  now = Date.now(),
): Promise<{ token: string; expiresAt: number }> {
  const issuedAt = Math.floor(now / 1000);
  const exp = issuedAt + Math.min(ttlSeconds, MAX_WIDGET_TOKEN_TTL_SECONDS);
  const token = await sign(
    { sub: member.userId, uid: member.uniqueId, aud: AUDIENCE, iat: issuedAt, exp },
    secret,
    'HS256',
  );
  return { token, expiresAt: exp * 1000 };
}

/** The identity in a valid token, or undefined for a missing, forged, expired or foreign one. */
export async function verifyWidgetToken(secret: string, token: string): Promise<WidgetIdentity | undefined> {
  try {
    // `iat` is not checked: a proxy whose clock runs a little behind another's must not refuse
    // its tokens (which would end sessions for nothing); `exp` bounds the token's life.
    const payload = await verify(token, secret, { alg: 'HS256', aud: AUDIENCE, iat: false });
    if (
      typeof payload.sub !== 'string' ||
      typeof payload['uid'] !== 'string' ||
      typeof payload.exp !== 'number'
    ) {
      return undefined;
    }
    return { userId: payload.sub, uniqueId: payload['uid'], expiresAt: payload.exp * 1000 };
  } catch {
    return undefined;
  }
}
