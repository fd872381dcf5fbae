/**
 * The contract of `ProxyStore` (src/proxy/store.ts), written once as `storeContract(name, makeStore)`
 * so that every implementation runs the same tests: `MemoryStore` here, a Redis store beside it
 * when a partner runs several proxy instances. Time is injected: `makeStore` receives the clock the
 * store must read, and the tests move it forward instead of waiting.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { RedisProxyStore } from '../../src/proxy/redis-store.js';
import { MemoryStore, type ProxyStore } from '../../src/proxy/store.js';
import { startRedis, type TestRedis } from '../../scripts/redis-server.js';

export interface ContractClock {
  /** Milliseconds since the epoch, as the store under test must see them. */
  now(): number;
}

/** Creates a fresh, empty store reading `clock`; an optional `dispose` runs after each test. */
export type MakeStore = (clock: ContractClock) => ProxyStore | Promise<ProxyStore>;

/**
 * The test's clock. A store that reads it (memory) sees time jump; a store that keeps its own
 * time (Redis expires keys itself) gets the same test with real waiting, so every wait below is
 * short and every expectation has a margin on both sides of an expiry.
 */
class TestClock implements ContractClock {
  #now = Date.UTC(2026, 0, 15, 9, 0, 0);
  constructor(readonly realTime: boolean) {}
  now = (): number => this.#now;
  async advance(ms: number): Promise<void> {
    this.#now += ms;
    if (this.realTime) await new Promise((resolve) => setTimeout(resolve, ms));
  }
}

/** Waits, bounded, until `probe` holds: publish may deliver asynchronously (as Redis does). */
async function until(what: string, probe: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export function storeContract(
  name: string,
  makeStore: MakeStore,
  options: { dispose?: (store: ProxyStore) => Promise<void> | void; realTime?: boolean } = {},
): void {
  describe(`ProxyStore contract: ${name}`, () => {
    /** Runs `body` with a fresh store and clock, then disposes of the store. */
    const withStore = (body: (store: ProxyStore, clock: TestClock) => Promise<void>) => async () => {
      const clock = new TestClock(options.realTime ?? false);
      const store = await makeStore(clock);
      try {
        await body(store, clock);
      } finally {
        await options.dispose?.(store);
      }
    };

    it(
      'get of a missing key is undefined; set then get returns the value; set replaces it',
      withStore(async (store) => {
        assert.equal(await store.get('missing'), undefined);
        await store.set('k', 'v1', 60_000);
        assert.equal(await store.get('k'), 'v1');
        await store.set('k', 'v2', 60_000);
        assert.equal(await store.get('k'), 'v2');
        await store.set('other', '', 60_000);
        assert.equal(await store.get('other'), '', 'an empty string is a value, not absence');
      }),
    );

    it(
      'getMany reads several keys in order: missing and expired ones are undefined',
      withStore(async (store, clock) => {
        assert.deepEqual(await store.getMany([]), []);
        await store.set('a', '1', 60_000);
        await store.set('b', '', 60_000);
        await store.set('soon', 'x', 200);
        await store.increment('count', 60_000);
        await clock.advance(400);
        assert.deepEqual(await store.getMany(['a', 'missing', 'b', 'soon', 'count', 'a']), [
          '1',
          undefined,
          '',
          undefined,
          '1',
          '1',
        ]);
      }),
    );

    it(
      'values expire after their ttl, and not before',
      withStore(async (store, clock) => {
        // Wide margins before each expiry: on Redis this is real time, on a machine that may stall.
        await store.set('short', 'x', 600);
        await store.set('long', 'y', 2000);
        await clock.advance(200);
        assert.equal(await store.get('short'), 'x');
        await clock.advance(600);
        assert.equal(await store.get('short'), undefined);
        assert.equal(await store.get('long'), 'y');
        await clock.advance(1400);
        assert.equal(await store.get('long'), undefined);
      }),
    );

    it(
      'set renews the ttl',
      withStore(async (store, clock) => {
        await store.set('k', 'a', 1000);
        await clock.advance(600);
        await store.set('k', 'b', 1000);
        await clock.advance(600);
        assert.equal(await store.get('k'), 'b');
      }),
    );

    it(
      'many stores of one key do not interfere with other keys',
      withStore(async (store) => {
        await Promise.all(Array.from({ length: 50 }, (_, i) => store.set(`key:${i}`, String(i), 60_000)));
        const values = await Promise.all(Array.from({ length: 50 }, (_, i) => store.get(`key:${i}`)));
        assert.deepEqual(
          values,
          Array.from({ length: 50 }, (_, i) => String(i)),
        );
      }),
    );

    it(
      'setIfAbsent stores only once, also under concurrency',
      withStore(async (store) => {
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) => store.setIfAbsent('once', `writer-${i}`, 60_000)),
        );
        assert.equal(results.filter(Boolean).length, 1, `winners: ${results.join(',')}`);
        const winner = results.indexOf(true);
        assert.equal(await store.get('once'), `writer-${winner}`);
        assert.equal(await store.setIfAbsent('once', 'late', 60_000), false);
        assert.equal(await store.get('once'), `writer-${winner}`);
      }),
    );

    it(
      'setIfAbsent succeeds again once the key has expired or been deleted',
      withStore(async (store, clock) => {
        assert.equal(await store.setIfAbsent('k', 'a', 200), true);
        await clock.advance(350);
        assert.equal(await store.setIfAbsent('k', 'b', 1000), true);
        assert.equal(await store.get('k'), 'b');
        await store.delete('k');
        assert.equal(await store.setIfAbsent('k', 'c', 1000), true);
        assert.equal(await store.get('k'), 'c');
      }),
    );

    it(
      'delete removes a key; deleting a missing key is fine',
      withStore(async (store) => {
        await store.set('k', 'v', 60_000);
        await store.delete('k');
        assert.equal(await store.get('k'), undefined);
        await store.delete('never-set');
      }),
    );

    it(
      'increment counts from 1, concurrently without lost updates',
      withStore(async (store) => {
        assert.equal(await store.increment('count', 60_000), 1);
        assert.equal(await store.increment('count', 60_000), 2);
        const results = await Promise.all(Array.from({ length: 30 }, () => store.increment('count', 60_000)));
        assert.deepEqual(
          [...results].sort((a, b) => a - b),
          Array.from({ length: 30 }, (_, i) => i + 3),
        );
        assert.equal(await store.increment('another', 60_000), 1);
      }),
    );

    it(
      'increment’s ttl runs from the first increment: a window does not slide',
      withStore(async (store, clock) => {
        assert.equal(await store.increment('window', 1000), 1);
        await clock.advance(300);
        assert.equal(await store.increment('window', 1000), 2);
        // Past the first increment's second, short of a second from the last one.
        await clock.advance(800);
        assert.equal(await store.increment('window', 1000), 1, 'the counter expired 1 s after it began');
      }),
    );

    it(
      'publish reaches every listener of the channel, and only that channel',
      withStore(async (store) => {
        const a: string[] = [];
        const b: string[] = [];
        const elsewhere: string[] = [];
        const offA = store.subscribe('events:usr_a', (m) => a.push(m));
        const offB = store.subscribe('events:usr_a', (m) => b.push(m));
        const offElsewhere = store.subscribe('events:usr_b', (m) => elsewhere.push(m));
        await store.publish('events:usr_a', 'one');
        await store.publish('events:usr_a', 'two');
        await until('both listeners to hear both messages', () => a.length === 2 && b.length === 2);
        assert.deepEqual(a, ['one', 'two']);
        assert.deepEqual(b, ['one', 'two']);
        // The other channel's listener is the fence: once it hears its own message, nothing else is coming.
        await store.publish('events:usr_b', 'fence');
        await until('the fence', () => elsewhere.length === 1);
        assert.deepEqual(elsewhere, ['fence']);
        offA();
        offB();
        offElsewhere();
      }),
    );

    it(
      'publishing to a channel nobody listens to is fine',
      withStore(async (store) => {
        await store.publish('events:nobody', 'hello');
      }),
    );

    it(
      'unsubscribe stops one listener and leaves the others',
      withStore(async (store) => {
        const gone: string[] = [];
        const stays: string[] = [];
        const off = store.subscribe('channel', (m) => gone.push(m));
        store.subscribe('channel', (m) => stays.push(m));
        await store.publish('channel', 'before');
        await until('both to hear "before"', () => gone.length === 1 && stays.length === 1);
        off();
        off(); // Twice is harmless.
        await store.publish('channel', 'after');
        await until('the remaining listener', () => stays.length === 2);
        assert.deepEqual(gone, ['before']);
        assert.deepEqual(stays, ['before', 'after']);
      }),
    );

    it(
      'a stale unsubscribe, after the channel emptied and filled again, leaves the new listeners',
      withStore(async (store) => {
        const heard: string[] = [];
        const off = store.subscribe('channel', () => undefined);
        off();
        store.subscribe('channel', (m) => heard.push(m));
        off();
        await store.publish('channel', 'for the new listener');
        await until('the new listener', () => heard.length === 1);
      }),
    );

    it(
      'the same function subscribed on two channels is unsubscribed per channel',
      withStore(async (store) => {
        const heard: string[] = [];
        const listener = (m: string) => heard.push(m);
        const offX = store.subscribe('x', listener);
        store.subscribe('y', listener);
        offX();
        await store.publish('x', 'on x');
        await store.publish('y', 'on y');
        await until('the message on y', () => heard.includes('on y'));
        assert.deepEqual(heard, ['on y']);
      }),
    );

    it(
      'a throwing listener does not keep the message from the others',
      withStore(async (store) => {
        const reported: unknown[] = [];
        const originalError = console.error;
        console.error = (...args: unknown[]) => void reported.push(args);
        try {
          const first: string[] = [];
          const last: string[] = [];
          store.subscribe('channel', (m) => first.push(m));
          store.subscribe('channel', () => {
            throw new Error('listener failed');
          });
          store.subscribe('channel', (m) => last.push(m));
          await store.publish('channel', 'still delivered');
          await store.publish('channel', 'and again');
          await until('the other listeners', () => first.length === 2 && last.length === 2);
          assert.deepEqual(first, ['still delivered', 'and again']);
          assert.deepEqual(last, ['still delivered', 'and again']);
        } finally {
          console.error = originalError;
        }
      }),
    );
  });
}

storeContract('MemoryStore', (clock) => new MemoryStore({ now: clock.now }));

// The same contract against a real Redis server (Debian's redis-server on a free loopback port).
describe('with Redis', () => {
  let redis: TestRedis;
  let round = 0;
  before(async () => {
    redis = await startRedis();
  });
  after(async () => redis?.stop());
  storeContract(
    'RedisProxyStore',
    // Each test its own key prefix: a fresh, empty store in one server.
    () => new RedisProxyStore({ url: redis.url, prefix: `contract-${++round}:` }),
    { dispose: (store) => (store as RedisProxyStore).close(), realTime: true },
  );

  it('getManyAndGeneration reads the keys and the generation in one call, as getMany and generation give them', async () => {
    const store = new RedisProxyStore({ url: redis.url, prefix: 'one-call:' });
    try {
      // The first call on a Redis may be this one: it makes the generation as `generation()` would.
      const [none, made] = await store.getManyAndGeneration(['a']);
      assert.deepEqual(none, [undefined]);
      assert.match(made, /^[a-z0-9]+:\d+$/);
      assert.equal(made, await store.generation(), 'made once, and kept');
      await store.set('a', '1', 60_000);
      await store.set('b', '', 60_000);
      const [values, generation] = await store.getManyAndGeneration(['a', 'missing', 'b']);
      assert.deepEqual(values, ['1', undefined, '']);
      assert.deepEqual(values, await store.getMany(['a', 'missing', 'b']));
      assert.equal(generation, made);
    } finally {
      await store.close();
    }
  });

  it('getManyAndGeneration on a Redis that lost its data: a new generation at once, the same for every instance', async () => {
    const one = new RedisProxyStore({ url: redis.url, prefix: 'lost-data:' });
    const other = new RedisProxyStore({ url: redis.url, prefix: 'lost-data:' });
    const flusher = new Redis(redis.url);
    try {
      await one.set('revoked', '1', 60_000);
      const [[revoked], before] = await one.getManyAndGeneration(['revoked']);
      assert.equal(revoked, '1');
      assert.equal(before, await other.generation(), 'one generation for both instances');
      await flusher.flushall();
      const [[gone], after] = await one.getManyAndGeneration(['revoked']);
      assert.equal(gone, undefined);
      assert.notEqual(after, before, 'the data was lost: a new generation');
      assert.equal((await other.getManyAndGeneration([]))[1], after, 'the other instance reads the same one');
    } finally {
      flusher.disconnect();
      await Promise.all([one.close(), other.close()]);
    }
  });

  it('subscribed() resolves once another instance’s publish is heard', async () => {
    // Two instances sharing one Redis: one listens, the other publishes the moment it may.
    const listening = new RedisProxyStore({ url: redis.url, prefix: 'two-instances:' });
    const publishing = new RedisProxyStore({ url: redis.url, prefix: 'two-instances:' });
    try {
      for (let i = 0; i < 20; i++) {
        const heard: string[] = [];
        const off = listening.subscribe(`channel-${i}`, (message) => heard.push(message));
        await listening.subscribed(`channel-${i}`);
        await publishing.publish(`channel-${i}`, `message ${i}`);
        await until(`message ${i}`, () => heard.length === 1);
        off();
      }
      // A channel nobody subscribed to is ready at once.
      await listening.subscribed('never-subscribed');
    } finally {
      await Promise.all([listening.close(), publishing.close()]);
    }
  });
});

describe('MemoryStore specifics', () => {
  it('listenerCount drops to 0 when the last listener leaves', () => {
    const store = new MemoryStore();
    const off1 = store.subscribe('c', () => undefined);
    const off2 = store.subscribe('c', () => undefined);
    assert.equal(store.listenerCount('c'), 2);
    off1();
    off2();
    assert.equal(store.listenerCount('c'), 0);
  });

  it('getManyAndGeneration reads through getMany and generation, so a subclass that changes them is heard', async () => {
    // As a store that came back empty: a new generation, and a key it no longer has.
    class Replaced extends MemoryStore {
      override async generation(): Promise<string> {
        return 'replaced:1700000000000';
      }
      override async getMany(keys: readonly string[]): Promise<(string | undefined)[]> {
        return keys.map(() => undefined);
      }
    }
    const store = new Replaced();
    await store.set('a', '1', 60_000);
    assert.deepEqual(await store.getManyAndGeneration(['a']), [[undefined], 'replaced:1700000000000']);
    const plain = new MemoryStore();
    await plain.set('a', '1', 60_000);
    assert.deepEqual(await plain.getManyAndGeneration(['a', 'b']), [
      ['1', undefined],
      await plain.generation(),
    ]);
  });
});
