/** Scripted fetch and response builders shared by the client tests. */

export interface RecordedRequest {
  method: string;
  url: URL;
  headers: Headers;
  /** Parsed JSON body, or undefined when none was sent. */
  body: unknown;
  signal: AbortSignal | undefined;
}

/** What the scripted fetch does for one request. */
export type Step = Response | Error | 'hang' | ((request: RecordedRequest) => Response | Promise<Response>);

/**
 * A fetch that answers from a queue of steps and records every request. `'hang'` never answers but, like a real
 * fetch, rejects with the signal's reason when aborted. When the queue is empty, `fallback` answers.
 */
export function scriptedFetch(
  steps: Step[] = [],
  fallback?: (request: RecordedRequest) => Response | Promise<Response>,
) {
  const requests: RecordedRequest[] = [];
  const fetch = async (input: string, init: RequestInit): Promise<Response> => {
    const text = typeof init.body === 'string' ? init.body : undefined;
    const request: RecordedRequest = {
      method: init.method ?? 'GET',
      url: new URL(input),
      headers: new Headers(init.headers),
      body: text === undefined ? undefined : JSON.parse(text),
      signal: init.signal ?? undefined,
    };
    requests.push(request);
    const step = steps.shift() ?? fallback;
    if (step === undefined) throw new Error(`unexpected request ${request.method} ${request.url.pathname}`);
    if (step === 'hang') return hang(init.signal ?? undefined);
    if (step instanceof Error) throw step;
    if (step instanceof Response) return step;
    return step(request);
  };
  return { fetch, requests };
}

function hang(signal: AbortSignal | undefined): Promise<Response> {
  return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export function problem(
  status: number,
  fields: { code?: string; title?: string; detail?: string; errors?: unknown } = {},
  headers: Record<string, string> = {},
): Response {
  return new Response(
    JSON.stringify({
      type: 'about:blank',
      title: `Problem ${status}`,
      status,
      code: `code_${status}`,
      ...fields,
    }),
    { status, headers: { 'content-type': 'application/problem+json', ...headers } },
  );
}

/** A fresh 200 each time (a Response body can be read only once). */
export const ok =
  (body: unknown = {}) =>
  (): Response =>
    json(200, body);

/** A promise with its resolve function, to hold a response until the test lets it go. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A sleep that records the delays asked for and returns at once. */
export function recordingSleep() {
  const delays: number[] = [];
  const sleep = async (ms: number, signal?: AbortSignal) => {
    signal?.throwIfAborted();
    delays.push(ms);
  };
  return { sleep, delays };
}

/** Rejects with what `promise` rejects with; fails when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}
