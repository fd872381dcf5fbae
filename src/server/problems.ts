import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { FieldError, Problem } from '../client/types.js';

/** What a problem says besides its status: its code (what clients act on), title and detail. */
export interface ProblemOptions {
  /** The machine-readable reason, e.g. `rate_limited`; clients act on it, never on the words. */
  code: string;
  /** A short summary that is the same for every problem of this kind. */
  title: string;
  /** This occurrence in a sentence; left out of the body when empty. */
  detail?: string;
  /** The fields that were not valid, for a refused request body. */
  errors?: FieldError[];
  /** Headers the answer carries besides the content type (`retry-after`, `www-authenticate`). */
  headers?: Record<string, string>;
}

/** The options of a named problem, whose status and title are known (a title may still be given). */
type NamedProblem = Omit<ProblemOptions, 'title'> & { title?: string };

/** The options of a problem that asks the client to come back after `retryAfter` seconds. */
type RetryLater = Partial<NamedProblem>;

/**
 * An error that becomes an `application/problem+json` response (docs/architecture.md 3). Built
 * like Hono's `HTTPException`, from a status and options, or by one of the named problems below.
 */
export class ProblemError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: string;
  readonly title: string;
  readonly detail?: string;
  readonly errors?: FieldError[];
  readonly headers: Record<string, string>;

  constructor(status: ContentfulStatusCode, options: ProblemOptions) {
    const { code, title, detail, errors, headers = {} } = options;
    super(detail ? `${title}: ${detail}` : title);
    this.name = 'ProblemError';
    this.status = status;
    this.code = code;
    this.title = title;
    this.detail = detail;
    this.errors = errors;
    this.headers = headers;
  }

  /** 400: the request is not one this server takes (`invalid_request` unless said). */
  static badRequest(options: Omit<NamedProblem, 'code'> & { code?: string }): ProblemError {
    return new ProblemError(400, { code: 'invalid_request', title: 'Invalid request', ...options });
  }

  /** 400 `invalid_request` for the fields that were not valid, each named in the detail. */
  static invalid(errors: FieldError[]): ProblemError {
    return ProblemError.badRequest({
      detail: errors.map((e) => `${e.field || 'body'}: ${e.message}`).join('; '),
      errors,
    });
  }

  /** 401: the caller is not (or no longer) known. */
  static unauthorized(options: NamedProblem): ProblemError {
    return new ProblemError(401, { title: 'Unauthorized', ...options });
  }

  /** 403: the caller is known, and may not do this. */
  static forbidden(options: NamedProblem): ProblemError {
    return new ProblemError(403, { title: 'Forbidden', ...options });
  }

  /** 404 `not_found`, saying what was not found. */
  static notFound(detail: string): ProblemError {
    return new ProblemError(404, { code: 'not_found', title: 'Not found', detail });
  }

  /** 409: the request does not fit the state of what it acts on. */
  static conflict(options: NamedProblem): ProblemError {
    return new ProblemError(409, { title: 'Conflict', ...options });
  }

  /** 422 `idempotency_key_reused`: the key came before with a different request. */
  static idempotencyKeyReused(): ProblemError {
    return new ProblemError(422, {
      code: 'idempotency_key_reused',
      title: 'Idempotency key reused',
      detail: 'This Idempotency-Key was used with a different request.',
    });
  }

  /** 429 (`rate_limited` unless said), with `Retry-After: retryAfter` seconds. */
  static tooManyRequests(retryAfter: number, options: RetryLater = {}): ProblemError {
    return new ProblemError(429, {
      code: 'rate_limited',
      title: 'Too many requests',
      detail: 'Please wait a moment and try again.',
      ...options,
      headers: { 'retry-after': String(retryAfter), ...options.headers },
    });
  }

  /** 500 `internal_error`: a failure of this server's own. */
  static internal(detail: string): ProblemError {
    return new ProblemError(500, { code: 'internal_error', title: 'Internal error', detail });
  }

  /** 502: a service this server depends on failed. */
  static badGateway(options: NamedProblem): ProblemError {
    return new ProblemError(502, { title: 'Service unavailable', ...options });
  }

  /** 503: this server cannot serve now, with `Retry-After` when `retryAfter` seconds are given. */
  static unavailable(options: NamedProblem & { retryAfter?: number }): ProblemError {
    const { retryAfter, headers, ...rest } = options;
    const retry: Record<string, string> =
      retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) };
    return new ProblemError(503, {
      title: 'Service unavailable',
      ...rest,
      headers: { ...retry, ...headers },
    });
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

/** 404 `not_found` for an id the server does not hold: `No user with id "…".` */
export const unknownId = (what: string, id: string): ProblemError =>
  ProblemError.notFound(`No ${what} with id "${id}".`);
