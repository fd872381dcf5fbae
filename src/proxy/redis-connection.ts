/** How the Redis store connects: its options, read into ioredis's (a URL, or Sentinels naming the primary). */
import type { RedisOptions } from 'ioredis';

export interface RedisStoreOptions {
  /**
   * `redis://[user:password@]host:port[/db]` (or `rediss://` for TLS); default
   * `redis://127.0.0.1:6379`. With `sentinels`, only its user, password and db are used: the
   * primary is the one the Sentinels name.
   */
  url?: string;
  /**
   * A primary with replicas watched by Redis Sentinel: the Sentinels to ask (`[{ host, port }]`,
   * two or more), and `name`, the primary's name in their configuration (`sentinel monitor NAME
   * …`). The store asks them for the current primary, and again after a failover.
   */
  sentinels?: readonly { host: string; port: number }[];
  /** The monitored primary's name, with `sentinels`. */
  name?: string;
  /** The Sentinels' own password, when they require one (`requirepass` in sentinel.conf). */
  sentinelPassword?: string;
  /** Put before every key and channel, so several deployments can share one Redis. Default `consult:`. */
  prefix?: string;
  /**
   * How long a command may wait for Redis (down, paused, reconnecting) before the request is
   * answered 503 `store_unavailable`. Default 1000: a request waits for at most one command (after
   * a command has failed, the next fail at once until Redis answers again), so the answer comes
   * within 2 s with room to spare under load.
   */
  commandTimeoutMs?: number;
}

/**
 * The options both connections share: a command waits at most `timeoutMs`, reconnects come quickly
 * and never stop (recovery needs nobody). With Sentinels, the primary is theirs to name, and a
 * connection that finds itself on a replica (a failover it has not heard of yet: `READONLY`)
 * reconnects to the new primary and sends the command again.
 */
export function connectionOptions(options: RedisStoreOptions, timeoutMs: number): RedisOptions {
  const common: RedisOptions = {
    maxRetriesPerRequest: 1,
    commandTimeout: timeoutMs,
    retryStrategy: (times) => Math.min(100 * times, 1000),
  };
  if (!options.sentinels?.length) return common;
  if (!options.name)
    throw new TypeError(
      "consult-proxy: redisStore({ sentinels }) needs `name`, the primary's name in the Sentinels' configuration.",
    );
  const { username, password, db, tls } = parseUrl(options.url ?? 'redis://');
  return {
    ...common,
    sentinels: options.sentinels.map(({ host, port }) => ({ host, port })),
    name: options.name,
    ...(username ? { username } : {}),
    ...(password ? { password } : {}),
    ...(db ? { db } : {}),
    ...(tls ? { tls, enableTLSForSentinelMode: true } : {}),
    ...(options.sentinelPassword ? { sentinelPassword: options.sentinelPassword } : {}),
    sentinelRetryStrategy: (times) => Math.min(100 * times, 1000),
    reconnectOnError: (error) => (/^READONLY/.test(error.message) ? 2 : false),
  };
}

/** A `redis://` or `rediss://` URL as connection options. */
function parseUrl(url: string): RedisOptions {
  const parsed = new URL(url);
  const db = Number(parsed.pathname.slice(1) || 0);
  return {
    ...(parsed.hostname ? { host: parsed.hostname } : {}),
    ...(parsed.port ? { port: Number(parsed.port) } : {}),
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(db ? { db } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}
