/**
 * The demo portal's server side: its pages and scripts (built on the fly), its own sign-in cookie,
 * and a strict Content Security Policy with Trusted Types, as a careful partner would serve them
 * (docs/security.md S13).
 */
import { build } from 'esbuild';
import type { Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Member } from '../src/proxy/options.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export const DEMO_MEMBERS = ['alex', 'sam', 'noor'] as const;

/** No inline script or style, no eval, Trusted Types for Lit's and DOMPurify's policies only. */
export const STRICT_CSP = [
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

async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [here(entry)],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
    conditions: ['browser', 'production'],
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error(`esbuild produced nothing for ${entry}`);
  return output.text;
}

/** The portal's session: a cookie naming the demo member (a real portal would check its own sign-in here). */
export async function portalMember(request: Request): Promise<Member | undefined> {
  const cookie = request.headers.get('cookie') ?? '';
  const member = /(?:^|;\s*)portal_member=([a-z]+)/.exec(cookie)?.[1];
  return member && (DEMO_MEMBERS as readonly string[]).includes(member) ? { uniqueId: member } : undefined;
}

export async function mountDemo(app: Hono): Promise<void> {
  // Built once at start: the elements' script-tag bundle and the portal's own script.
  const [elements, portal, page, css] = await Promise.all([
    bundle('../src/define.ts'),
    bundle('./portal.ts'),
    readFile(here('./index.html'), 'utf8'),
    readFile(here('./portal.css'), 'utf8'),
  ]);
  const secured = (c: Context, body: string, type: string) =>
    c.body(body, 200, {
      'content-type': type,
      'content-security-policy': STRICT_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    });
  const signIn = (c: Context, member: string) => {
    const options = { path: '/', sameSite: 'Lax' as const, secure: new URL(c.req.url).protocol === 'https:' };
    setCookie(c, 'portal_member', member, { ...options, httpOnly: true });
    setCookie(c, 'portal_member_hint', member, options);
  };

  app.get('/', (c) => {
    // A first visit signs in as Alex, so the demo opens on a working portal.
    if (!getCookie(c, 'portal_member')) signIn(c, 'alex');
    return secured(c, page, 'text/html; charset=utf-8');
  });
  app.get('/consult-elements.js', (c) => secured(c, elements, 'text/javascript; charset=utf-8'));
  app.get('/portal.js', (c) => secured(c, portal, 'text/javascript; charset=utf-8'));
  app.get('/portal.css', (c) => secured(c, css, 'text/css; charset=utf-8'));
  // Signing in or out changes who the portal thinks you are: only the portal's own pages may ask
  // (a form on another site must not switch the member).
  const sameOrigin = (c: Context) => {
    const origin = c.req.header('origin');
    // Under `Referrer-Policy: no-referrer` a browser sends `Origin: null` with a form: then its
    // Fetch Metadata says where the form was.
    if (origin && origin !== 'null') return origin === new URL(c.req.url).origin;
    return c.req.header('sec-fetch-site') === 'same-origin';
  };
  app.use('/demo/*', async (c, next) => {
    if (c.req.method === 'POST' && !sameOrigin(c)) return c.text('Forbidden: not from this portal', 403);
    await next();
  });

  app.post('/demo/sign-in', async (c) => {
    const form = await c.req.parseBody();
    const member = String(form['member'] ?? '');
    if (!(DEMO_MEMBERS as readonly string[]).includes(member)) return c.text('Unknown demo member', 400);
    signIn(c, member);
    return c.redirect('/', 303);
  });
  app.post('/demo/sign-out', (c) => {
    deleteCookie(c, 'portal_member', { path: '/' });
    deleteCookie(c, 'portal_member_hint', { path: '/' });
    return c.body(null, 204);
  });
}
