/**
 * The Redis store's own commands: Lua scripts that do in one atomic step what would otherwise take
 * several round trips, each sent as EVALSHA once Redis knows it.
 */
import type { Redis } from 'ioredis';

/** INCR, and PEXPIRE on the first increment, as one command (sent as EVALSHA once Redis knows it). */
const INCREMENT_WITH_EXPIRY = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

/** The generation record, created (never to expire) by the first reader of a Redis that has none. */
const GENERATION = `
local current = redis.call('GET', KEYS[1])
if current then return current end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]`;

/**
 * A place among at most ARGV[2] under KEYS[1] (a sorted set of holders scored by when their lease
 * lapses, by Redis's own clock, so the instances' clocks do not matter), in one step: lapsed
 * places are dropped, then the holder is added if it holds one or there is room.
 */
const ACQUIRE_LEASE = `
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ms)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], ms + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

/** Extends a holder's place (the set lives as long as its newest lease). */
const RENEW_LEASE = `
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZADD', KEYS[1], ms + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/** The client with the store's own commands. */
export type StoreClient = Redis & {
  incrementWithExpiry(key: string, ttlMs: number): Promise<number>;
  generation(key: string, fresh: string): Promise<string>;
  acquireLease(key: string, holder: string, limit: number, ttlMs: number): Promise<number>;
  renewLease(key: string, holder: string, ttlMs: number): Promise<number>;
};

/** `client` with the store's own commands defined on it. */
export function withStoreCommands(client: Redis): StoreClient {
  client.defineCommand('incrementWithExpiry', { numberOfKeys: 1, lua: INCREMENT_WITH_EXPIRY });
  client.defineCommand('generation', { numberOfKeys: 1, lua: GENERATION });
  client.defineCommand('acquireLease', { numberOfKeys: 1, lua: ACQUIRE_LEASE });
  client.defineCommand('renewLease', { numberOfKeys: 1, lua: RENEW_LEASE });
  return client as StoreClient;
}
