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

export interface Place {
  release(): void;
}

/**
 * One timer for many open streams: calls every task added every `everyMs`, runs only while it has
 * tasks. A timer per stream (with its closure) costs memory for each one held open; this costs it once.
 */
export class Ticker {
  readonly #tasks = new Set<() => void>();
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly everyMs: number,
    /** Whether the timer keeps the process running while it has tasks. */
    private readonly keepsAlive: boolean,
  ) {}

  /** Calls `task` every tick until the returned function is called. */
  add(task: () => void): () => void {
    this.#tasks.add(task);
    if (!this.#timer) {
      this.#timer = setInterval(() => {
        for (const each of this.#tasks) each();
      }, this.everyMs);
      if (!this.keepsAlive) this.#timer.unref?.();
    }
    return () => {
      this.#tasks.delete(task);
      if (this.#tasks.size === 0 && this.#timer) {
        clearInterval(this.#timer);
        this.#timer = undefined;
      }
    };
  }
}

/** Keeps a place held: renewed every third of its lease (on `renewals`), given back (retried while the store does not answer) on release. */
function held(
  renewals: Ticker,
  renew: () => Promise<unknown>,
  giveBack: () => Promise<unknown>,
  leaseMs: number,
): Place {
  const stopRenewing = renewals.add(() => void renew().catch(() => undefined));
  return {
    release(): void {
      stopRenewing();
      const until = Date.now() + leaseMs;
      const attempt = (): void => {
        // A store that does not answer is asked again until the lease would have lapsed anyway.
        void giveBack().catch(() => {
          if (Date.now() < until) setTimeout(attempt, RELEASE_RETRY_MS).unref?.();
        });
      };
      attempt();
    },
  };
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
    if (!(await core.store.setIfAbsent(key, streamId, leaseMs))) continue;
    return held(
      renewals,
      () => core.store.set(key, streamId, leaseMs),
      // Only if still this stream's: a lease that lapsed may be another's now.
      async () => ((await core.store.get(key)) === streamId ? core.store.delete(key) : undefined),
      leaseMs,
    );
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
  const { acquireLease, renewLease, releaseLease } = store;
  if (!acquireLease || !renewLease || !releaseLease) {
    return claimSlot(core, `address:${address}`, limit, streamId, leaseMs, renewals);
  }
  const key = `stream-address:${address}`;
  if (!(await acquireLease.call(store, key, streamId, limit, leaseMs))) return undefined;
  return held(
    renewals,
    () => renewLease.call(store, key, streamId, leaseMs),
    () => releaseLease.call(store, key, streamId),
    leaseMs,
  );
}
