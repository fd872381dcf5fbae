/**
 * Where a member's event streams may open: at most `streamsPerMember` per member and
 * `streamsPerAddress` per address, counted across every instance sharing the store. Each place is
 * a lease in the store, renewed while its stream is open and given back when it ends, so the
 * places of an instance that died free up by themselves. `Ticker` is the one timer that many open
 * streams share (their heartbeats, their leases' renewals).
 */
import type { ProxyCore } from './context.js';

/** The shortest lease of a stream slot: a slot held by an instance that died frees up after it. */
export const MIN_LEASE_MS = 30_000;

/** How soon a slot's release is tried again when the store did not answer. */
const RELEASE_RETRY_MS = 500;

const slotKey = (owner: string, index: number) => `stream-slot:${owner}:${index}`;

/** A held place: renewed on its ticker while its stream is open, given back on release. */
export interface Place {
  release(): void;
}

/** What a {@link Ticker} calls every tick. */
export interface Ticking {
  tick(): void;
}

/**
 * One timer for many open streams: calls `tick()` of everything added, every `everyMs`, and runs
 * only while it has something to call. A timer per stream (with its closure) costs memory for each
 * one held open; this costs it once.
 */
export class Ticker {
  readonly #items = new Set<Ticking>();
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly everyMs: number,
    /** Whether the timer keeps the process running while it has something to call. */
    private readonly keepsAlive: boolean,
  ) {}

  add(item: Ticking): void {
    this.#items.add(item);
    if (!this.#timer) {
      this.#timer = setInterval(() => {
        for (const each of this.#items) {
          try {
            each.tick();
          } catch {
            // One stream's failure (a store's own, say) does not keep the others' ticks from running.
          }
        }
      }, this.everyMs);
      if (!this.keepsAlive) this.#timer.unref?.();
    }
  }

  delete(item: Ticking): void {
    this.#items.delete(item);
    if (this.#items.size === 0 && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }
}

/**
 * A place held as a lease in the store: renewed every third of the lease (on `renewals`), given
 * back on release, tried again while the store does not answer. One object per place, with no
 * closures, since one is held for every open stream.
 */
class Lease implements Place, Ticking {
  readonly #core: ProxyCore;
  readonly #key: string;
  readonly #streamId: string;
  readonly #leaseMs: number;
  readonly #renewals: Ticker;
  /** Counted in one key with the address's other places (the store's lease commands), or a key of its own. */
  readonly #shared: boolean;

  constructor(
    core: ProxyCore,
    key: string,
    streamId: string,
    leaseMs: number,
    renewals: Ticker,
    shared: boolean,
  ) {
    this.#core = core;
    this.#key = key;
    this.#streamId = streamId;
    this.#leaseMs = leaseMs;
    this.#renewals = renewals;
    this.#shared = shared;
    renewals.add(this);
  }

  tick(): void {
    void this.#renew().catch(() => undefined);
  }

  // Async, so that a store that fails at once (a partner's own) fails as a rejection, as one that fails later does.
  async #renew(): Promise<unknown> {
    const { store } = this.#core;
    return this.#shared
      ? store.renewLease?.(this.#key, this.#streamId, this.#leaseMs)
      : store.set(this.#key, this.#streamId, this.#leaseMs);
  }

  release(): void {
    this.#renewals.delete(this);
    this.#giveBack(Date.now() + this.#leaseMs);
  }

  #giveBack(until: number): void {
    // A store that does not answer is asked again until the lease would have lapsed anyway.
    this.#return().catch(() => {
      if (Date.now() < until) setTimeout(() => this.#giveBack(until), RELEASE_RETRY_MS).unref?.();
    });
  }

  async #return(): Promise<unknown> {
    const { store } = this.#core;
    const key = this.#key;
    if (this.#shared) return store.releaseLease?.(key, this.#streamId);
    // Only if still this stream's: a lease that lapsed may be another's now.
    if ((await store.get(key)) === this.#streamId) return store.delete(key);
  }
}

/**
 * A free one of `limit` slots of `owner`, each a key leased in the store (so the cap holds across
 * instances) and renewed while the stream is open; undefined when all are taken.
 */
export async function claimSlot(
  core: ProxyCore,
  owner: string,
  limit: number,
  streamId: string,
  leaseMs: number,
  renewals: Ticker,
): Promise<Place | undefined> {
  for (let index = 0; index < limit; index++) {
    const key = slotKey(owner, index);
    if (await core.store.setIfAbsent(key, streamId, leaseMs))
      return new Lease(core, key, streamId, leaseMs, renewals, false);
  }
  return undefined;
}

/**
 * One of the address's `streamsPerAddress` places, counted across every instance sharing the store
 * in one atomic step (a burst of opens from one address cannot race past the cap), and leased like
 * a member's slots so the places of an instance that died free up; undefined when all are taken.
 */
export async function claimAddressPlace(
  core: ProxyCore,
  address: string,
  streamId: string,
  leaseMs: number,
  renewals: Ticker,
): Promise<Place | undefined> {
  const { store } = core;
  const limit = core.limits.streamsPerAddress;
  if (!store.acquireLease || !store.renewLease || !store.releaseLease) {
    return claimSlot(core, `address:${address}`, limit, streamId, leaseMs, renewals);
  }
  const key = `stream-address:${address}`;
  if (!(await store.acquireLease(key, streamId, limit, leaseMs))) return undefined;
  return new Lease(core, key, streamId, leaseMs, renewals, true);
}
