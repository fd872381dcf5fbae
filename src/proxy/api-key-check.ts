import { ApiError } from '../client/errors.js';
import type { ProxyCore } from './context.js';
import { safeCode } from './errors.js';

/** The service refused the proxy's API key at start: its message names the setting to fix. */
export class ApiKeyRefusedError extends Error {
  override readonly name = 'ApiKeyRefusedError';
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(
      `the service refused the API key (${status} ${code}): check CONSULT_API_KEY (the apiKey option) ` +
        'and, if you use one, CONSULT_SUB_PARTNER',
    );
  }
}

/**
 * Exchanges the API key for a token once at start, so that a wrong key is said at once and names
 * its setting. A service that cannot be reached is tried again until it answers or the proxy closes.
 */
export async function checkApiKey(core: ProxyCore, closed: AbortSignal): Promise<void> {
  const { upstreamUrl } = core.options;
  for (let attempt = 0; !closed.aborted; attempt++) {
    try {
      // The token it gets is the one the first member's call then uses.
      await core.upstream.authorize();
      if (attempt > 0) core.log({ level: 'info', message: 'the service answered and accepted the API key' });
      return;
    } catch (error) {
      if (
        error instanceof ApiError &&
        error.kind === 'http' &&
        (error.status === 401 || error.status === 403)
      ) {
        const refused = new ApiKeyRefusedError(error.status, safeCode(error));
        core.log({ level: 'error', message: refused.message, status: error.status, code: refused.code });
        throw refused;
      }
      if (attempt === 0) {
        const code = error instanceof ApiError ? safeCode(error) : (error as Error).name;
        const seconds = core.limits.apiKeyCheckRetryMs / 1000;
        core.log({
          level: 'warn',
          message: `the service at ${new URL(upstreamUrl).origin} could not check the API key; trying again every ${seconds} s`,
          ...(error instanceof ApiError && error.status ? { status: error.status } : {}),
          code,
        });
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, core.limits.apiKeyCheckRetryMs);
        timer.unref?.();
        closed.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}
