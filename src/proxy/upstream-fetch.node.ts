/**
 * The proxy's way to the upstream on Node: keep-alive connections from a pool (undici's
 * `request`), and answers read whole as text, which is all the client reads of them. The
 * upstream's JSON answers are small; the fetch machinery (streams, CORS, a `Response` per call)
 * would cost more than the call itself. Redirects are never followed (S6): a 3xx comes back as it is.
 * Node only (undici), used by `startProxyServer`.
 */
import { Agent, request, type Dispatcher } from 'undici';
import type { FetchLike, FetchResponse } from '../client/client.js';

export interface PooledFetchOptions {
  /** Connections kept per upstream origin. Default 32. */
  connections?: number;
  /** How long an idle connection stays open. Default 10 s. */
  keepAliveMs?: number;
}

export interface PooledFetch extends FetchLike {
  /** Closes the pool's connections. */
  close(): Promise<void>;
}

/** An upstream answer, read whole. */
class BufferedResponse implements FetchResponse {
  readonly statusText = '';
  readonly headers: { get(name: string): string | null };

  constructor(
    readonly status: number,
    headers: Dispatcher.ResponseData['headers'],
    readonly body: string,
  ) {
    this.headers = {
      get: (name) => {
        const value = headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    };
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  async text(): Promise<string> {
    return this.body;
  }
}

export function pooledFetch(options: PooledFetchOptions = {}): PooledFetch {
  const dispatcher = new Agent({
    connections: options.connections ?? 32,
    keepAliveTimeout: options.keepAliveMs ?? 10_000,
  });
  const pooled: FetchLike = async (url, init) => {
    const { statusCode, headers, body } = await request(url, {
      dispatcher,
      method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
      headers: init.headers as Record<string, string> | undefined,
      body: typeof init.body === 'string' ? init.body : undefined,
      signal: init.signal ?? undefined,
    });
    return new BufferedResponse(statusCode, headers, await body.text());
  };
  return Object.assign(pooled, { close: () => dispatcher.close() });
}
