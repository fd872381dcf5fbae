/**
 * The store's generation: which copy of the shared state this is. A Redis restarted empty (or
 * replaced by another) starts a new one, and with it the proxy refuses every widget token issued
 * before (a session ended before the loss must not come back with the data that ended it), and
 * numbers events afresh under the new generation's name, so an event id is never used twice and a
 * `Last-Event-ID` from before is answered with a `reset`.
 */
import type { ProxyCore } from './context.js';

export interface Generation {
  /** A short random name, part of every event id (`<id>.<n>`). */
  id: string;
  /** When it began (ms): tokens issued before are refused. */
  startedAt: number;
}

/** For a store that keeps no generation: one that never changes. */
const TIMELESS: Generation = { id: '0', startedAt: 0 };

/** A fresh generation record, `<id>:<startedAt>`, for a store that has none. */
export function newGeneration(now = Date.now()): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  const id = [...bytes].map((b) => b.toString(36).padStart(2, '0')).join('');
  return `${id}:${now}`;
}

/** The last record read, and what it says: every request reads the same one until the data is lost. */
let last: [string, Generation] = ['', TIMELESS];

export function parseGeneration(record: string): Generation {
  if (last[0] !== record) {
    const [id = '', started = ''] = record.split(':');
    const startedAt = Number(started);
    last = [record, /^[a-z0-9]{1,32}$/.test(id) && Number.isFinite(startedAt) ? { id, startedAt } : TIMELESS];
  }
  return last[1];
}

/** The store's generation now (read each time: the store may have been emptied a moment ago). */
export async function currentGeneration(core: ProxyCore): Promise<Generation> {
  const record = await core.store.generation?.();
  return record === undefined ? TIMELESS : parseGeneration(record);
}

/** The values under `keys` and the store's generation now, in one round trip where the store can. */
export async function readWithGeneration(
  core: ProxyCore,
  keys: readonly string[],
): Promise<[(string | undefined)[], Generation]> {
  const { store } = core;
  if (store.getManyAndGeneration) {
    const [values, record] = await store.getManyAndGeneration(keys);
    return [values, parseGeneration(record)];
  }
  return Promise.all([store.getMany(keys), currentGeneration(core)]);
}
