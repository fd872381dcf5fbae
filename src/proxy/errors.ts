import { ApiError } from '../client/errors.js';
import { ProblemError } from '../server/problems.js';
import type { ProxyLogEntry } from './options.js';

/**
 * Upstream failures as the browser sees them: our own words and codes, never the upstream's
 * internals (docs/security.md S17). Codes the elements act on (the question cap, a closed case, no
 * subscription) pass through.
 */
const PASS_THROUGH = {
  question_limit_reached: {
    status: 409,
    title: 'Question limit reached',
    detail: 'A consultation holds at most 3 questions.',
  },
  consultation_closed: {
    status: 409,
    title: 'Consultation closed',
    detail: 'This consultation has ended and takes no more questions.',
  },
  subscription_required: {
    status: 403,
    title: 'No active subscription',
    detail: 'An active subscription is needed to ask a doctor.',
  },
  user_inactive: { status: 403, title: 'Account inactive', detail: 'This account is not active.' },
} satisfies Record<string, { status: 403 | 409; title: string; detail: string }>;

/** One of the refusals the elements act on, in the proxy's own words (the same as when the upstream refuses). */
export function refusal(code: keyof typeof PASS_THROUGH): ProblemError {
  const { status, title, detail } = PASS_THROUGH[code];
  return new ProblemError(status, { code, title, detail });
}

/**
 * The browser's answer for an upstream failure (see `translate`). When it is a failure of the
 * service (a 5xx answer to the browser), the log gets one line with what the service said: its
 * status and code, never a body.
 */
export function fromUpstream(error: unknown, log?: (entry: ProxyLogEntry) => void): ProblemError {
  const answer = translate(error);
  if (log && answer.status >= 500 && !(error instanceof ProblemError)) {
    const upstream = error instanceof ApiError ? error : undefined;
    const code = upstream ? safeCode(upstream) : 'error';
    const hint =
      upstream?.status === 401 || upstream?.status === 403
        ? ': the service refused the proxy’s credentials; check CONSULT_API_KEY (the apiKey option)'
        : '';
    log({
      level: 'error',
      message: `the service failed (${upstream ? `${upstream.status || upstream.kind} ${code}` : (error as Error)?.name}), answered ${answer.status} ${answer.code}${hint}`,
      ...(upstream?.status ? { status: upstream.status } : {}),
      code,
    });
  }
  return answer;
}

/** The service's error code as a log may show it: a plain word, else its status. */
export function safeCode(error: ApiError): string {
  return /^[\w.-]{1,64}$/.test(error.code) ? error.code : `http_${error.status}`;
}

function translate(error: unknown): ProblemError {
  if (error instanceof ProblemError) return error;
  if (!(error instanceof ApiError)) return upstreamFailed();
  if (error.kind === 'timeout') {
    return new ProblemError(504, {
      code: 'upstream_timeout',
      title: 'Service timed out',
      detail: 'The consultation service did not answer in time.',
    });
  }
  if (error.kind === 'network') {
    return ProblemError.badGateway({
      code: 'upstream_unavailable',
      detail: 'The consultation service could not be reached.',
    });
  }
  const known = (PASS_THROUGH as Record<string, (typeof PASS_THROUGH)[keyof typeof PASS_THROUGH]>)[
    error.code
  ];
  if (known)
    return new ProblemError(known.status, { code: error.code, title: known.title, detail: known.detail });
  switch (error.status) {
    case 400:
      return ProblemError.badRequest({
        detail: 'The consultation service refused the request.',
        // Field names only, in our words: the upstream's messages may echo what was sent.
        errors: error.errors.map((e) => ({ field: e.field, message: 'is not valid' })),
      });
    case 404:
      return notYours();
    case 422:
      return ProblemError.idempotencyKeyReused();
    case 429: {
      const seconds = Math.max(1, Math.ceil((error.retryAfterMs ?? 1000) / 1000));
      return ProblemError.tooManyRequests(seconds);
    }
    default:
      // 401 after one refresh and one retry, redirects, 5xx: the proxy's own dependency failed.
      return upstreamFailed();
  }
}

const upstreamFailed = (): ProblemError =>
  ProblemError.badGateway({ code: 'upstream_failed', detail: 'The consultation service failed.' });

/** The one answer for an unknown id and for another member's record: nothing of it leaks. */
export const notYours = (): ProblemError => ProblemError.notFound('No such record.');
