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

/** An answer's headers: names and values in turn, as they came, looked through only when asked (Retry-After on a refusal). */
class RawHeaders {
  constructor(readonly raw: Buffer[]) {}

  /** The header's values joined with ", ", or null. */
  get(name: string): string | null {
    const wanted = name.toLowerCase();
    const values: string[] = [];
    for (let i = 0; i + 1 < this.raw.length; i += 2) {
      if (String(this.raw[i]).toLowerCase() === wanted) values.push(String(this.raw[i + 1]));
    }
    return values.length === 0 ? null : values.join(', ');
  }
}

/** An upstream answer, read whole. */
class BufferedResponse implements FetchResponse {
  readonly statusText = '';
  readonly headers: RawHeaders;

  constructor(
    readonly status: number,
    rawHeaders: Buffer[],
    readonly body: string,
  ) {
    this.headers = new RawHeaders(rawHeaders);
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
 * One call's answer as undici hands it over, gathered whole, with the call's time limit and signal:
 * one object per call, its steps methods rather than closures made for each call.
 */
class GatheredAnswer implements Dispatcher.DispatchHandlers {
  #status = 0;
  #rawHeaders: Buffer[] = [];
  readonly #chunks: Buffer[] = [];
  #stopped: { reason: unknown } | undefined;
  #abortRequest: ((error: Error) => void) | undefined;
  readonly #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort: (() => void) | undefined;

  constructor(
    readonly resolve: (response: FetchResponse) => void,
    readonly reject: (reason: unknown) => void,
    signal: AbortSignal | undefined,
    timeoutMs: number,
  ) {
    this.#signal = signal;
    if (signal) {
      this.#onAbort = () => this.stop(signal.reason);
      signal.addEventListener('abort', this.#onAbort, { once: true });
    }
    this.#timer =
      timeoutMs > 0
        ? setTimeout(() => this.stop(new DOMException('The request timed out.', 'TimeoutError')), timeoutMs)
        : undefined;
  }

  /** Ends the call with `reason` (the signal's, or the time limit's). */
  stop(reason: unknown): void {
    if (this.#stopped) return;
    this.#stopped = { reason };
    this.#abortRequest?.(reason instanceof Error ? reason : new Error('aborted'));
  }

  /** No timer or listener is left behind, however the call ends. */
  settle(): void {
    clearTimeout(this.#timer);
    if (this.#onAbort) this.#signal?.removeEventListener('abort', this.#onAbort);
  }

  onConnect(abort: (error: Error) => void): void {
    if (this.#stopped) abort(new Error('aborted'));
    else this.#abortRequest = abort;
  }

  onHeaders(statusCode: number, headers: Buffer[]): boolean {
    // 1xx answers are interim: the final one follows.
    if (statusCode >= 200) {
      this.#status = statusCode;
      this.#rawHeaders = headers;
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.#chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    this.settle();
    // One chunk, as most answers come, is read as it is, without a copy.
    const chunks = this.#chunks;
    const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    this.resolve(new BufferedResponse(this.#status, this.#rawHeaders, body.toString('utf8')));
  }

  onError(error: Error): void {
    this.settle();
    this.reject(this.#stopped ? this.#stopped.reason : error);
  }
}

export function pooledFetch(options: PooledFetchOptions = {}): PooledFetch {
  const dispatcher = new Agent({
    connections: options.connections ?? 32,
    keepAliveTimeout: options.keepAliveMs ?? 10_000,
  });
  // undici's `dispatch` with a handler of our own: the answer is gathered as it comes, with no body
  // stream, async scope or abort listener made for it.
  const pooled: FetchLike = (url, init) =>
    new Promise<FetchResponse>((resolve, reject) => {
      const { signal, timeoutMs = 0 } = init;
      if (signal?.aborted) return reject(signal.reason);
      const answer = new GatheredAnswer(resolve, reject, signal ?? undefined, timeoutMs);
      try {
        const { origin, path } = originAndPath(url);
        dispatcher.dispatch(
          {
            origin,
            path,
            method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
            headers: init.headers as Record<string, string> | undefined,
            body: typeof init.body === 'string' ? init.body : undefined,
          },
          answer,
        );
      } catch (error) {
        answer.settle();
        reject(error);
      }
    });
  // It keeps the client's limits itself: the signal, and the time limit, the body included.
  return Object.assign(pooled, { enforcesLimits: true, close: () => dispatcher.close() });
}
