import type { Context, MiddlewareHandler, Next } from 'hono';
import { cors } from 'hono/cors';
import { header } from '../server/request-header.js';
import type { ProxyCore, ProxyEnv } from './context.js';
import { refusedOrigin } from './middleware.js';

/**
 * CORS for the portal's configured origins (`allowedOrigins`), with credentials for them only. A
 * refused preflight is logged with what allows its origin, at most once per origin in ten minutes.
 */
export function crossOrigin(core: ProxyCore): MiddlewareHandler<ProxyEnv> {
  const { options } = core;
  // Origins whose refused preflight was logged, and when: at most once per origin in ten minutes.
  const preflightsLogged = new Map<string, number>();
  const warnRefusedPreflight = (origin: string, path: string): void => {
    const now = Date.now();
    if (now - (preflightsLogged.get(origin) ?? -Infinity) < 600_000) return;
    // Bounded whatever the senders put in Origin.
    if (preflightsLogged.size >= 100) preflightsLogged.clear();
    preflightsLogged.set(origin, now);
    const { named, fix } = refusedOrigin(origin);
    core.log({
      level: 'warn',
      message: `refused a preflight from ${named}, so its browser refuses the call: ${fix}`,
      method: 'OPTIONS',
      path,
      code: 'origin_not_allowed',
    });
  };
  const corsHeaders = cors({
    origin: (origin) => ((options.allowedOrigins ?? []).includes(origin) ? origin : null),
    allowMethods: ['GET', 'POST', 'PUT', 'DELETE'],
    allowHeaders: ['authorization', 'content-type', 'idempotency-key'],
    // The browser's client honours Retry-After (S15); across origins it must be exposed to read it.
    exposeHeaders: ['retry-after'],
    maxAge: 600,
  });
  // Hono's cors answers every OPTIONS with 204; only a real preflight (Origin and
  // Access-Control-Request-Method) gets that, any other OPTIONS is an unknown route (S4).
  const withCors = async (c: Context<ProxyEnv>, next: Next, origin: string) => {
    if (c.req.method === 'OPTIONS' && !(origin && header(c, 'access-control-request-method'))) {
      return next();
    }
    const allowed = (options.allowedOrigins ?? []).includes(origin);
    // A preflight from an origin not allowed gets no CORS headers, so the browser shows only its
    // own CORS error: the log says which origin and what allows it, once per origin a while.
    if (!allowed && c.req.method === 'OPTIONS') warnRefusedPreflight(origin, c.req.path);
    const preflight = await corsHeaders(c, next);
    // A portal on another configured origin sends its own sign-in cookie to POST /session;
    // no other origin is told that credentials are welcome.
    if (allowed) {
      (preflight ?? c.res).headers.set('access-control-allow-credentials', 'true');
    }
    return preflight;
  };
  return (c, next) => {
    // CORS is about browsers' requests across origins, which carry Origin; a request without one
    // needs no CORS headers (and leaves the response as the route makes it, with no copy).
    const origin = header(c, 'origin');
    return origin === undefined ? next() : withCors(c, next, origin);
  };
}
