import type { FieldError } from './types.js';

/** What went wrong: the server answered with an error status, the request never got an answer, or it took too long. */
export type ApiErrorKind = 'http' | 'network' | 'timeout';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  /** HTTP status; 0 when there was no response. */
  status: number;
  code: string;
  title: string;
  detail?: string;
  errors?: FieldError[];
  retryAfterMs?: number;
  /** Client method name, for example `getUser`. */
  operation: string;
  cause?: unknown;
}

/**
 * The one error type of the client. It never carries a token, the API key or the request headers: a server that
 * echoes one back gets it replaced by `[redacted]` (see {@link httpError}).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly status: number;
  /** Machine-readable code from the problem body, else `http_<status>`, `network_error` or `timeout`. */
  readonly code: string;
  readonly title: string;
  /** Longer explanation; `''` when the server gave none. */
  readonly detail: string;
  /** The bad fields of a rejected request; `[]` when none were named. */
  readonly errors: FieldError[];
  /** How long the server asked us to wait (`Retry-After`), when it did. */
  readonly retryAfterMs?: number;
  readonly operation: string;

  constructor(init: ApiErrorInit) {
    const detail = init.detail ?? '';
    super(
      detail ? `${init.title}: ${detail}` : init.title,
      init.cause === undefined ? {} : { cause: init.cause },
    );
    this.kind = init.kind;
    this.status = init.status;
    this.code = init.code;
    this.title = init.title;
    this.detail = detail;
    this.errors = init.errors ?? [];
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    this.operation = init.operation;
  }
}

const STATUS_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Content Too Large',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export interface HttpErrorInput {
  operation: string;
  status: number;
  statusText: string;
  /** The raw response body; anything, problem+json or not. */
  body: string;
  retryAfterMs?: number;
  /** Values that must not appear in the error even if the server echoes them (API key, tokens). */
  secrets?: readonly string[];
}

/** Maps an error response to an ApiError. Never throws: a body that is not problem+json gives `http_<status>`. */
export function httpError(input: HttpErrorInput): ApiError {
  const { status } = input;
  const problem = parseObject(input.body);
  const redact = redactor(input.secrets ?? []);
  const text = (value: unknown): string | undefined =>
    typeof value === 'string' && value !== '' ? redact(value) : undefined;
  // The body is deliberately left out of a non-JSON error: a gateway's HTML page helps no one and may leak internals.
  return new ApiError({
    kind: 'http',
    status,
    code: text(problem?.code) ?? `http_${status}`,
    title: text(problem?.title) ?? (input.statusText || STATUS_TITLES[status] || `HTTP ${status}`),
    detail: text(problem?.detail) ?? '',
    errors: fieldErrors(problem?.errors).map((e) => ({ field: redact(e.field), message: redact(e.message) })),
    ...(input.retryAfterMs === undefined ? {} : { retryAfterMs: input.retryAfterMs }),
    operation: input.operation,
  });
}

function parseObject(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function fieldErrors(value: unknown): FieldError[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (e): e is FieldError =>
      typeof e === 'object' &&
      e !== null &&
      typeof (e as FieldError).field === 'string' &&
      typeof (e as FieldError).message === 'string',
  );
}

function redactor(secrets: readonly string[]): (text: string) => string {
  // A value this short is no credential, and replacing it would garble ordinary words.
  const present = secrets.filter((s) => s.length >= 8);
  return (text) => present.reduce((out, secret) => out.split(secret).join('[redacted]'), text);
}
