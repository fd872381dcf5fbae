/**
 * Development only: /dev/sign-in?member=alex signs you in as that member without your portal's
 * login, to try the elements. It lets anyone be anyone, so it answers only with
 * PORTAL_DEV_SIGN_IN=1, against a sandbox (CONSULT_UPSTREAM_URL answers the sandbox's controls),
 * at a loopback address, to a request no proxy forwarded (no X-Forwarded-For, Forwarded,
 * X-Real-IP or X-Forwarded-Host), opened here (not a link from another site); each refusal says
 * why. NODE_ENV is not checked here: `next start` always sets it to production. A route handler
 * is not told the socket's address, and Next.js keeps forwarding headers a client sent, so start
 * the app on a loopback address only (`next start -H 127.0.0.1`, as the README does): on every
 * interface, a client elsewhere could claim to be this machine.
 */
import { devSignInRefusal, devSignInRequestRefusal } from 'consult-elements/proxy';
import { env, signInCookie } from '../../portal-session';

export async function GET(request: Request): Promise<Response> {
  if (process.env.PORTAL_DEV_SIGN_IN !== '1') return new Response('Not found', { status: 404 });
  const refused =
    devSignInRequestRefusal(request) ??
    (await devSignInRefusal({ upstreamUrl: env('CONSULT_UPSTREAM_URL'), waitMs: 0 }));
  if (refused) return new Response(`No development sign-in: ${refused}.`, { status: 403 });
  const url = new URL(request.url);
  const member = url.searchParams.get('member') ?? '';
  if (!/^[\w.@-]{1,64}$/.test(member))
    return new Response('Say who: /dev/sign-in?member=alex', { status: 400 });
  const cookie = await signInCookie(member, url.protocol === 'https:');
  return new Response(null, { status: 303, headers: { location: '/', 'set-cookie': cookie } });
}
