/**
 * How the proxy makes its answers, in the way that costs least on Node: plain headers, which the
 * Node adapter writes as they are. A member's read is mostly Node's HTTP and the upstream call;
 * fetch `Headers` on a response (every name and value checked, then copied again on the way out)
 * would cost as much as everything the proxy itself decides.
 */
import type { ProblemError } from '../server/problems.js';

/** Health data is never cached by browsers or intermediaries, nor read as another type than it says. */
export const NO_STORE_HEADERS = Object.freeze({
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const);

// Shared by every answer, so frozen: whatever adds a header to an answer copies them first.
const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json', ...NO_STORE_HEADERS });

/** Responses made by `json`, which carry `NO_STORE_HEADERS` already. */
const hardenedResponses = new WeakSet<Response>();

/** Whether `response` was made by `json` (and so needs no more headers). */
export const isHardened = (response: Response): boolean => hardenedResponses.has(response);

/** A JSON answer with the no-store headers, as plain headers the Node adapter writes as they are. */
export function json(body: unknown, status = 200): Response {
  const response = new Response(JSON.stringify(body), { status, headers: JSON_HEADERS });
  hardenedResponses.add(response);
  return response;
}

/** A refusal as `application/problem+json`, with the no-store headers and the error's own. */
export function problem(error: ProblemError): Response {
  const response = new Response(JSON.stringify(error.toProblem()), {
    status: error.status,
    headers: { 'content-type': 'application/problem+json', ...NO_STORE_HEADERS, ...error.headers },
  });
  hardenedResponses.add(response);
  return response;
}

/** An empty answer (204) with the no-store headers. */
export function noContent(): Response {
  const response = new Response(null, { status: 204, headers: NO_STORE_HEADERS });
  hardenedResponses.add(response);
  return response;
}
