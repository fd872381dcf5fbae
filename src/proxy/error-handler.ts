import type { ProxyCore } from './context.js';
import { problem } from './http.js';
import { ProblemError } from '../server/problems.js';
import { StoreUnavailableError } from './store.js';

/** An error from reading a request body the client aborted or framed wrongly. */
function isBodyAborted(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || error.message === 'aborted';
}

/**
 * The proxy's answer to an error thrown anywhere in it: its own problem as it is, a store outage
 * logged and answered 503, a body the client broke as its mistake, anything else a logged 500.
 */
export const answerError =
  (core: ProxyCore) =>
  (error: Error): Response => {
    if (error instanceof StoreUnavailableError) {
      // One JSON line, the kind of failure only: no command, no key, no member.
      core.log({ level: 'error', message: 'store unavailable', code: error.reason });
      return problem(error);
    }
    if (error instanceof ProblemError) return problem(error);
    // The client went away or broke its own body (a cut-off upload, bad chunked framing): its
    // mistake, answered as such, and not an error of ours to page anyone about.
    if (isBodyAborted(error)) {
      return problem(
        ProblemError.badRequest({ code: 'invalid_body', detail: 'The request body could not be read.' }),
      );
    }
    core.log({ level: 'error', message: 'unexpected error', code: error.name });
    return problem(ProblemError.internal('Something went wrong.'));
  };
