import { bodyLimit } from 'hono/body-limit';
import { ProblemError, problemResponse } from './problems.js';

/** Refuses bodies over `maxBytes` with a 413 problem, before any work is done. */
export const limitBody = (maxBytes: number) =>
  bodyLimit({
    maxSize: maxBytes,
    onError: (c) =>
      problemResponse(
        c,
        new ProblemError(
          413,
          'payload_too_large',
          'Payload too large',
          `Request bodies are limited to ${maxBytes} bytes.`,
        ),
      ),
  });
