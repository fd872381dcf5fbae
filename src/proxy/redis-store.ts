/**
 * `RedisProxyStore`: the proxy's shared state in Redis, so any number of proxy instances behind a
 * load balancer act as one: idempotency records and their in-flight locks, conversation owners,
 * webhook de-duplication, rate-limit counters, ended sessions, the members' event log, and event
 * fan-out (pub/sub). Node only (`consult-elements/proxy/redis`), on `ioredis`.
 *
 *   createProxy({ ..., store: redisStore({ url: 'redis://cache.internal:6379' }) })
 */
import { Redis, type RedisOptions } from 'ioredis';
import { newGeneration } from './generation.js';
import { withStoreCommands, type StoreClient } from './redis-commands.js';
import { connectionOptions, type RedisStoreOptions } from './redis-connection.js';
import { StoreUnavailableError, type ProxyStore } from './store.js';

export type { RedisStoreOptions } from './redis-connection.js';

export class RedisProxyStore implements ProxyStore {
  readonly #client: StoreClient;
  /** A connection in subscriber mode can do nothing else: pub/sub gets its own. */
  readonly #subscriber: Redis;
  readonly #prefix: string;
  readonly #listeners = new Map<string, Set<(message: string) => void>>();
  /** Each channel's SUBSCRIBE, settled once Redis has confirmed it. */
  readonly #confirmations = new Map<string, Promise<unknown>>();
  /** Subscriptions still being confirmed by Redis: a publish from this process waits for them. */
  readonly #pending = new Set<Promise<unknown>>();
  readonly #timeoutMs: number;
  /** Told when the subscriptions are back after the connection was lost. */
  readonly #resubscribed = new Set<() => void>();
  /** Since when the connection has been lost, while it is. */
  #downSince: number | undefined;
  /**
   * A command failed (timed out, or gave up on the reconnect) and Redis has not answered since:
   * commands fail at once rather than each waiting out its own timeout, so a request that needs
   * several commands in turn still waits for one. A PING, one at a time, finds when it answers.
   */
  #failing = false;
  #probing = false;
  #closed = false;
  #stopChecks: () => void = () => undefined;

  constructor(options: RedisStoreOptions = {}) {
    const url = options.url ?? 'redis://127.0.0.1:6379';
    // A command waits for Redis at most `commandTimeoutMs`, then fails: the proxy answers 503
    // within 2 s, not never. Commands issued together (a read's token and rate-limit checks) go out
    // in one write.
    this.#timeoutMs = options.commandTimeoutMs ?? 1000;
    const connection = connectionOptions(options, this.#timeoutMs);
    const connect = (extra: RedisOptions = {}) =>
      connection.sentinels
        ? new Redis({ ...connection, ...extra })
        : new Redis(url, { ...connection, ...extra });
    this.#client = withStoreCommands(connect({ enableAutoPipelining: true }));
    this.#client.on('ready', () => {
      this.#downSince = undefined;
      this.#failing = false;
    });
    this.#client.on('close', () => (this.#downSince ??= Date.now()));
    this.#subscriber = connect();
    // Back after the connection was lost (Redis restarted, a failover): what was published
    // meanwhile never reached this process. Once every channel is subscribed again, the listeners
    // are told, so open streams catch up from the event log.
    let lost = false;
    this.#subscriber.on('close', () => (lost = true));
    this.#subscriber.on('ready', () => {
      if (!lost) return;
      lost = false;
      const channels = [...this.#listeners.keys()].map((channel) => this.#key(channel));
      void (channels.length ? this.#subscriber.subscribe(...channels) : Promise.resolve())
        .then(() => {
          for (const listener of [...this.#resubscribed]) listener();
        })
        .catch(() => undefined);
    });
    this.#prefix = options.prefix ?? 'consult:';
    this.#subscriber.on('message', (channel: string, message: string) => {
      const listeners = this.#listeners.get(channel.slice(this.#prefix.length));
      for (const listener of [...(listeners ?? [])]) {
        try {
          listener(message);
        } catch (error) {
          console.error('consult-proxy: an event listener failed', (error as Error)?.name ?? 'Error');
        }
      }
    });
    // With Sentinels: a primary failed over on purpose stays up as a replica of the new one, and
    // answers reads (from a copy that is resyncing, so stale or empty) without an error to say so.
    // Once a second the connection checks that it is on the primary, and reconnects (the
    // Sentinels name the new one) when it is not.
    if (connection.sentinels) {
      const check = setInterval(() => {
        if (this.#client.status !== 'ready') return;
        void this.#client
          .call('ROLE')
          .then((role) => {
            if (Array.isArray(role) && role[0] !== 'master') this.#client.disconnect(true);
          })
          .catch(() => undefined);
      }, ROLE_CHECK_MS);
      check.unref?.();
      this.#stopChecks = () => clearInterval(check);
    }
    // Errors are reported by the commands that fail; an unhandled 'error' event would end the process.
    this.#client.on('error', () => undefined);
    this.#subscriber.on('error', () => undefined);
  }

  #key(key: string): string {
    return `${this.#prefix}${key}`;
  }

  /**
   * Runs one command; any failure is a {@link StoreUnavailableError} naming the kind of failure
   * only (the command and its keys, which name members, stay out of errors and logs). Once the
   * connection has been down longer than a command may wait, or once a command has failed and
   * Redis has not answered since, commands fail at once instead of queueing for the reconnect: the
   * queue cannot grow without bound, and a request waits out one command's timeout, not several.
   */
  async #run<T>(command: () => Promise<T>): Promise<T> {
    if (this.#downSince !== undefined && Date.now() - this.#downSince > this.#timeoutMs) {
      throw new StoreUnavailableError('disconnected');
    }
    if (this.#failing) {
      this.#probe();
      throw new StoreUnavailableError(this.#downSince === undefined ? 'timeout' : 'disconnected');
    }
    // The deadline is kept here, from the moment the command is asked for: ioredis starts its own
    // `commandTimeout` only when it sends the command, and with auto-pipelining a command waits
    // unsent while the previous batch is unanswered, so against a paused Redis its timeout alone
    // let a command wait twice as long (1.5 s became 3 s, measured).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('Command timed out')), this.#timeoutMs);
    });
    try {
      return await Promise.race([command(), deadline]);
    } catch (error) {
      const reason = reasonOf(error);
      if (reason === 'timeout' || reason === 'disconnected') {
        this.#failing = true;
        this.#probe();
      }
      throw new StoreUnavailableError(reason);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Asks Redis whether it answers again, a PING at a time (each bounded like any command) every
   * quarter second until it does, whether or not requests come: commands go through once it does.
   */
  #probe(): void {
    if (this.#probing) return;
    this.#probing = true;
    const attempt = (): void => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      void Promise.race([
        this.#client.ping(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), this.#timeoutMs);
        }),
      ]).then(
        () => {
          clearTimeout(timer);
          this.#failing = false;
          this.#probing = false;
        },
        () => {
          if (this.#closed || !this.#failing) {
            this.#probing = false;
            return;
          }
          setTimeout(attempt, PROBE_INTERVAL_MS).unref?.();
        },
      );
    };
    attempt();
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.#run(() => this.#client.get(this.#key(key)))) ?? undefined;
  }

  async getMany(keys: readonly string[]): Promise<(string | undefined)[]> {
    if (keys.length === 0) return [];
    const values = await this.#run(() => this.#client.mget(keys.map((key) => this.#key(key))));
    return values.map((value) => value ?? undefined);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.#run(() => this.#client.set(this.#key(key), value, 'PX', ttl(ttlMs)));
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    return (await this.#run(() => this.#client.set(this.#key(key), value, 'PX', ttl(ttlMs), 'NX'))) === 'OK';
  }

  async delete(key: string): Promise<void> {
    await this.#run(() => this.#client.del(this.#key(key)));
  }

  async increment(key: string, ttlMs: number): Promise<number> {
    // One command, atomic: the count, and an expiry set only by the first increment.
    return Number(await this.#run(() => this.#client.incrementWithExpiry(this.#key(key), ttl(ttlMs))));
  }

  async acquireLease(key: string, holder: string, limit: number, ttlMs: number): Promise<boolean> {
    const got = await this.#run(() => this.#client.acquireLease(this.#key(key), holder, limit, ttl(ttlMs)));
    return Number(got) === 1;
  }

  async renewLease(key: string, holder: string, ttlMs: number): Promise<void> {
    await this.#run(() => this.#client.renewLease(this.#key(key), holder, ttl(ttlMs)));
  }

  async releaseLease(key: string, holder: string): Promise<void> {
    await this.#run(() => this.#client.zrem(this.#key(key), holder));
  }

  async publish(channel: string, message: string): Promise<void> {
    // A listener this process has just added hears what this process publishes next.
    if (this.#pending.size) await Promise.allSettled([...this.#pending]);
    await this.#run(() => this.#client.publish(this.#key(channel), message));
  }

  subscribe(channel: string, listener: (message: string) => void): () => void {
    let listeners = this.#listeners.get(channel);
    if (!listeners) {
      this.#listeners.set(channel, (listeners = new Set()));
      this.#confirmations.set(channel, this.#track(this.#subscriber.subscribe(this.#key(channel))));
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      // Only this set: a stale unsubscribe must not drop a set created after it emptied.
      if (listeners.size === 0 && this.#listeners.get(channel) === listeners) {
        this.#listeners.delete(channel);
        this.#confirmations.delete(channel);
        this.#track(this.#subscriber.unsubscribe(this.#key(channel)));
      }
    };
  }

  resubscribed(listener: () => void): () => void {
    this.#resubscribed.add(listener);
    return () => this.#resubscribed.delete(listener);
  }

  async generation(): Promise<string> {
    return String(await this.#run(() => this.#client.generation(this.#key('generation'), newGeneration())));
  }

  async getManyAndGeneration(keys: readonly string[]): Promise<[(string | undefined)[], string]> {
    const [record, ...values] = await this.#run(() =>
      this.#client.mget(this.#key('generation'), ...keys.map((key) => this.#key(key))),
    );
    // Missing only on a Redis that lost its data since the last request: the script makes it.
    return [values.map((value) => value ?? undefined), record ?? (await this.generation())];
  }

  async ping(): Promise<void> {
    await this.#run(() => this.#client.ping());
  }

  async subscribed(channel: string): Promise<void> {
    await this.#confirmations.get(channel);
  }

  #track(command: Promise<unknown>): Promise<unknown> {
    const pending = command.catch(() => undefined);
    this.#pending.add(pending);
    void pending.finally(() => this.#pending.delete(pending));
    return pending;
  }

  /** Closes both connections. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#stopChecks();
    await Promise.allSettled([this.#client.quit(), this.#subscriber.quit()]);
  }
}

/** What went wrong, in a word: never the message, which may quote a command and its keys. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  if (/timed? ?out/i.test(message)) return 'timeout';
  if (/enableOfflineQueue|writeable|closed|ECONNREFUSED|ECONNRESET|max retries/i.test(message))
    return 'disconnected';
  if (/^LOADING/.test(message)) return 'loading';
  return error instanceof Error && error.name !== 'Error' ? error.name : 'error';
}

/** How often a store on Sentinels checks that its connection is still on the primary. */
const ROLE_CHECK_MS = 1000;

/** How often a store whose commands fail asks Redis whether it answers again. */
const PROBE_INTERVAL_MS = 250;

/** Redis wants a whole, positive number of milliseconds. */
const ttl = (ms: number) => Math.max(1, Math.ceil(ms));

/** A `RedisProxyStore`, for `createProxy({ store: redisStore({ url }) })`. */
export const redisStore = (options: RedisStoreOptions = {}): RedisProxyStore => new RedisProxyStore(options);
