/**
 * The proxy's way to the upstream on Node: keep-alive connections from a pool (undici's
 * `request`), and answers read whole as text, which is all the client reads of them. The
 * upstream's JSON answers are small; the fetch machinery (streams, CORS, a `Response` per call)
 * would cost more than the call itself. It keeps each call's time limit and signal itself
 * (`enforcesLimits`), so the client needs no controller and timer of its own per call. Redirects
 * are never followed (S6): a 3xx comes back as it is. Node only (undici), used by `startProxyServer`.
 */
import { EventEmitter } from 'node:events';
import { Agent, type Dispatcher } from 'undici';
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

/**
 * A URL's origin and path, which the dispatcher takes apart. The client's URLs are already
 * normalized, so a split does; parsing each URL whole (as undici's `request(url)` does) costs more.
 */
function originAndPath(url: string): { origin: string; path: string } {
  const authorityStart = url.indexOf('//') + 2;
  const pathStart = url.indexOf('/', authorityStart);
  // Anything less plain (no path, a query or fragment right after the host) is parsed whole.
  if (authorityStart < 2 || pathStart < 0 || /[?#@]/.test(url.slice(authorityStart, pathStart))) {
    const parsed = new URL(url);
    return { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
  }
  return { origin: url.slice(0, pathStart), path: url.slice(pathStart) };
}

/**
 * What undici listens to for an abort: an emitter, which costs far less to make than an
 * `AbortController` (one per read adds up). It stops a request on the caller's signal or when the
 * time runs out, with that reason.
 */
class Stop extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

export function pooledFetch(options: PooledFetchOptions = {}): PooledFetch {
  const dispatcher = new Agent({
    connections: options.connections ?? 32,
    keepAliveTimeout: options.keepAliveMs ?? 10_000,
  });
  const pooled: FetchLike = async (url, init) => {
    const { signal, timeoutMs = 0 } = init;
    const stop = timeoutMs > 0 || signal ? new Stop() : undefined;
    const onAbort = () => stop?.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer =
      timeoutMs > 0
        ? setTimeout(() => stop?.abort(new DOMException('The request timed out.', 'TimeoutError')), timeoutMs)
        : undefined;
    try {
      const { statusCode, headers, body } = await dispatcher.request({
        ...originAndPath(url),
        method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
        headers: init.headers as Record<string, string> | undefined,
        body: typeof init.body === 'string' ? init.body : undefined,
        signal: stop,
      });
      return new BufferedResponse(statusCode, headers, await body.text());
    } catch (error) {
      // The reason it was stopped for, rather than undici's own error about it.
      throw stop?.aborted ? stop.reason : error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  };
  // It keeps the client's limits itself: the signal, and the time limit, the body included.
  return Object.assign(pooled, { enforcesLimits: true, close: () => dispatcher.close() });
}
