/**
 * The session's sign-in (docs/security.md S8): one in flight at a time, shared by every element
 * and call that needs the member; a 401 ends the session instead of looping, and a sign-in that
 * failed or an ended session signs in again only through `retry()` or `configure()`. A sign-in
 * answers only the configuration it was asked under, and one the page's policy refused is not
 * asked again until the session is configured again.
 */
import { ApiError } from '../client/errors.js';
import type { SessionGrant } from '../client/browser-types.js';
import { BLOCKED_BY_POLICY } from './developer-hints.js';
import { hostSignInUnreachable, signInThroughOutage, throughOutage } from './sign-in-request.js';
import type { SessionOptions, SessionStatus } from './session.js';
import type { Grant } from './widget-grant.js';

export interface SignInHost {
  status(): SessionStatus;
  setStatus(status: SessionStatus, reason?: string): void;
  options(): SessionOptions;
  /** `{endpoint}/session`. */
  sessionUrl(): string;
  /** The host's fetch, or the global one. */
  fetchImpl(): typeof fetch;
  /** The proxy or the service did not answer. */
  unreachable(): void;
  /** A sign-in got through: the member and the grant are taken (answers the grant kept). */
  signedIn(grant: SessionGrant): Grant;
  /** A sign-in failed: no grant is held. */
  failed(): void;
}

export class SignInFlow {
  readonly #host: SignInHost;
  #signingIn: Promise<Grant> | undefined;
  /** Why the last sign-in failed, while the status is `error`. */
  #failure: unknown;
  /** Counts `configure()` calls and sign-outs: a sign-in answers only the configuration it was asked under. */
  #configuration = 0;
  /**
   * Set when the page's Content Security Policy refused the sign-in: not asked again, until
   * `configure()`. A refusal by the proxy's CORS is waited out like an outage instead: a load
   * balancer answering 502 without CORS headers during a deploy looks the same from the page.
   */
  #blockedByPolicy?: ApiError;

  constructor(host: SignInHost) {
    this.#host = host;
  }

  /** The session was configured again: a sign-in still on its way was asked of the old options. */
  reconfigured(): void {
    this.#blockedByPolicy = undefined;
    this.#configuration++;
    this.#signingIn = undefined;
  }

  /** The member signed out: a sign-in still waiting out an outage stops waiting. */
  stopWaiting(): void {
    this.#configuration++;
  }

  /** Signs in, or joins the sign-in in flight. */
  signIn(): Promise<Grant> {
    const host = this.#host;
    if (this.#signingIn) return this.#signingIn;
    // The page's policy refused the proxy: every element's next try would be refused the same way.
    if (this.#blockedByPolicy) {
      host.setStatus('error');
      return Promise.reject(this.#blockedByPolicy);
    }
    // A sign-in that failed is tried again from a "Try again" (`retry()`) or `configure()`, not by
    // every call or reconnecting stream meanwhile: each would make the elements' notices come and go.
    if (host.status() === 'error' && this.#failure !== undefined) return Promise.reject(this.#failure);
    if (host.status() === 'expired')
      return Promise.reject(
        new ApiError({
          kind: 'http',
          status: 401,
          code: 'session_expired',
          title: 'Session expired',
          operation: 'session',
        }),
      );
    host.setStatus('signing-in');
    // Settles in a later task in any case, so it is always cleared after it was set.
    const signingIn: Promise<Grant> = this.#attempt(this.#configuration).finally(() => {
      if (this.#signingIn === signingIn) this.#signingIn = undefined;
    });
    this.#signingIn = signingIn;
    return signingIn;
  }

  async #attempt(configuration: number): Promise<Grant> {
    const host = this.#host;
    this.#failure = undefined;
    const current = () => configuration === this.#configuration;
    const unreachable = () => host.unreachable();
    try {
      const options = host.options();
      const { signIn } = options;
      const grant = signIn
        ? // A host's own sign-in waits out an outage as the session's request does.
          await throughOutage(() => signIn(), { outage: hostSignInUnreachable, current, unreachable })
        : await signInThroughOutage({
            url: host.sessionUrl(),
            fetch: host.fetchImpl(),
            ownFetch: Boolean(options.fetch),
            body: options.signInBody ?? {},
            unreachable,
            current,
          });
      // Configured again meanwhile (another endpoint or sign-in): this grant is for the old one.
      if (configuration !== this.#configuration) return await this.signIn();
      return host.signedIn(grant);
    } catch (error) {
      if (configuration !== this.#configuration) throw error;
      if (error instanceof ApiError && error.code === BLOCKED_BY_POLICY) this.#blockedByPolicy = error;
      // A host's own tokenProvider may throw its own error with `status: 401`: that ends the session too.
      const unauthorized = (error as { status?: unknown } | null)?.status === 401;
      host.failed();
      if (!unauthorized) this.#failure = error;
      host.setStatus(unauthorized ? 'expired' : 'error', unauthorized ? 'refused' : undefined);
      throw error;
    }
  }
}
