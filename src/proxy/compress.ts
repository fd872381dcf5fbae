/**
 * Gzip for the proxy's JSON answers, only where it pays. Most answers (a consultation, a member, a
 * problem) are a kilobyte or two: gzip would save about as many bytes as fit in one packet, while
 * doubling the proxy's CPU per read. Larger answers (a case history, a subscription history) are
 * compressed for browsers that accept gzip. The event stream never is: each event must reach the
 * page as it is written.
 */
import type { Context } from 'hono';
import { header } from '../server/request-header.js';
import { bodyTextOf } from './http.js';

/**
 * Answers shorter than this (in characters) go as they are. Below it an answer fits in the first
 * few packets of a connection's first flight either way, so gzip saves no round trip, only a few
 * milliseconds on the slowest links, for about as much CPU as the rest of the read.
 */
export const COMPRESS_THRESHOLD = 4096;

/** Whether `accepted` (an Accept-Encoding value) takes gzip: named, or `*`, with a q above 0. */
export function acceptsGzip(accepted: string | undefined): boolean {
  if (!accepted) return false;
  let wildcard = false;
  for (const part of accepted.split(',')) {
    const [name = '', ...params] = part.split(';');
    const coding = name.trim().toLowerCase();
    if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== '*') continue;
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
    const takes = q === undefined || Number(q) > 0;
    if (coding === '*') wildcard = takes;
    else return takes;
  }
  return wildcard;
}

/**
 * Compresses the answer `c` holds when the proxy made it as JSON (`json`, `problem`) and it has at
 * least `threshold` characters; leaves any other answer as it is. Runs once the route has answered.
 */
export function compressLargeJson(c: Context, threshold = COMPRESS_THRESHOLD): void {
  // Only answers made by `json`/`problem`, whose text is known: an event stream never is one.
  const text = bodyTextOf(c.res);
  if (typeof text !== 'string' || text.length < threshold) return;
  // Large answers vary with the encoding asked for, whichever it is this time.
  const { res } = c;
  const headers = new Headers(res.headers);
  headers.append('vary', 'accept-encoding');
  if (acceptsGzip(header(c, 'accept-encoding'))) {
    headers.set('content-encoding', 'gzip');
    headers.delete('content-length');
    const body = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
    c.res = undefined;
    c.res = new Response(body, { status: res.status, headers });
  } else {
    c.res = undefined;
    c.res = new Response(text, { status: res.status, headers });
  }
}
