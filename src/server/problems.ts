import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { FieldError, Problem } from '../client/types.js';

/** An error that becomes an `application/problem+json` response (docs/architecture.md 3). */
export class ProblemError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    readonly title: string,
    readonly detail?: string,
    readonly errors?: FieldError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail ? `${title}: ${detail}` : title);
    this.name = 'ProblemError';
  }

  toProblem(): Problem {
    return {
      type: 'about:blank',
      title: this.title,
      status: this.status,
      ...(this.detail ? { detail: this.detail } : {}),
      code: this.code,
      ...(this.errors ? { errors: this.errors } : {}),
    };
  }
}

export function problemResponse(c: Context, error: ProblemError): Response {
  return c.body(JSON.stringify(error.toProblem()), error.status, {
    'content-type': 'application/problem+json',
    ...error.headers,
  });
}

export const notFound = (what: string, id: string): ProblemError =>
  new ProblemError(404, 'not_found', 'Not found', `No ${what} with id "${id}".`);

export const invalid = (errors: FieldError[]): ProblemError =>
  new ProblemError(
    400,
    'invalid_request',
    'Invalid request',
    errors.map((e) => `${e.field || 'body'}: ${e.message}`).join('; '),
    errors,
  );
