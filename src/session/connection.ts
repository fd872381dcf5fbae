/**
 * Whether the service answers, for the member state: every request goes through `call`, which
 * says `reconnecting` when the service cannot be reached and `online` when a request gets through.
 * While it is lost, a cheap read checks again every 2 s, doubling up to 30 s, and writes wait
 * (`whenOnline`) to go out when it is back.
 */
import { ApiError } from '../client/errors.js';
import { BLOCKED_BY_POLICY } from './developer-hints.js';
import { aborted, type MemberClient, type Timer } from './state-basics.js';

/** Whether the service answers: `reconnecting` while it cannot be reached, until a request gets through. */
export type Connection = 'online' | 'reconnecting';

/** The service could not be reached (after the client's own retries), as opposed to answering no. */
export const unreachable = (error: unknown): boolean =>
  error instanceof ApiError &&
  error.code !== BLOCKED_BY_POLICY &&
  (error.kind !== 'http' || error.status === 502 || error.status === 503 || error.status === 504);

/** Waits between checks of a lost connection: 2 s, doubling up to 30 s. */
const PROBE = { firstMs: 2_000, maxMs: 30_000 };

/**
 * A request that found nothing to answer it says the connection is lost this long after, unless
 * another is answered meanwhile: a blip the client's own retry mends shows no notice, a real loss
 * shows it within 2 s rather than after all of the client's retries.
 */
export const FAILED_REQUEST_GRACE_MS = 1_000;
/** How long the check a failed live stream asks for has to be answered. */
export const STREAM_CHECK_GRACE_MS = 5_000;

export interface ConnectionOptions {
  client: () => MemberClient;
  /** The member's scope now. */
  scope: () => AbortSignal;
  timer: Timer;
  changed(): void;
  /** The member whose subscriptions the check reads; none: nothing is checked. */
  memberId(): string | undefined;
  /** Whether an element shows the member's data: checks go on only then, or while writes wait. */
  watched(): boolean;
  /** The connection is back: what could not be read is read now. */
  back(): void;
}

export class ConnectionState {
  readonly #options: ConnectionOptions;
  #status: Connection = 'online';
  /** Writes waiting for the connection to come back. */
  #waiting = new Set<() => void>();
  #probe?: { timer: unknown; delay: number };
  /** A request failed: the connection counts as lost when this goes off, unless one is answered first. */
  #failedRequest?: unknown;
  /** A check that the live stream's failure asked for is under way. */
  #checking = false;

  constructor(options: ConnectionOptions) {
    this.#options = options;
  }

  get status(): Connection {
    return this.#status;
  }

  /**
   * One request for the member, in their scope: once the member has changed it rejects with an
   * AbortError, whatever it answered. Whether it reached the service sets the connection.
   */
  async call<T>(run: (client: MemberClient, signal: AbortSignal) => Promise<T>): Promise<T> {
    const scope = this.#options.scope();
    try {
      const value = await run(this.#options.client(), scope);
      if (scope.aborted) throw aborted(scope);
      this.set('online');
      return value;
    } catch (error) {
      if (scope.aborted) throw aborted(scope);
      if (unreachable(error)) this.set('reconnecting');
      throw error;
    }
  }

  /** Settles when the connection is back; rejects when `signal` or the member's scope aborts. */
  whenOnline(signal?: AbortSignal): Promise<void> {
    if (this.#status === 'online') return Promise.resolve();
    const scope = this.#options.scope();
    return new Promise<void>((resolve, reject) => {
      const done = (): void => {
        this.#waiting.delete(done);
        signal?.removeEventListener('abort', stop);
        scope.removeEventListener('abort', stop);
        resolve();
      };
      const stop = (): void => {
        this.#waiting.delete(done);
        reject(signal?.aborted ? signal.reason : aborted(scope));
      };
      this.#waiting.add(done);
      signal?.addEventListener('abort', stop, { once: true });
      scope.addEventListener('abort', stop, { once: true });
    });
  }

  /**
   * A request to the proxy found nothing to answer it (no response, or a gateway's 502, 503 or
   * 504), while the client may still be trying it again: the connection is lost unless a request
   * is answered within `FAILED_REQUEST_GRACE_MS`. The live stream failing alone says less: a
   * gateway may refuse its one path while every other request is answered, so one cheap read
   * says at once which it is (the stream's own retries space these out), within
   * `STREAM_CHECK_GRACE_MS`, which a slow network's answer fits in.
   */
  requestFailed(what: 'request' | 'stream' = 'request'): void {
    if (this.#status !== 'online') return;
    if (what === 'stream') this.#check();
    if (this.#failedRequest !== undefined) return;
    this.#failedRequest = this.#options.timer.set(
      () => {
        this.#failedRequest = undefined;
        this.set('reconnecting');
      },
      what === 'stream' ? STREAM_CHECK_GRACE_MS : FAILED_REQUEST_GRACE_MS,
    );
  }

  /** One read of the member's, whose answer (or none) sets the connection; one at a time. */
  #check(): void {
    const memberId = this.#options.memberId();
    if (!memberId || this.#checking) return;
    this.#checking = true;
    void this.call((client, signal) => client.getUserSubscriptions(memberId, { signal }))
      .catch(() => undefined)
      .finally(() => (this.#checking = false));
  }

  /** A request to the proxy was answered: a failure just before was a blip. */
  requestAnswered(): void {
    this.#stopWaitingOnFailure();
  }

  /** The service answered, or could not be reached: back online, what waits goes out. */
  set(status: Connection): void {
    this.#stopWaitingOnFailure();
    if (this.#status === status) return;
    this.#status = status;
    this.#options.changed();
    if (status === 'reconnecting') {
      this.#scheduleProbe(PROBE.firstMs);
      return;
    }
    this.#stopProbe();
    for (const resume of [...this.#waiting]) resume();
    this.#options.back();
  }

  /** Checks the connection now (the browser says it is online again). */
  reconnect(): void {
    if (this.#status !== 'reconnecting' || !this.#options.memberId()) return;
    this.#stopProbe();
    this.#runProbe(PROBE.firstMs, true);
  }

  /** Another member: what they do starts online (the previous member's waiting writes reject with their scope). */
  reset(): void {
    this.#stopProbe();
    this.#stopWaitingOnFailure();
    this.#status = 'online';
  }

  /** Stops checking for good (the session is gone). */
  stop(): void {
    this.#stopProbe();
    this.#stopWaitingOnFailure();
  }

  #stopWaitingOnFailure(): void {
    if (this.#failedRequest === undefined) return;
    this.#options.timer.clear(this.#failedRequest);
    this.#failedRequest = undefined;
  }

  #scheduleProbe(delay: number): void {
    if (this.#probe) return;
    this.#probe = { timer: this.#options.timer.set(() => this.#runProbe(delay), delay), delay };
  }

  /** One cheap read to learn whether the service answers again; the next check waits twice as long. */
  #runProbe(delay: number, asked = false): void {
    this.#probe = undefined;
    const memberId = this.#options.memberId();
    if (!memberId || this.#status === 'online') return;
    // Nobody shows anything and nothing waits to be sent: the next request (or the browser) will tell.
    if (!asked && !this.#options.watched() && this.#waiting.size === 0) return;
    const scope = this.#options.scope();
    void this.call((client, signal) => client.getUserSubscriptions(memberId, { signal }))
      .catch(() => undefined)
      .then(() => {
        if (this.#status === 'reconnecting' && !scope.aborted)
          this.#scheduleProbe(Math.min(PROBE.maxMs, delay * 2));
      });
  }

  #stopProbe(): void {
    if (!this.#probe) return;
    this.#options.timer.clear(this.#probe.timer);
    this.#probe = undefined;
  }
}
