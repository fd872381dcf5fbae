/**
 * The member's live events, numbered and kept for a while in the store, so a stream that comes
 * back (after a network drop, a proxy restart or a deploy, on any instance sharing the store)
 * replays what the member missed, in order, from its `Last-Event-ID`.
 */
import type { ProxyCore } from './context.js';
import { currentGeneration } from './generation.js';

/** How long an event can be replayed: long enough for any reconnect, a deploy included. */
export const REPLAY_MS = 15 * 60_000;
/** The counter outlives the events it numbered by far, so ids never repeat in a replay window. */
const SEQUENCE_TTL_MS = 7 * 24 * 60 * 60_000;

/** Longer than recording one event takes, between numbering it and writing it. */
const IN_FLIGHT_MS = 100;

export const eventsChannel = (userId: string) => `events:${userId}`;
const sequenceKey = (userId: string) => `event-seq:${userId}`;
const eventKey = (userId: string, id: number) => `event:${userId}:${id}`;

/**
 * One event as it travels between instances: its number, the store generation it was numbered in,
 * and its data. Browsers see its id as `<generation>.<number>` (see {@link eventId}): numbers start
 * again when the store's data is lost, the generation never repeats, so no id is used twice.
 */
export interface LoggedEvent {
  id: number;
  generation: string;
  data: string;
}

/** The id a browser sees, and sends back as `Last-Event-ID`. */
export const eventId = (event: { id: number; generation: string }) => `${event.generation}.${event.id}`;

/**
 * Where a `Last-Event-ID` left off: a number of the generation it names, or 0 for a bare `0` (from
 * the first event kept). Anything else (another generation's, not ours) is undefined: a reset.
 */
export function parseEventId(value: string, generation: string): number | undefined {
  if (value === '0') return 0;
  const match = /^([a-z0-9]{1,32})\.(\d{1,15})$/.exec(value);
  return match && match[1] === generation ? Number(match[2]) : undefined;
}

/** Numbers `data`, keeps it for replay, and sends it to the member's open streams everywhere. */
export async function recordEvent(core: ProxyCore, userId: string, data: string): Promise<string> {
  const { id: generation } = await currentGeneration(core);
  const id = await core.store.increment(sequenceKey(userId), SEQUENCE_TTL_MS);
  await core.store.set(eventKey(userId, id), data, REPLAY_MS);
  const event: LoggedEvent = { id, generation, data };
  await core.store.publish(eventsChannel(userId), JSON.stringify(event));
  return eventId(event);
}

/** The number of the member's newest event in this generation, 0 before the first. */
export async function latestEventId(core: ProxyCore, userId: string): Promise<number> {
  return Number((await core.store.get(sequenceKey(userId))) ?? 0);
}

/**
 * Counts the member's event numbers on past `seen`, the highest a stream has been sent, when the
 * store's count is behind it: a failover to a replica that had not yet received the newest
 * increments. The next event then gets a number no stream has seen, never one used before.
 * Resolves with the count. One INCR at a time, each atomic, so no number is handed out twice.
 */
export async function countPast(core: ProxyCore, userId: string, seen: number): Promise<number> {
  let latest = await latestEventId(core, userId);
  for (let i = 0; latest < seen && i < MAX_CATCH_UP; i++)
    latest = await core.store.increment(sequenceKey(userId), SEQUENCE_TTL_MS);
  return latest;
}

/** How far the count is moved on at most (a failover loses a moment's writes, not thousands). */
const MAX_CATCH_UP = 1000;

/**
 * What the member missed after event `lastId`, oldest first; `gap` when some of it is no longer
 * kept (or the id is not one of ours), so the stream can tell the elements to read everything again.
 */
export async function missedSince(
  core: ProxyCore,
  userId: string,
  lastId: number | undefined,
  generation: string,
): Promise<{ events: LoggedEvent[]; gap: boolean; latest: number }> {
  const latest = await latestEventId(core, userId);
  if (lastId === undefined || !Number.isInteger(lastId) || lastId < 0 || lastId > latest)
    return { events: [], gap: true, latest };
  const ids = Array.from({ length: latest - lastId }, (_, i) => lastId + 1 + i);
  const read = () => core.store.getMany(ids.map((id) => eventKey(userId, id)));
  let found = await read();
  // An event numbered but not yet written is being recorded right now: it is there a moment later.
  if (found.includes(undefined)) {
    await new Promise((resolve) => setTimeout(resolve, IN_FLIGHT_MS));
    found = await read();
  }
  const events: LoggedEvent[] = [];
  for (const [i, data] of found.entries()) {
    if (data === undefined) return { events: [], gap: true, latest };
    events.push({ id: ids[i] ?? 0, generation, data });
  }
  return { events, gap: false, latest };
}
