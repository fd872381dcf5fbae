/**
 * A request header, read in the way that costs least. On Node (`@hono/node-server`, which passes
 * the request as `c.env.incoming`) it comes from the headers Node has already parsed: building the
 * request's fetch `Headers` instead (every name and value checked again) is one of the larger costs
 * of a member's read through the proxy. Elsewhere it comes from the request's `Headers`.
 */
import type { Context } from 'hono';

type NodeHeaders = Record<string, string | string[] | undefined>;

/**
 * A request header. On Node (`@hono/node-server`, which passes the request as `c.env.incoming`)
 * it is read from the headers Node has already parsed; elsewhere from the request's `Headers`.
 * Node keeps the first of repeated headers that may appear once (authorization, content-type) and
 * joins the others with ", ", as `Headers` does. `name` is in lower case.
 */
export function header(c: Context, name: string): string | undefined {
  const incoming = (c.env as { incoming?: { headers?: NodeHeaders } } | undefined)?.incoming;
  const headers = incoming?.headers;
  if (headers && typeof headers === 'object') {
    const value = headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }
  return c.req.header(name);
}

/** Whether the request says it carries a body: a length above 0, or a chunked one. */
export const declaresBody = (c: Context): boolean =>
  header(c, 'transfer-encoding') !== undefined || Number(header(c, 'content-length') ?? 0) > 0;
