/**
 * A partner portal as the README describes it, for the end-to-end tests and the benchmarks: the
 * browser files built by the project's Vite config and served from a static folder, the real proxy
 * and sandbox on loopback, and pages of the caller's own. The member is always signed in.
 */
import type { Hono } from 'hono';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { freePort } from './free-port.js';
import { browserBuild } from './test-build.js';
import { startProxyServer, type ProxyServer, type ProxyServerOptions } from '../src/proxy/node.js';
import { startSandboxServer, type SandboxServer } from '../src/sandbox/node.js';

export interface ScriptTagPortal {
  /** The portal's origin; the built files are under `/assets/`, the proxy under `basePath` (`/consult`). */
  url: string;
  proxy: ProxyServer;
  sandbox: SandboxServer;
  close(): Promise<void>;
}

export interface ScriptTagPortalOptions {
  /** The member every request is signed in as. Default `alex`. */
  member?: string;
  /** Headers sent with every page, for example a `content-security-policy`. */
  pageHeaders?: Record<string, string>;
  /** Serves the classic scripts too (`consult-elements.classic.js` and its languages). */
  classic?: boolean;
  /** Each browser file is answered this much later, like a far-away server: round trips show. */
  assetDelayMs?: number;
  /** Where the proxy is mounted. Default `/consult`. */
  basePath?: string;
  /**
   * Every page and file served gzip -9, compressed once, as a static host serving precompressed
   * files does: the benchmarks compare pages on the bytes a member would download.
   */
  gzip?: boolean;
  /**
   * The proxy registers its webhook with the sandbox, so answers come live to open streams, as in a
   * real deployment (it listens on a port picked beforehand, to know its public URL).
   */
  webhooks?: boolean;
  /** The proxy's limits, for a benchmark that calls more than a member would. */
  limits?: ProxyServerOptions['limits'];
}

/** The same for every page and file: revalidated each visit (the benchmarks load each page in a fresh context anyway). */
const CACHING = { 'cache-control': 'no-cache' };

/**
 * Serves the browser files (built once for all the tests, scripts/test-build.ts) with `pages`: path to HTML, or to a function that makes
 * the HTML at each request (for pages that name records made after the portal started). A path
 * ending in `.js` is served as a script.
 */
export async function startScriptTagPortal(
  pages: Record<string, string | (() => string)>,
  {
    member = 'alex',
    pageHeaders = {},
    classic = false,
    assetDelayMs = 0,
    basePath = '/consult',
    gzip = false,
    webhooks = false,
    limits,
  }: ScriptTagPortalOptions = {},
): Promise<ScriptTagPortal> {
  const { folder: outDir } = await browserBuild();
  const sandbox = await startSandboxServer({ port: 0, professionals: { mode: 'manual' } });
  const compressed = new Map<string, Uint8Array<ArrayBuffer>>();
  /** The body as sent, and the headers every page and file shares. */
  const asSent = (path: string, text: string | Uint8Array<ArrayBuffer>, type: string, fixed: boolean) => {
    const headers: Record<string, string> = { ...CACHING, 'content-type': type };
    const body = typeof text === 'string' ? new TextEncoder().encode(text) : text;
    if (!gzip) return { body, headers };
    let sent = fixed ? compressed.get(path) : undefined;
    if (!sent) {
      sent = new Uint8Array(gzipSync(body, { level: 9 }));
      if (fixed) compressed.set(path, sent);
    }
    return { body: sent, headers: { ...headers, 'content-encoding': 'gzip', vary: 'accept-encoding' } };
  };
  const serve = (app: Hono) => {
    // The built files, as any static host serves them.
    app.get('/assets/*', async (c) => {
      const file = c.req.path.slice('/assets/'.length);
      if (!/^[\w.-]+(\/[\w.-]+)*\.js$/.test(file) || file.includes('..')) return c.notFound();
      if (!classic && file.includes('.classic.')) return c.notFound();
      const body = await readFile(join(outDir, file)).catch(() => undefined);
      if (assetDelayMs) await new Promise((resolve) => setTimeout(resolve, assetDelayMs));
      if (!body) return c.notFound();
      const sent = asSent(c.req.path, new Uint8Array(body), 'text/javascript', true);
      return c.body(sent.body, 200, sent.headers);
    });
    for (const [path, page] of Object.entries(pages)) {
      const script = path.endsWith('.js');
      const type = script ? 'text/javascript' : 'text/html; charset=utf-8';
      app.get(path, (c) => {
        const sent = asSent(path, typeof page === 'string' ? page : page(), type, typeof page === 'string');
        return c.body(sent.body, 200, script ? sent.headers : { ...pageHeaders, ...sent.headers });
      });
    }
  };
  const port = webhooks ? await freePort() : 0;
  const proxy = await startProxyServer({
    upstreamUrl: sandbox.url,
    apiKey: sandbox.sandbox.apiKeys[0] ?? 'sandbox-api-key',
    sessionSecret: 'script-tag-portal-session-secret-0123456789abcdef012345',
    authenticate: async () => ({ uniqueId: member }),
    port,
    ...(webhooks ? { publicUrl: `http://127.0.0.1:${port}${basePath}` } : {}),
    basePath,
    ...(limits ? { limits } : {}),
    logger: () => undefined,
    extend: serve,
  });
  return {
    url: proxy.url,
    proxy,
    sandbox,
    close: async () => {
      await proxy.close();
      await sandbox.close();
    },
  };
}
