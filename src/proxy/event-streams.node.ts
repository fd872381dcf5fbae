/**
 * Node servers only: a member's event stream is written straight into Node's response, rather than
 * through a ReadableStream that the Node adapter pumps. Nothing but the socket and the stream's own
 * state is then held for each stream open, and a write costs one socket write. `startProxyServer`
 * does this; a partner serving `createProxy` with `@hono/node-server` wraps the fetch handler it
 * serves, the outermost one, so every header is on the response by the time it is handed over.
 */
import type { Http2Bindings, HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { ServerResponse, type OutgoingHttpHeaders } from 'node:http';
import { eventStreamOf } from './sse.js';

type Bindings = HttpBindings | Http2Bindings;
type FetchHandler = (request: Request, env: Bindings) => Response | Promise<Response>;

/**
 * Wraps the fetch handler `@hono/node-server` serves (`serve`, `getRequestListener`): the proxy's
 * event streams go straight into Node's response; everything else passes as it is.
 */
export function sendEventStreamsToNode<Handler extends FetchHandler>(handler: Handler): Handler {
  return ((request: Request, env: Bindings) => {
    const answer = handler(request, env);
    // Only `GET …/events` opens a stream: every other answer passes as it is, with no wait added.
    if (request.method !== 'GET' || !env?.incoming?.url?.includes('/events')) return answer;
    return answer instanceof Promise
      ? answer.then((response) => handOver(response, env))
      : handOver(answer, env);
  }) as Handler;
}

/**
 * What tells the Node adapter the answer is sent already: a response with the header of the
 * adapter's own sentinel. Made here, at the first hand-over, with its body read once: once the
 * adapter has put its own `Response` in place (it does so when it starts serving), a response made
 * keeps a cached form that the adapter writes out as it is, ignoring that header, until something
 * reads its body.
 */
let alreadySent: Response | undefined;
function sentAlready(): Response {
  if (!alreadySent) {
    alreadySent = new Response(null, { headers: RESPONSE_ALREADY_SENT.headers });
    void alreadySent.bodyUsed;
  }
  return alreadySent;
}

function handOver(response: Response, env: Bindings): Response {
  const stream = eventStreamOf(response);
  const { outgoing } = env;
  // Not a stream of ours, one being read already, or an HTTP/2 response: sent as the adapter sends it.
  if (!stream || stream.sending || !(outgoing instanceof ServerResponse) || outgoing.headersSent)
    return response;
  if (outgoing.destroyed || outgoing.socket?.destroyed === true) {
    // The client left while the stream was being opened: it ends now, giving back its places.
    stream.abort();
    return sentAlready();
  }
  const head: OutgoingHttpHeaders = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') head[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) head['set-cookie'] = cookies;
  outgoing.writeHead(response.status, head);
  stream.sendTo(outgoing);
  // The client left (or the stream ended and the response with it): the stream hears it.
  outgoing.once('close', () => stream.abort());
  return sentAlready();
}
