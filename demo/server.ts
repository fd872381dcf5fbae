/**
 * The demo portal's server side: its page, the elements' browser files as `npm run build` makes
 * them (built at start, served compressed, hashed chunks cached for a year), its own sign-in
 * cookie, and a strict Content Security Policy with Trusted Types, as a careful partner would serve
 * them (docs/security.md S13).
 */
import { build } from 'esbuild';
import type { Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { build as viteBuild, type Rolldown } from 'vite';
import type { Member } from '../src/proxy/options.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export const DEMO_MEMBERS = ['alex', 'sam', 'noor'] as const;
type DemoMember = (typeof DEMO_MEMBERS)[number];

/**
 * Each member's language, from the portal's own profile of them: the page asks the elements for it
 * from the start, so they do not first draw English and then redraw (and move) in the member's language.
 */
const MEMBER_LANGUAGES: Record<DemoMember, string> = { alex: 'en', sam: 'en', noor: 'ar' };

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

/**
 * The demo's pages: the policy above, and the notifications' service worker URL (`push-worker`),
 * which the elements pass through a Trusted Types policy of its own, `consult-push`.
 */
export const PORTAL_CSP = STRICT_CSP.replace(
  'trusted-types lit-html dompurify',
  'trusted-types lit-html dompurify consult-push',
);

/** A page's own script, bundled for browsers as a partner's bundler would (production builds of its libraries). */
export async function bundleForBrowser(entryPath: string): Promise<string> {
  const result = await build({
    entryPoints: [entryPath],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
    conditions: ['browser', 'production'],
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error(`esbuild produced nothing for ${entryPath}`);
  return output.text;
}

/** The elements' browser files, built by the project's Vite config into memory: name to text. */
async function buildElements(): Promise<Map<string, string>> {
  const result = await viteBuild({
    configFile: here('../vite.config.ts'),
    logLevel: 'silent',
    build: { write: false, sourcemap: false },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const files = new Map<string, string>();
  for (const output of outputs) {
    for (const file of output.output) {
      if (file.type === 'chunk') files.set(file.fileName, file.code);
    }
  }
  return files;
}

/** A file served as a partner's static host would: compressed both ways, with an ETag. */
interface StaticFile {
  type: string;
  body: string;
  gzip: Buffer;
  brotli: Buffer;
  etag: string;
  cacheControl: string;
}

const TEXT_QUALITY = { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } };

async function staticFile(body: string, type: string, cacheControl: string): Promise<StaticFile> {
  const [gzipped, brotli] = await Promise.all([
    promisify(gzip)(body, { level: 9 }),
    promisify(brotliCompress)(body, TEXT_QUALITY),
  ]);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return { type, body, gzip: gzipped, brotli, etag, cacheControl };
}

/** Hashed chunks never change; everything else is checked again (cheaply, by ETag) on each use. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/** The portal's session: a cookie naming the demo member (a real portal would check its own sign-in here). */
export async function portalMember(request: Request): Promise<Member | undefined> {
  const cookie = request.headers.get('cookie') ?? '';
  const member = /(?:^|;\s*)portal_member=([a-z]+)/.exec(cookie)?.[1];
  return member && (DEMO_MEMBERS as readonly string[]).includes(member) ? { uniqueId: member } : undefined;
}

export async function mountDemo(app: Hono): Promise<void> {
  // Built once at start: the elements' browser files and the portal's own script.
  const [elements, portal, page, css] = await Promise.all([
    buildElements(),
    bundleForBrowser(here('./portal.ts')),
    readFile(here('./index.html'), 'utf8'),
    readFile(here('./portal.css'), 'utf8'),
  ]);
  const files = new Map<string, StaticFile>();
  const javascript = 'text/javascript; charset=utf-8';
  for (const [name, code] of elements) {
    files.set(
      `/assets/${name}`,
      await staticFile(code, javascript, name.startsWith('chunks/') ? IMMUTABLE : REVALIDATE),
    );
  }
  files.set('/portal.js', await staticFile(portal, javascript, REVALIDATE));
  files.set('/portal.css', await staticFile(css, 'text/css; charset=utf-8', REVALIDATE));
  const pages = new Map<DemoMember, StaticFile>();
  for (const member of DEMO_MEMBERS) {
    const language = MEMBER_LANGUAGES[member];
    // The member's language from the first byte (their words arrive with the code, nothing jumps),
    // however the tag's attributes are laid out (one per line since push-worker).
    const html = page.replace(/<consult-session(?=[\s>])/, `<consult-session lang="${language}"`);
    if (html === page) throw new Error('demo/index.html has no <consult-session> to give a language');
    pages.set(member, await staticFile(html, 'text/html; charset=utf-8', REVALIDATE));
  }

  const serve = (c: Context, file: StaticFile) => {
    const headers: Record<string, string> = {
      'content-type': file.type,
      'content-security-policy': PORTAL_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': file.cacheControl,
      etag: file.etag,
      vary: 'accept-encoding',
    };
    if (c.req.header('if-none-match') === file.etag) return c.body(null, 304, headers);
    const accepted = c.req.header('accept-encoding') ?? '';
    if (/\bbr\b/.test(accepted))
      return c.body(new Uint8Array(file.brotli), 200, { ...headers, 'content-encoding': 'br' });
    if (/\bgzip\b/.test(accepted))
      return c.body(new Uint8Array(file.gzip), 200, { ...headers, 'content-encoding': 'gzip' });
    return c.body(file.body, 200, headers);
  };
  const signIn = (c: Context, member: string) => {
    const options = { path: '/', sameSite: 'Lax' as const, secure: new URL(c.req.url).protocol === 'https:' };
    setCookie(c, 'portal_member', member, { ...options, httpOnly: true });
    setCookie(c, 'portal_member_hint', member, options);
  };

  app.get('/', (c) => {
    // A first visit signs in as Alex, so the demo opens on a working portal.
    let member = getCookie(c, 'portal_member') as DemoMember | undefined;
    if (!member || !pages.has(member)) signIn(c, (member = 'alex'));
    return serve(c, pages.get(member) as StaticFile);
  });
  app.get('*', async (c, next) => {
    const file = c.req.path === '/' ? undefined : files.get(c.req.path);
    return file ? serve(c, file) : next();
  });
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
