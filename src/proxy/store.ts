import { ProblemError } from '../server/problems.js';
import { newGeneration } from './generation.js';

/** How long a browser is told to wait when the store does not answer. */
export const STORE_RETRY_AFTER_SECONDS = 2;

/**
 * The store did not answer (down, paused, or unreachable): every request that needs it is answered
 * 503 `store_unavailable` with `Retry-After`, which the elements' client retries. It carries what
 * failed in a word (`reason`), never a command or its arguments.
 */
export class StoreUnavailableError extends ProblemError {
  constructor(readonly reason: string) {
    super(503, 'store_unavailable', 'Service unavailable', 'Please try again in a moment.', undefined, {
      'retry-after': String(STORE_RETRY_AFTER_SECONDS),
    });
    this.name = 'StoreUnavailableError';
  }
}

/**
 * The proxy's shared state behind one small interface (docs/architecture.md 5): idempotency records,
 * conversation owners, webhook de-duplication, rate-limit counters and the event bus that fans
 * webhook events out to a member's open streams. `MemoryStore` serves one process; a Redis store
 * implementing the same contract (test/node/proxy-store.test.ts) serves several behind a load
 * balancer.
 */
export interface ProxyStore {
  /** The value under `key`, or undefined when absent or expired. */
  get(key: string): Promise<string | undefined>;
  /** The values under `keys`, in order (Redis `MGET`: one round trip). */
  getMany(keys: readonly string[]): Promise<(string | undefined)[]>;
  /** Stores `value` under `key` for `ttlMs`. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Stores `value` only if `key` is absent; true when this call stored it (Redis `SET NX PX`). */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Adds 1 to the counter under `key` (created with `ttlMs`) and returns the new count (Redis `INCR` + `PEXPIRE`). */
  increment(key: string, ttlMs: number): Promise<number>;
  /** Sends `message` to every subscriber of `channel`, in every process (Redis `PUBLISH`). */
  publish(channel: string, message: string): Promise<void>;
  /** Calls `listener` for each message on `channel` until the returned function is called. */
  subscribe(channel: string, listener: (message: string) => void): () => void;
  /**
   * Resolves once what any process publishes on `channel` reaches this process's listeners. A
   * store whose subscriptions take effect at once (like `MemoryStore`) need not implement it; Redis
   * confirms a SUBSCRIBE a round trip later, and an event published before then is not delivered.
   */
  subscribed?(channel: string): Promise<void>;
  /** Resolves when the store answers now, rejects with {@link StoreUnavailableError} when not (`/readyz`). */
  ping?(): Promise<void>;
  /**
   * The store's generation record (see generation.ts): created by the first call on a store that
   * has none, kept for as long as the data is, so it changes when the data is lost or replaced
   * (Redis restarted empty, another Redis) and tokens and event ids from before can be told apart.
   */
  generation?(): Promise<string>;
}

interface Entry {
  value: string;
  expiresAt: number;
}

export class MemoryStore implements ProxyStore {
  /** Its data lives and dies with the process, and so does its generation. */
  readonly #generation = newGeneration();
  readonly #entries = new Map<string, Entry>();
  readonly #channels = new Map<string, Set<(message: string) => void>>();
  readonly #now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  async get(key: string): Promise<string | undefined> {
    return this.#live(key)?.value;
  }

  async generation(): Promise<string> {
    return this.#generation;
  }

  async getMany(keys: readonly string[]): Promise<(string | undefined)[]> {
    return keys.map((key) => this.#live(key)?.value);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.#sweep();
    this.#entries.set(key, { value, expiresAt: this.#now() + ttlMs });
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    if (this.#live(key)) return false;
    await this.set(key, value, ttlMs);
    return true;
  }

  async delete(key: string): Promise<void> {
    this.#entries.delete(key);
  }

  async increment(key: string, ttlMs: number): Promise<number> {
    const entry = this.#live(key);
    const count = entry ? Number(entry.value) + 1 : 1;
    this.#entries.set(key, { value: String(count), expiresAt: entry?.expiresAt ?? this.#now() + ttlMs });
    return count;
  }

  async publish(channel: string, message: string): Promise<void> {
    for (const listener of [...(this.#channels.get(channel) ?? [])]) {
      try {
        listener(message);
      } catch (error) {
        console.error('consult-proxy: an event listener failed', (error as Error)?.name ?? 'Error');
      }
    }
  }

  subscribe(channel: string, listener: (message: string) => void): () => void {
    let listeners = this.#channels.get(channel);
    if (!listeners) this.#channels.set(channel, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      // Only this set: a stale unsubscribe must not drop a set created after it emptied.
      if (listeners.size === 0 && this.#channels.get(channel) === listeners) this.#channels.delete(channel);
    };
  }

  /** How many listeners `channel` has (for tests and health checks). */
  listenerCount(channel: string): number {
    return this.#channels.get(channel)?.size ?? 0;
  }

  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt <= this.#now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  #lastSweep = 0;

  /** Drops expired entries now and then, so a long-running proxy does not grow without bound. */
  #sweep(): void {
    const now = this.#now();
    if (now - this.#lastSweep < 60_000) return;
    this.#lastSweep = now;
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
  }
}
