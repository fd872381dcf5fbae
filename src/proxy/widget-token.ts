/**
 * Widget tokens: short-lived (at most 15 minutes), HS256-signed, bound to one upstream user. The
 * browser holds one in memory and sends it as `Authorization: Bearer …`; it is the only source of
 * the member's identity (docs/security.md S2).
 */
import { sign, verify } from 'hono/jwt';

export const MAX_WIDGET_TOKEN_TTL_SECONDS = 15 * 60;
/** A widget token's life when the proxy's options say nothing. */
export const DEFAULT_WIDGET_TOKEN_TTL_SECONDS = 10 * 60;
const AUDIENCE = 'consult-widget';

export interface WidgetIdentity {
  /** The upstream user id. */
  userId: string;
  /** The partner's own id for the member. */
  uniqueId: string;
  /** Expiry, epoch milliseconds. */
  expiresAt: number;
  /** This token's own id, for ending one session without ending the member's others. */
  tokenId: string;
  /** When it was issued, epoch milliseconds. */
  issuedAt: number;
  /** Set when the token gives its issue time in whole seconds only (`iat`, no `its`). */
  issuedToTheSecond?: boolean;
}

/** A random token id: 128 bits, base64url. */
function newTokenId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
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
    // `its`: the issue time in milliseconds, so a session ended this second is told from one begun just after.
    {
      sub: member.userId,
      uid: member.uniqueId,
      aud: AUDIENCE,
      jti: newTokenId(),
      iat: issuedAt,
      its: now,
      exp,
    },
    secret,
    'HS256',
  );
  return { token, expiresAt: exp * 1000 };
}

/** How far ahead of this proxy's clock another's may run: `iat` or `nbf` later than that is refused. */
export const CLOCK_SKEW_SECONDS = 60;

/**
 * The identity in a valid token, or undefined for a missing, forged, expired or foreign one, and
 * for one whose lifetime is longer than `maxTtlSeconds` even when correctly signed (a token minted
 * elsewhere with the secret, or by an older configuration, does not outlive today's rule).
 */
export async function verifyWidgetToken(
  secret: string,
  token: string,
  maxTtlSeconds = MAX_WIDGET_TOKEN_TTL_SECONDS,
  now = Date.now(),
): Promise<WidgetIdentity | undefined> {
  try {
    // `iat` and `nbf` are checked here, with {@link CLOCK_SKEW_SECONDS} of leeway: a proxy whose
    // clock runs a little behind another's must not refuse its tokens (which would end sessions
    // for nothing), but a token issued further in the future is refused.
    const payload = await verify(token, secret, { alg: 'HS256', aud: AUDIENCE, iat: false, nbf: false });
    const latest = now / 1000 + CLOCK_SKEW_SECONDS;
    if (
      typeof payload.sub !== 'string' ||
      typeof payload['uid'] !== 'string' ||
      typeof payload.exp !== 'number' ||
      typeof payload.iat !== 'number' ||
      typeof payload['jti'] !== 'string' ||
      payload.exp - payload.iat > maxTtlSeconds ||
      payload.iat > latest ||
      (payload.nbf !== undefined && (typeof payload.nbf !== 'number' || payload.nbf > latest))
    ) {
      return undefined;
    }
    return {
      userId: payload.sub,
      uniqueId: payload['uid'],
      expiresAt: payload.exp * 1000,
      tokenId: payload['jti'],
      issuedAt: typeof payload['its'] === 'number' ? payload['its'] : payload.iat * 1000,
      ...(typeof payload['its'] === 'number' ? {} : { issuedToTheSecond: true }),
    };
  } catch {
    return undefined;
  }
}
