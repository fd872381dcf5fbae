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
    if (request.method !== 'GET' || !env.incoming.url?.includes('/events')) return answer;
    return answer instanceof Promise
      ? answer.then((response) => handOver(response, env))
      : handOver(answer, env);
  }) as Handler;
}

function handOver(response: Response, env: Bindings): Response {
  const stream = eventStreamOf(response);
  const { outgoing } = env;
  // An HTTP/2 response is not one: its stream goes through the body, as anywhere else.
  if (!stream || !(outgoing instanceof ServerResponse) || outgoing.headersSent) return response;
  const head: OutgoingHttpHeaders = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') head[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) head['set-cookie'] = cookies;
  outgoing.writeHead(response.status, head);
  stream.sendTo(outgoing);
  // Closed by the client (or by the end): the stream hears it, as from a cancelled body.
  outgoing.once('close', () => stream.abort());
  return RESPONSE_ALREADY_SENT;
}
