/**
 * Your portal's sign-in, as the proxy and the development sign-in see it: here, a signed cookie
 * holding the member's id. Replace it with your own (your session library's cookie, a header).
 */
import type { Member } from 'consult-elements/proxy';
import { parseSigned, serializeSigned } from 'hono/utils/cookie';

const COOKIE = 'portal_member';

export function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name}`);
  return value;
}

/** The signed-in member, or null: the proxy's `authenticate`. */
export async function memberFromCookie(request: Request): Promise<Member | null> {
  const cookies = await parseSigned(request.headers.get('cookie') ?? '', env('PORTAL_COOKIE_SECRET'), COOKIE);
  const memberId = cookies[COOKIE];
  return typeof memberId === 'string' && memberId ? { uniqueId: memberId } : null;
}

/** The Set-Cookie header that signs `memberId` in. */
export function signInCookie(memberId: string, secure: boolean): Promise<string> {
  return serializeSigned(COOKIE, memberId, env('PORTAL_COOKIE_SECRET'), {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure,
  });
}
