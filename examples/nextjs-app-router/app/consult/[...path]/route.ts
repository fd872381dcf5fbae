/**
 * The proxy, in this app: every request under /consult goes to consult-elements' proxy, a Hono
 * app. It keeps your API key on the server, mints the elements' short-lived tokens for the member
 * your portal signed in, and streams their live events. Set in the environment (or .env.local):
 *
 *   CONSULT_UPSTREAM_URL     the service, or the sandbox (`npx consult-sandbox`)     required
 *   CONSULT_API_KEY          your API key (the sandbox's is sandbox-api-key)         required
 *   CONSULT_SESSION_SECRET   32 or more random characters: signs the widget tokens   required
 *   PORTAL_COOKIE_SECRET     the secret your portal signs its sign-in cookie with    required
 *   CONSULT_PUBLIC_URL       this app's public URL with /consult: the service then pushes each answer
 *                            by webhook; without it the page asks every few seconds instead
 */
import { createProxy } from 'consult-elements/proxy';
import { Hono } from 'hono';
import { env, memberFromCookie } from '../../portal-session';

let app: Hono | undefined;

/** Made at the first request, not when `next build` loads this module: the build needs no secrets. */
function consult(): Hono {
  if (app) return app;
  const proxy = createProxy({
    upstreamUrl: env('CONSULT_UPSTREAM_URL'),
    apiKey: env('CONSULT_API_KEY'),
    sessionSecret: env('CONSULT_SESSION_SECRET'),
    ...(process.env.CONSULT_PUBLIC_URL ? { publicUrl: process.env.CONSULT_PUBLIC_URL } : {}),
    authenticate: memberFromCookie,
    // A route handler is not told the client's address; behind your load balancer, read the
    // header it sets (for example `clientAddress: (c) => c.req.header('x-real-ip')`) to turn on the
    // per-address limits.
  });
  proxy.apiKeyChecked.catch((error: Error) => console.error(`consult-elements: ${error.message}`));
  app = new Hono().route('/consult', proxy);
  return app;
}

/**
 * Next.js compresses responses itself, so the proxy is asked for them uncompressed: compressed
 * twice, a browser could not read them.
 */
function handle(request: Request): Response | Promise<Response> {
  const headers = new Headers(request.headers);
  headers.delete('accept-encoding');
  return consult().fetch(new Request(request, { headers }));
}

export { handle as DELETE, handle as GET, handle as OPTIONS, handle as POST, handle as PUT };
