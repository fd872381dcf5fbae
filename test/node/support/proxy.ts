/**
 * Test support: a test sandbox (professionals in manual mode) and the partner proxy in front of it,
 * both real HTTP servers on loopback. Requests go out with `node:http`, so a path reaches the proxy
 * exactly as written (`..`, `%2e%2e`, `//` are not normalised away by the test's own client).
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { SandboxServerOptions } from '../../../src/sandbox/node.js';
import type { RequestLogEntry } from '../../../src/sandbox/middleware.js';
import { demoSignIn } from '../../../src/proxy/demo.js';
import { startProxyServer, type ProxyServer, type ProxyServerOptions } from '../../../src/proxy/node.js';
import type { ProxyLogEntry } from '../../../src/proxy/options.js';
import { mintWidgetToken } from '../../../src/proxy/widget-token.js';
import { startTestSandbox, type TestSandbox } from './sandbox.js';
import { freePort } from '../../../scripts/free-port.js';

/** A free loopback port (for a proxy that must know its own URL before it starts). */
export { freePort };

export const SESSION_SECRET = 'test-session-secret-0123456789-abcdefghijklmnopq';
export const ALLOWED_ORIGIN = 'https://portal.example';
export const BASE_PATH = '/consult';
/** The longest any single request from a test may take. */
export const REQUEST_TIMEOUT_MS = 10_000;

export interface ProxyResponse {
  status: number;
  headers: Headers;
  /** The raw body text. */
  text: string;
  /** The body parsed as JSON, or the text when it is not JSON, or undefined when empty. */
  body: any;
}

export interface CallOptions {
  /** Sent as `Authorization: Bearer …`; leave out for no Authorization header. */
  token?: string;
  /** Serialised as JSON with `content-type: application/json`. */
  body?: unknown;
  /** Sent as is (no content-type unless given in `headers`). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface TestProxyOptions extends Partial<ProxyServerOptions> {
  /** Share a sandbox started elsewhere (it is then not closed with this proxy). */
  sandbox?: TestSandbox;
  /** Options for the sandbox this proxy starts for itself. */
  sandboxOptions?: SandboxServerOptions;
}

export interface TestProxy {
  sandbox: TestSandbox;
  server: ProxyServer;
  /** The proxy's origin, for example `http://127.0.0.1:40123`. */
  origin: string;
  /** The proxy's base URL: origin plus `/consult`. */
  url: string;
  /** Every line the proxy logged, in order. */
  logs: ProxyLogEntry[];
  /** Every response this helper received from the proxy, as raw text: status, headers and body. */
  wire: string[];
  /** The widget-token signing secret this proxy uses. */
  secret: string;
  /** Signs in through `POST /consult/session` (demo sign-in unless `authenticate` was replaced) and returns the widget token. */
  session(uniqueId: string): Promise<string>;
  /** A request to `/consult{path}`. */
  call(method: string, path: string, options?: CallOptions): Promise<ProxyResponse>;
  /** A request to exactly `path` on the proxy's server, sent verbatim. */
  request(method: string, path: string, options?: CallOptions): Promise<ProxyResponse>;
  /** A widget token minted directly with this proxy's secret. */
  mint(userId: string, uniqueId: string, ttlSeconds?: number, now?: number): Promise<string>;
  /** Where the sandbox's request log stands now, for `upstreamCalls(since)`. */
  mark(): number;
  /** The operations the upstream (sandbox) received since `sinceIndex`; its own `/_sandbox` controls are left out. */
  upstreamCalls(sinceIndex?: number): RequestLogEntry[];
  close(): Promise<void>;
}

/** Sends one HTTP request with `node:http`, the path untouched, bounded by {@link REQUEST_TIMEOUT_MS}. */
export function rawRequest(
  origin: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ProxyResponse & { raw: string }> {
  const target = new URL(origin);
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
  let payload: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    payload = JSON.stringify(options.body);
  }
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: target.hostname, port: target.port, method, path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = undefined;
          if (text) {
            try {
              body = JSON.parse(text);
            } catch {
              body = text;
            }
          }
          const responseHeaders = toHeaders(res.headers);
          const raw = `${res.statusCode} ${res.statusMessage}\n${res.rawHeaders.join('\n')}\n\n${text}`;
          resolve({ status: res.statusCode ?? 0, headers: responseHeaders, text, body, raw });
        });
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () =>
      req.destroy(new Error(`${method} ${path} took longer than ${REQUEST_TIMEOUT_MS} ms`)),
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function toHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

/**
 * Starts a proxy (and, unless one is given, a sandbox) for a test file. Defaults: demo sign-in,
 * the sandbox's API key, {@link SESSION_SECRET}, {@link ALLOWED_ORIGIN}, a capturing logger, and
 * per-address limits high enough for a whole test file from one loopback address (tests of the
 * per-address limit configure their own).
 */
export async function startTestProxy(options: TestProxyOptions = {}): Promise<TestProxy> {
  const { sandbox: shared, sandboxOptions, ...overrides } = options;
  const sandbox = shared ?? (await startTestSandbox(sandboxOptions));
  const logs: ProxyLogEntry[] = [];
  const wire: string[] = [];
  const secret = overrides.sessionSecret ?? SESSION_SECRET;
  let server: ProxyServer;
  try {
    server = await startProxyServer({
      port: 0,
      basePath: BASE_PATH,
      authenticate: demoSignIn(),
      upstreamUrl: sandbox.url,
      apiKey: sandbox.sandbox.apiKeys[0] ?? 'sandbox-api-key',
      sessionSecret: secret,
      allowedOrigins: [ALLOWED_ORIGIN],
      logger: (entry) => logs.push(entry),
      ...overrides,
      limits: {
        perAddressPerMinute: 100_000,
        sessionsPerAddressPerMinute: 10_000,
        signInsPerMemberPerMinute: 10_000,
        ...overrides.limits,
      },
    });
  } catch (error) {
    if (!shared) await sandbox.close();
    throw error;
  }
  // The key is checked before a test counts upstream calls: its exchange is not one of theirs.
  await server.proxy.apiKeyChecked.catch(() => undefined);
  const origin = server.url;

  const request: TestProxy['request'] = async (method, path, callOptions) => {
    const response = await rawRequest(origin, method, path, callOptions);
    wire.push(response.raw);
    return response;
  };
  const call: TestProxy['call'] = (method, path, callOptions) =>
    request(method, `${BASE_PATH}${path}`, callOptions);

  const session: TestProxy['session'] = async (uniqueId) => {
    const response = await call('POST', '/session', { body: { demoUser: uniqueId } });
    if (response.status !== 200 || typeof response.body?.token !== 'string') {
      throw new Error(`sign-in as ${uniqueId} failed: ${response.status} ${response.text}`);
    }
    return response.body.token as string;
  };

  const upstreamCalls: TestProxy['upstreamCalls'] = (sinceIndex = 0) =>
    sandbox.sandbox.requests.slice(sinceIndex).filter((r) => !r.path.startsWith('/_sandbox'));

  return {
    sandbox,
    server,
    origin,
    url: `${origin}${BASE_PATH}`,
    logs,
    wire,
    secret,
    session,
    call,
    request,
    // After the proxy is ready: a token issued before its store's generation began is refused.
    mint: async (userId, uniqueId, ttlSeconds = 600, now?: number) => {
      await server.proxy.ready.catch(() => undefined);
      return (await mintWidgetToken(secret, { userId, uniqueId }, ttlSeconds, now ?? Date.now())).token;
    },
    mark: () => sandbox.sandbox.requests.length,
    upstreamCalls,
    close: async () => {
      await server.close();
      if (!shared) await sandbox.close();
    },
  };
}

/** Polls `probe` until it returns something other than undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 3000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** One item of a server-sent event stream: an event, or a comment line. */
export interface SseItem {
  event?: string;
  data?: string;
  id?: string;
  comment?: string;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** Everything received so far, in order. */
  items: SseItem[];
  /** Every byte received so far, as text. */
  text(): string;
  /** True once the server ended the stream. */
  ended(): boolean;
  /** Waits (bounded) for the first item matching `match` and returns it. */
  next(match: (item: SseItem) => boolean, timeoutMs?: number): Promise<SseItem>;
  /** The events named `name` received so far. */
  events(name: string): SseItem[];
  close(): void;
}

/**
 * Opens `GET {url}` as a fetch stream with the Authorization header (as the element does) and
 * parses `event:`/`data:` lines and `:` comments as they arrive.
 */
export async function openEventStream(
  url: string,
  token?: string,
  headers: Record<string, string> = {},
): Promise<SseStream> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('stream open timed out')), REQUEST_TIMEOUT_MS);
  const response = await fetch(url, {
    headers: {
      accept: 'text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    signal: controller.signal,
  }).finally(() => clearTimeout(timer));
  const items: SseItem[] = [];
  let received = '';
  let done = false;
  if (response.body) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      let buffer = '';
      let current: SseItem = {};
      try {
        for (;;) {
          const chunk = await reader.read();
          if (chunk.done) break;
          received += chunk.value;
          buffer += chunk.value;
          let newline: number;
          while ((newline = buffer.search(/\r?\n/)) >= 0) {
            const line = buffer.slice(0, newline);
            buffer = buffer.slice(newline + (buffer[newline] === '\r' ? 2 : 1));
            if (line === '') {
              if (current.event !== undefined || current.data !== undefined) items.push(current);
              current = {};
            } else if (line.startsWith(':')) {
              items.push({ comment: line.slice(1).trim() });
            } else {
              const colon = line.indexOf(':');
              const field = colon < 0 ? line : line.slice(0, colon);
              const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
              if (field === 'event') current.event = value;
              else if (field === 'id') current.id = value;
              else if (field === 'data')
                current.data = current.data === undefined ? value : `${current.data}\n${value}`;
            }
          }
        }
      } catch {
        // Aborted by close(): the stream is over either way.
      } finally {
        done = true;
      }
    })();
  } else {
    done = true;
  }
  return {
    status: response.status,
    headers: response.headers,
    items,
    text: () => received,
    ended: () => done,
    next: (match, timeoutMs = 3000) =>
      eventually('a matching stream item', () => items.find(match), timeoutMs),
    events: (name) => items.filter((item) => item.event === name),
    close: () => controller.abort(),
  };
}
