/**
 * The session's widget token, kept in memory only (docs/security.md S8): the grant from the last
 * sign-in, each token handed to the client once (asking again, at expiry or after a 401, means a
 * fresh sign-in), and the proxy's refusals, so that a fresh token refused too ends the session
 * instead of looping.
 */
import { expiryTime } from '../client/auth.js';
import type { SessionGrant } from '../client/browser-types.js';

/** A grant, with its expiry in ms and whether it was fetched because the proxy refused the one before. */
export type Grant = SessionGrant & { expiresAtMs: number; afterRefusal: boolean };

export class WidgetGrant {
  #grant: Grant | undefined;
  /** A token the proxy refused; the next sign-in answers that refusal. */
  #refused: string | undefined;
  #handedOut: string | undefined;

  /** The grant held, expired or not. */
  get current(): Grant | undefined {
    return this.#grant;
  }

  /** The grant held, while it has not expired. */
  get unexpired(): Grant | undefined {
    return this.#grant && this.#grant.expiresAtMs > Date.now() ? this.#grant : undefined;
  }

  /** A sign-in's answer, dated, and marked when it answers a refusal; kept once `keep()` is called. */
  fromSignIn(grant: SessionGrant): Grant {
    const dated: Grant = {
      ...grant,
      expiresAtMs: expiryTime(grant.expiresAt),
      afterRefusal: this.#refused !== undefined,
    };
    this.#refused = undefined;
    return dated;
  }

  keep(grant: Grant): void {
    this.#grant = grant;
  }

  /** Drops the grant: the next call signs in again. */
  drop(): void {
    this.#grant = undefined;
  }

  /** Forgets everything of the token here (the client's cache is the caller's to clear). */
  forget(): void {
    this.#grant = undefined;
    this.#handedOut = undefined;
    this.#refused = undefined;
  }

  /** The client's token: the grant held, unless it was handed out already or expires within 30 s. */
  async handOut(signIn: () => Promise<Grant>): Promise<{ token: string; expiresAt: number }> {
    const current = this.#grant;
    const grant =
      current && current.token !== this.#handedOut && current.expiresAtMs - Date.now() > 30_000
        ? current
        : await signIn();
    this.#handedOut = grant.token;
    return { token: grant.token, expiresAt: grant.expiresAtMs };
  }

  /**
   * The proxy answered a call made with `sentToken`: answers true when the session must end, that
   * is, when the proxy refused the token right after a sign-in that answered an earlier refusal.
   */
  answered(sentToken: string | undefined, response: Response): boolean {
    const grant = this.#grant;
    if (!sentToken || !grant || sentToken !== grant.token) return false;
    if (response.status === 401) {
      if (grant.afterRefusal) return true;
      this.#refused = sentToken;
    } else if (response.ok) {
      grant.afterRefusal = false;
    }
    return false;
  }
}
