/**
 * A partner portal as the README describes it, for the end-to-end tests and the benchmarks: the
 * browser files built by the project's Vite config and served from a static folder, the real proxy
 * and sandbox on loopback, and pages of the caller's own. The member is always signed in.
 */
import type { Hono } from 'hono';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { browserBuild } from './test-build.js';
import { startProxyServer, type ProxyServer } from '../src/proxy/node.js';
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
}

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
  }: ScriptTagPortalOptions = {},
): Promise<ScriptTagPortal> {
  const { folder: outDir } = await browserBuild();
  const sandbox = await startSandboxServer({ port: 0, professionals: { mode: 'manual' } });
  const serve = (app: Hono) => {
    // The built files, as any static host serves them.
    app.get('/assets/*', async (c) => {
      const file = c.req.path.slice('/assets/'.length);
      if (!/^[\w.-]+(\/[\w.-]+)*\.js$/.test(file) || file.includes('..')) return c.notFound();
      if (!classic && file.includes('.classic.')) return c.notFound();
      const body = await readFile(join(outDir, file)).catch(() => undefined);
      if (assetDelayMs) await new Promise((resolve) => setTimeout(resolve, assetDelayMs));
      return body ? c.body(body, 200, { 'content-type': 'text/javascript' }) : c.notFound();
    });
    for (const [path, page] of Object.entries(pages)) {
      const type = path.endsWith('.js') ? 'text/javascript' : 'text/html; charset=utf-8';
      app.get(path, (c) =>
        c.body(typeof page === 'string' ? page : page(), 200, { ...pageHeaders, 'content-type': type }),
      );
    }
  };
  const proxy = await startProxyServer({
    upstreamUrl: sandbox.url,
    apiKey: sandbox.sandbox.apiKeys[0] ?? 'sandbox-api-key',
    sessionSecret: 'script-tag-portal-session-secret-0123456789abcdef012345',
    authenticate: async () => ({ uniqueId: member }),
    port: 0,
    basePath,
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
