/** Test support: a real sandbox server on a free loopback port, and small HTTP helpers for it. */
import {
  startSandboxServer,
  type SandboxServer,
  type SandboxServerOptions,
} from '../../../src/sandbox/node.js';

export interface TestSandbox extends SandboxServer {
  /** An access token for the default API key. */
  token(): Promise<string>;
  /** A JSON request to the sandbox; `token: null` sends no Authorization header. */
  call(
    method: string,
    path: string,
    options?: { body?: unknown; rawBody?: string; token?: string | null; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  /** POST to a `/_sandbox` control. */
  control(path: string, body?: unknown): Promise<any>;
}

export async function startTestSandbox(options: SandboxServerOptions = {}): Promise<TestSandbox> {
  const server = await startSandboxServer({ port: 0, professionals: { mode: 'manual' }, ...options });
  let cachedToken: string | undefined;
  const token = async (): Promise<string> => {
    if (cachedToken) return cachedToken;
    const response = await fetch(`${server.url}/partner/authorization/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: server.sandbox.apiKeys[0] }),
    });
    cachedToken = ((await response.json()) as { accessToken: string }).accessToken;
    return cachedToken;
  };
  const call: TestSandbox['call'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    const auth = options.token === undefined ? await token() : options.token;
    if (auth !== null) headers['authorization'] = `Bearer ${auth}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const response = await fetch(`${server.url}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: keep the text.
    }
    return { status: response.status, body: parsed, headers: response.headers };
  };
  const control: TestSandbox['control'] = async (path, body) => {
    const response = await call('POST', `/_sandbox${path}`, { body: body ?? {}, token: null });
    if (response.status >= 400) throw new Error(`control ${path} failed: ${JSON.stringify(response.body)}`);
    return response.body;
  };
  return { ...server, token, call, control };
}
