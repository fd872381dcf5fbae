/**
 * The proxy's way to the upstream on Node: keep-alive connections from a pool (undici's `Agent`),
 * and answers gathered whole as text, which is all the client reads of them. The
 * upstream's JSON answers are small; the fetch machinery (streams, CORS, a `Response` per call)
 * would cost more than the call itself. It keeps each call's time limit and signal itself
 * (`enforcesLimits`), so the client needs no controller and timer of its own per call. Redirects
 * are never followed (S6): a 3xx comes back as it is. Node only (undici), used by `startProxyServer`.
 */
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
    /** Names and values in turn, as they came. Looked through only when asked (Retry-After on a refusal). */
    rawHeaders: Buffer[],
    readonly body: string,
  ) {
    this.headers = {
      get: (name) => {
        const wanted = name.toLowerCase();
        const values: string[] = [];
        for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
          if (String(rawHeaders[i]).toLowerCase() === wanted) values.push(String(rawHeaders[i + 1]));
        }
        return values.length === 0 ? null : values.join(', ');
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

export function pooledFetch(options: PooledFetchOptions = {}): PooledFetch {
  const dispatcher = new Agent({
    connections: options.connections ?? 32,
    keepAliveTimeout: options.keepAliveMs ?? 10_000,
  });
  // undici's `dispatch` with handlers of our own: the answer is gathered as it comes, with no body
  // stream, async scope or abort listener made for it.
  const pooled: FetchLike = (url, init) =>
    new Promise<FetchResponse>((resolve, reject) => {
      const { signal, timeoutMs = 0 } = init;
      if (signal?.aborted) return reject(signal.reason);
      /** Why the call was stopped (the caller's signal, or the time limit), once it is. */
      let stopped: { reason: unknown } | undefined;
      let abortRequest: ((error: Error) => void) | undefined;
      const stop = (reason: unknown) => {
        if (stopped) return;
        stopped = { reason };
        abortRequest?.(reason instanceof Error ? reason : new Error('aborted'));
      };
      const onAbort = () => stop(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      const timer =
        timeoutMs > 0
          ? setTimeout(() => stop(new DOMException('The request timed out.', 'TimeoutError')), timeoutMs)
          : undefined;
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };

      let status = 0;
      let rawHeaders: Buffer[] = [];
      const chunks: Buffer[] = [];
      try {
        dispatcher.dispatch(
          {
            ...originAndPath(url),
            method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
            headers: init.headers as Record<string, string> | undefined,
            body: typeof init.body === 'string' ? init.body : undefined,
          },
          {
            onConnect: (abort) => {
              if (stopped) abort(new Error('aborted'));
              else abortRequest = abort;
            },
            onHeaders: (statusCode, headers) => {
              // 1xx answers are interim: the final one follows.
              if (statusCode >= 200) {
                status = statusCode;
                rawHeaders = headers;
              }
              return true;
            },
            onData: (chunk) => {
              chunks.push(chunk);
              return true;
            },
            onComplete: () => {
              settle();
              resolve(new BufferedResponse(status, rawHeaders, Buffer.concat(chunks).toString('utf8')));
            },
            onError: (error) => {
              settle();
              reject(stopped ? stopped.reason : error);
            },
          },
        );
      } catch (error) {
        settle();
        reject(error);
      }
    });
  // It keeps the client's limits itself: the signal, and the time limit, the body included.
  return Object.assign(pooled, { enforcesLimits: true, close: () => dispatcher.close() });
}
