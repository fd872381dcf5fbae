/**
 * Development only: /dev/sign-in?member=alex signs you in as that member without your portal's
 * login, to try the elements. It lets anyone be anyone, so it answers only with
 * PORTAL_DEV_SIGN_IN=1, against a sandbox on this machine (a loopback CONSULT_UPSTREAM_URL), at a
 * loopback address, and only to an address opened here (not a link from another site).
 */
import { env, signInCookie } from '../../portal-session';

const loopback = (host: string) => ['127.0.0.1', '[::1]', 'localhost'].includes(host);

export async function GET(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (
    process.env.PORTAL_DEV_SIGN_IN !== '1' ||
    !loopback(new URL(env('CONSULT_UPSTREAM_URL')).hostname) ||
    !loopback((request.headers.get('host') ?? url.host).replace(/:\d+$/, ''))
  ) {
    return new Response('Not found', { status: 404 });
  }
  const site = request.headers.get('sec-fetch-site');
  if (site && site !== 'none' && site !== 'same-origin')
    return new Response('Open this address yourself', { status: 403 });
  const member = url.searchParams.get('member') ?? '';
  if (!/^[\w.@-]{1,64}$/.test(member))
    return new Response('Say who: /dev/sign-in?member=alex', { status: 400 });
  const cookie = await signInCookie(member, url.protocol === 'https:');
  return new Response(null, { status: 303, headers: { location: '/', 'set-cookie': cookie } });
}
