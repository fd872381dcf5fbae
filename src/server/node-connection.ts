/**
 * Node servers only: a response sent before the request's body was read (a body over the limit, a
 * bad token, a rate limit, a foreign origin, an unknown route) answers with `Connection: close`.
 * The unread body would otherwise stay on a keep-alive socket that the server tears down shortly
 * after, taking with it whatever the client sent next on that socket (often the member's event
 * stream). With `Connection: close` no client reuses it, and the next request gets a fresh one.
 */
import type { Http2Bindings, HttpBindings } from '@hono/node-server';

type Bindings = HttpBindings | Http2Bindings;
type FetchHandler = (request: Request, env: Bindings) => Response | Promise<Response>;

const hasBody = (request: Request, env: Bindings) =>
  request.method !== 'GET' &&
  request.method !== 'HEAD' &&
  (Number(env.incoming.headers['content-length'] ?? 0) > 0 ||
    env.incoming.headers['transfer-encoding'] !== undefined);

export function closeWhenBodyUnread(handler: FetchHandler): FetchHandler {
  return (request, env) => {
    // A request without a body is answered as the handler answers it, with no wait in between.
    if (!hasBody(request, env)) return handler(request, env);
    return closeUnlessRead(handler, request, env);
  };
}

async function closeUnlessRead(handler: FetchHandler, request: Request, env: Bindings): Promise<Response> {
  const response = await handler(request, env);
  if (env.incoming.readableEnded) return response;
  const headers = new Headers(response.headers);
  headers.set('connection', 'close');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
