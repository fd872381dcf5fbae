import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ProblemError, problemResponse } from './problems.js';
import { declaresBody } from './request-header.js';

/** Refuses bodies over `maxBytes` with a 413 problem, before any work is done. */
export const limitBody = (maxBytes: number): MiddlewareHandler => {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: (c) =>
      problemResponse(
        c,
        new ProblemError(413, {
          code: 'payload_too_large',
          title: 'Payload too large',
          detail: `Request bodies are limited to ${maxBytes} bytes.`,
        }),
      ),
  });
  return async (c, next) => {
    // A request that declares no body has none, and looking for one would cost a copy of the request.
    if (!declaresBody(c)) return next();
    return limit(c, next);
  };
};
