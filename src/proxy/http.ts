/**
 * How the proxy makes its answers, in the way that costs least on Node: with plain headers, which
 * the Node adapter writes as they are. Fetch `Headers` on a response would have every name and
 * value checked, then be copied again on the way out.
 */
import type { ProblemError } from '../server/problems.js';

/** Health data is never cached by browsers or intermediaries, nor read as another type than it says. */
export const NO_STORE_HEADERS = Object.freeze({
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const);

// Shared by every answer, so frozen: whatever adds a header to an answer copies them first.
const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json', ...NO_STORE_HEADERS });

/**
 * On responses made here, which carry `NO_STORE_HEADERS` already: their body text (null for none),
 * whose length decides whether compressing it pays, without reading the response. A property of
 * the response rather than a WeakMap entry, which the garbage collector would have to trace apart.
 */
const BODY_TEXT = Symbol('consult.bodyText');

type Hardened = Response & { [BODY_TEXT]?: string | null };

/** Whether `response` was made here (and so needs no more headers). */
export const isHardened = (response: Response): boolean => (response as Hardened)[BODY_TEXT] !== undefined;

/** The body text of a response made here; undefined for any other response. */
export const bodyTextOf = (response: Response): string | null | undefined =>
  (response as Hardened)[BODY_TEXT];

function hardened(
  body: string | ReadableStream<Uint8Array> | null,
  status: number,
  headers: Record<string, string>,
): Response {
  const response: Hardened = new Response(body, { status, headers });
  response[BODY_TEXT] = typeof body === 'string' ? body : null;
  return response;
}

/**
 * An event stream must pass every intermediary as it is written: `no-transform` keeps compressing
 * servers and CDNs (Next.js, Express's `compression`) from gzipping it into a buffer, and
 * `X-Accel-Buffering: no` keeps nginx from holding it.
 */
export const EVENT_STREAM_HEADERS = Object.freeze({
  ...NO_STORE_HEADERS,
  'cache-control': 'no-store, no-transform',
  'x-accel-buffering': 'no',
} as const);

// As Hono's `streamSSE` answers, with the headers above. `Transfer-Encoding: chunked` has Node's
// HTTP/1.1 server send the head at once, before any event; HTTP/2 forbids it and `Connection`.
const SSE_HEADERS_HTTP2 = Object.freeze({ 'content-type': 'text/event-stream', ...EVENT_STREAM_HEADERS });
const SSE_HEADERS = Object.freeze({
  ...SSE_HEADERS_HTTP2,
  'transfer-encoding': 'chunked',
  connection: 'keep-alive',
});

/**
 * A server-sent event stream with its headers, made whole at once: on Node the adapter then writes
 * it with no fetch `Response` or `Headers` behind it (adding a header afterwards would make both,
 * and keep them for as long as the stream is open).
 */
export const eventStream = (body: ReadableStream<Uint8Array>, http2 = false): Response =>
  hardened(body, 200, http2 ? SSE_HEADERS_HTTP2 : SSE_HEADERS);

/** A JSON answer with the no-store headers. */
export const json = (body: unknown, status = 200): Response =>
  hardened(JSON.stringify(body), status, JSON_HEADERS);

/** A refusal as `application/problem+json`, with the no-store headers and the error's own. */
export const problem = (error: ProblemError): Response =>
  hardened(JSON.stringify(error.toProblem()), error.status, {
    'content-type': 'application/problem+json',
    ...NO_STORE_HEADERS,
    ...error.headers,
  });

/** An empty answer (204) with the no-store headers. */
export const noContent = (): Response => hardened(null, 204, NO_STORE_HEADERS);
