/**
 * A partner's whole back end inside the page: the sandbox of the upstream service behind the real
 * partner proxy, with demo sign-in. Storybook, the browser tests and offline demos run the
 * elements against it exactly as they would run against a deployed proxy, with no server.
 */
import { Hono } from 'hono';
import type { SessionGrant } from '../session/session.js';
import { demoSignIn } from '../proxy/demo.js';
import type { ProxyOptions } from '../proxy/options.js';
import { createProxy, type ConsultProxy } from '../proxy/proxy.js';
import { createSandbox, DEFAULT_API_KEY, type Sandbox, type SandboxOptions } from './sandbox.js';

export interface DemoBackendOptions {
  sandbox?: SandboxOptions;
  proxy?: Partial<ProxyOptions>;
  /** Where the proxy answers. Default `/consult`. */
  basePath?: string;
}

export interface DemoBackend {
  readonly sandbox: Sandbox;
  readonly proxy: ConsultProxy;
  /** The proxy's base path, for the elements' `endpoint`. */
  readonly endpoint: string;
  /** Answers the proxy's paths in the page; anything else goes to the network. */
  readonly fetch: typeof fetch;
  /** Settles once the proxy has registered its webhook with the sandbox. */
  readonly ready: Promise<void>;
  /** A `tokenProvider` for `<consult-session>` that signs in as this demo member. */
  signInAs(uniqueId: string): () => Promise<SessionGrant>;
  close(): void;
}

const ORIGIN = 'http://portal.local';

function randomSecret(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(48))));
}

export function createDemoBackend(options: DemoBackendOptions = {}): DemoBackend {
  const basePath = options.basePath ?? '/consult';
  const app = new Hono();
  const toApp = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input), ORIGIN);
    return Promise.resolve(
      app.fetch(
        new Request(new URL(url.pathname + url.search, ORIGIN), input instanceof Request ? input : init),
      ),
    );
  };
  const sandbox = createSandbox({
    professionals: { mode: 'manual' },
    ...options.sandbox,
    // The sandbox delivers its webhooks to the proxy in the page.
    fetch: toApp,
  });
  const proxy = createProxy({
    upstreamUrl: 'http://sandbox.local',
    apiKey: sandbox.apiKeys[0] ?? DEFAULT_API_KEY,
    sessionSecret: randomSecret(),
    authenticate: demoSignIn(),
    fetch: sandbox.fetch,
    publicUrl: `${ORIGIN}${basePath}`,
    logger: () => undefined,
    ...options.proxy,
  });
  app.route(basePath, proxy);

  const pageFetch: typeof fetch = (input, init) => {
    const url = new URL(
      input instanceof Request ? input.url : String(input),
      globalThis.location?.href ?? ORIGIN,
    );
    const ours = url.pathname === basePath || url.pathname.startsWith(`${basePath}/`);
    return ours
      ? toApp(url.pathname + url.search, input instanceof Request ? input : init)
      : globalThis.fetch(input, init);
  };

  return {
    sandbox,
    proxy,
    endpoint: basePath,
    fetch: pageFetch,
    ready: proxy.ready,
    signInAs: (uniqueId) => async () => {
      const response = await pageFetch(`${basePath}/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ demoUser: uniqueId }),
      });
      // With its status, so the session can tell an outage (502, 503, 504) it waits out from a refusal.
      if (!response.ok)
        throw Object.assign(new Error(`demo sign-in as ${uniqueId} failed: ${response.status}`), {
          status: response.status,
        });
      return (await response.json()) as SessionGrant;
    },
    close: () => {
      sandbox.close();
      void proxy.close();
    },
  };
}
