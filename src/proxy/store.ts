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
    super(503, {
      code: 'store_unavailable',
      title: 'Service unavailable',
      detail: 'Please try again in a moment.',
      headers: { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) },
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
  /**
   * Leases one of at most `limit` places under `key` to `holder` for `ttlMs`, in one atomic step
   * (however many instances ask at once, no more than `limit` hold a place); true when it got one
   * (or already held one). A place lapses `ttlMs` after it was leased or last renewed, so the
   * places of an instance that died free up by themselves. A store without it gets the event
   * streams' per-address cap from `setIfAbsent`, one key per place.
   */
  acquireLease?(key: string, holder: string, limit: number, ttlMs: number): Promise<boolean>;
  /** Extends `holder`'s place under `key` by `ttlMs` from now (leasing it again if it lapsed). */
  renewLease?(key: string, holder: string, ttlMs: number): Promise<void>;
  /** Gives `holder`'s place under `key` back. */
  releaseLease?(key: string, holder: string): Promise<void>;
  /**
   * Calls `listener` each time this process's subscriptions are back after its connection to the
   * store was lost (a restart, a failover): what was published meanwhile did not reach it, and
   * open streams catch up from the event log. A store that never loses messages need not have it.
   */
  resubscribed?(listener: () => void): () => void;
  /** Resolves when the store answers now, rejects with {@link StoreUnavailableError} when not (`/readyz`). */
  ping?(): Promise<void>;
  /**
   * The store's generation record (see generation.ts): created by the first call on a store that
   * has none, kept for as long as the data is, so it changes when the data is lost or replaced
   * (Redis restarted empty, another Redis) and tokens and event ids from before can be told apart.
   */
  generation?(): Promise<string>;
  /**
   * `getMany(keys)` and `generation()` together, in one round trip (Redis: one `MGET`; the record
   * is made only when it is missing; in memory, one call). Every member request asks both; a store
   * without it is asked them side by side.
   */
  getManyAndGeneration?(keys: readonly string[]): Promise<[(string | undefined)[], string]>;
}

interface Entry {
  value: string;
  expiresAt: number;
}

export class MemoryStore implements ProxyStore {
  /** Its data lives and dies with the process, and so does its generation. */
  readonly #generation = newGeneration();
  readonly #entries = new Map<string, Entry>();
  /** Per lease key, each holder and when its place lapses. */
  readonly #leases = new Map<string, Map<string, number>>();
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
    return this.#values(keys);
  }

  async getManyAndGeneration(keys: readonly string[]): Promise<[(string | undefined)[], string]> {
    // Through the methods a subclass may override, so the session check reads what events read.
    return [await this.getMany(keys), await this.generation()];
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
    if (!entry) {
      this.#entries.set(key, { value: '1', expiresAt: this.#now() + ttlMs });
      return 1;
    }
    const count = Number(entry.value) + 1;
    entry.value = String(count);
    return count;
  }

  async acquireLease(key: string, holder: string, limit: number, ttlMs: number): Promise<boolean> {
    const now = this.#now();
    let holders = this.#leases.get(key);
    if (!holders) this.#leases.set(key, (holders = new Map()));
    for (const [other, until] of holders) if (until <= now) holders.delete(other);
    if (!holders.has(holder) && holders.size >= limit) return false;
    holders.set(holder, now + ttlMs);
    return true;
  }

  async renewLease(key: string, holder: string, ttlMs: number): Promise<void> {
    let holders = this.#leases.get(key);
    if (!holders) this.#leases.set(key, (holders = new Map()));
    holders.set(holder, this.#now() + ttlMs);
  }

  async releaseLease(key: string, holder: string): Promise<void> {
    const holders = this.#leases.get(key);
    holders?.delete(holder);
    if (holders?.size === 0) this.#leases.delete(key);
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

  /** The live values under `keys`, with the clock read once. */
  #values(keys: readonly string[]): (string | undefined)[] {
    const now = this.#now();
    return keys.map((key) => this.#live(key, now)?.value);
  }

  #live(key: string, now = this.#now()): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt <= now) {
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
