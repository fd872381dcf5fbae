/**
 * A complete partner server: your portal's page with the elements, the browser files served
 * compressed and cached, and the proxy, with the member taken from your portal's own sign-in
 * cookie. Copy it, then replace the page and `memberFromCookie` with your portal's.
 *
 *   CONSULT_UPSTREAM_URL     the service, or the sandbox (`npx consult-sandbox`)     required
 *   CONSULT_API_KEY          your API key (the sandbox's is sandbox-api-key)         required
 *   CONSULT_SESSION_SECRET   32 or more random characters: signs the widget tokens   required
 *   PORTAL_COOKIE_SECRET     the secret your portal signs its sign-in cookie with    required
 *   CONSULT_PUBLIC_URL       this server's public URL: the service then pushes each answer by webhook the
 *                            moment it is given; without it the page asks every few seconds instead
 *   CONSULT_ALLOWED_ORIGINS  other origins whose pages call this proxy (comma-separated), such as a dev server
 *   PORTAL_DEV_SIGN_IN=1     development only, against the sandbox: /dev/sign-in?member=ID signs you in
 *                            as that member
 *   PORT, HOST               where to listen                                         8080, 127.0.0.1
 *   CONSULT_ASSETS_DIR       the browser files                 node_modules/consult-elements/dist/browser
 */
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { setSignedCookie } from 'hono/cookie';
import { parseSigned } from 'hono/utils/cookie';
import { createProxy, devSignInRefusal, devSignInRequestRefusal, type Member } from 'consult-elements/proxy';
import { pooledFetch, sendEventStreamsToNode, socketAddress } from 'consult-elements/proxy/node';

const env = (name: string, fallback?: string): string => {
  const value = process.env[name] ?? fallback;
  if (!value) throw new Error(`Set ${name}`);
  return value;
};

/** Where npm installed the browser files. */
const ASSETS = env('CONSULT_ASSETS_DIR', 'node_modules/consult-elements/dist/browser');

/** No inline script or style, no eval; Trusted Types for Lit's and DOMPurify's policies only. */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  'trusted-types lit-html dompurify',
].join('; ');

/** Your portal's sign-in: here, a signed cookie your login sets to the member's id. */
async function memberFromCookie(request: Request): Promise<Member | null> {
  const cookies = await parseSigned(
    request.headers.get('cookie') ?? '',
    env('PORTAL_COOKIE_SECRET'),
    'portal_member',
  );
  const memberId = cookies.portal_member;
  return typeof memberId === 'string' && memberId ? { uniqueId: memberId } : null;
}

const app = new Hono();

const proxy = createProxy({
  upstreamUrl: env('CONSULT_UPSTREAM_URL'),
  apiKey: env('CONSULT_API_KEY'),
  sessionSecret: env('CONSULT_SESSION_SECRET'), // 32+ random characters
  ...(process.env.CONSULT_PUBLIC_URL ? { publicUrl: process.env.CONSULT_PUBLIC_URL } : {}),
  allowedOrigins: (process.env.CONSULT_ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean),
  clientAddress: socketAddress,
  fetch: pooledFetch(),
  authenticate: memberFromCookie,
});
// A refused API key stops the server with the setting to fix, rather than failing every sign-in.
proxy.apiKeyChecked.catch((error: Error) => {
  console.error(`Cannot start: ${error.message}`);
  process.exit(1);
});
app.route('/consult', proxy);

// The browser files: chunks have a hash in their name and never change; the loader may.
app.use(
  '/assets/*',
  compress(),
  serveStatic({
    root: ASSETS,
    rewriteRequestPath: (path) => path.replace(/^\/assets/, ''),
    onFound: (path, c) => {
      c.header('x-content-type-options', 'nosniff');
      c.header(
        'cache-control',
        path.includes('/chunks/') ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
      );
    },
  }),
);

// Development only: sign in as any member without your portal's login, to try the elements. It lets
// anyone be anyone, so it is off unless asked for, and starts only on a loopback HOST, with NODE_ENV
// unset or a development one, against the sandbox. It answers only a request made on this machine
// (no proxy in between, which would say so in X-Forwarded-For, Forwarded, X-Real-IP or
// X-Forwarded-Host) and typed or followed on this site; each refusal says why.
const HOST = process.env.HOST ?? '127.0.0.1';
const devSignIn = process.env.PORTAL_DEV_SIGN_IN === '1';
if (devSignIn) {
  app.get('/dev/sign-in', async (c) => {
    const refused = devSignInRequestRefusal(c.req.raw, socketAddress(c));
    if (refused) return c.text(`No development sign-in: ${refused}.`, 403);
    const member = c.req.query('member') ?? '';
    if (!/^[\w.@-]{1,64}$/.test(member)) return c.text('Say who: /dev/sign-in?member=alex', 400);
    await setSignedCookie(c, 'portal_member', member, env('PORTAL_COOKIE_SECRET'), {
      path: '/',
      httpOnly: true,
      sameSite: 'Lax',
      secure: new URL(c.req.url).protocol === 'https:',
    });
    return c.redirect('/', 303);
  });
}

/** Why the development sign-in, when asked for, may not run here; undefined when it may (or is off). */
async function devSignInStartRefusal(): Promise<string | undefined> {
  if (!devSignIn) return undefined;
  if (!['127.0.0.1', '::1', 'localhost'].includes(HOST)) return 'runs only on a loopback HOST';
  return devSignInRefusal({ upstreamUrl: env('CONSULT_UPSTREAM_URL'), nodeEnv: process.env.NODE_ENV });
}

// Your portal's page.
app.get('/', (c) => {
  c.header('content-security-policy', CSP);
  return c.html(`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Ask a doctor</title>
    <link rel="icon" href="data:," />
    <script type="module" src="/assets/consult-elements.js"></script>
  </head>
  <body>
    <main>
      <h1>Ask a doctor</h1>
      <consult-session endpoint="/consult">
        <consult-form></consult-form>
        <case-history></case-history>
      </consult-session>
    </main>
  </body>
</html>`);
});

// Listens once the development sign-in, if asked for, is known to be allowed here.
void devSignInStartRefusal().then((refusal) => {
  if (refusal) {
    console.error(`PORTAL_DEV_SIGN_IN=1 lets anyone sign in as any member: it ${refusal}.`);
    process.exit(1);
  }
  if (devSignIn) console.warn('Development sign-in is on: open /dev/sign-in?member=alex');
  // Members' event streams go straight into Node's responses: less memory for each one open.
  serve(
    { fetch: sendEventStreamsToNode(app.fetch), port: Number(process.env.PORT ?? 8080), hostname: HOST },
    (info) => console.log(`Listening on http://${HOST}:${info.port}`),
  );
});
