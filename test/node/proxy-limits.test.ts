/**
 * Limits that hold across instances (docs/security.md S6): the per-address stream cap, counted in
 * one atomic step in the store (a burst of opens from one address across two proxy processes on
 * one Redis never gets past it), and the per-member sign-in limit. A real redis-server and real
 * proxy processes on loopback.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RedisProxyStore } from '../../src/proxy/redis-store.js';
import { MemoryStore, type ProxyStore } from '../../src/proxy/store.js';
import { startRedis, type TestRedis } from '../../scripts/redis-server.js';
import {
  eventually,
  openEventStream,
  rawRequest,
  SESSION_SECRET,
  sleep,
  startTestProxy,
  type SseStream,
  type TestProxy,
} from './support/proxy.js';
import { spawnProxy, type ProxyProcess } from './support/proxy-process.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';

describe('leases: at most `limit` places under a key, atomically', () => {
  let redis: TestRedis;
  const stores: RedisProxyStore[] = [];

  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    for (const store of stores) await store.close();
    await redis?.stop();
  });

  const redisStore = () => {
    // Counting is what is tested here, not how long Redis may take: on a machine busy with the
    // other suites, 100 scripts at once on a new connection can outlast the 1 s default.
    const store = new RedisProxyStore({ url: redis.url, prefix: 'leases:', commandTimeoutMs: 5_000 });
    stores.push(store);
    return store;
  };

  for (const [name, make] of [
    ['memory', () => new MemoryStore()],
    ['Redis', () => redisStore()],
  ] as const) {
    it(`${name}: 100 holders at once get exactly 7 places; a released or lapsed place is free again`, async () => {
      const first: ProxyStore = make();
      // Two instances of the same store on Redis; the memory store is one process.
      const second: ProxyStore = name === 'Redis' ? make() : first;
      const key = `burst-${name}`;
      const got = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          (i % 2 ? first : second).acquireLease!(key, `holder-${i}`, 7, 60_000),
        ),
      );
      assert.equal(got.filter(Boolean).length, 7);
      const holders = got.flatMap((ok, i) => (ok ? [`holder-${i}`] : []));
      // A holder asking again keeps its place; a newcomer is refused.
      assert.equal(await first.acquireLease!(key, holders[0] ?? '', 7, 60_000), true);
      assert.equal(await first.acquireLease!(key, 'newcomer', 7, 60_000), false);
      await second.releaseLease!(key, holders[0] ?? '');
      assert.equal(await first.acquireLease!(key, 'newcomer', 7, 60_000), true);
      assert.equal(await first.acquireLease!(key, 'another', 7, 60_000), false);

      // Short leases lapse unless renewed (renewed here for long, so a slow machine cannot let it lapse).
      const short = `lapse-${name}`;
      assert.equal(await first.acquireLease!(short, 'kept', 2, 1_000), true);
      const diesFrom = Date.now();
      assert.equal(await first.acquireLease!(short, 'dies', 2, 1_000), true);
      assert.equal(await first.acquireLease!(short, 'late', 2, 1_000), false);
      await sleep(100);
      await second.renewLease!(short, 'kept', 30_000);
      const lapsedAfter = Date.now();
      while (!(await first.acquireLease!(short, 'late', 2, 30_000))) {
        assert.ok(Date.now() - lapsedAfter < 10_000, 'the unrenewed place lapsed');
        await sleep(50);
      }
      assert.ok(Date.now() - diesFrom >= 990, 'not before its time');
      assert.equal(await first.acquireLease!(short, 'later', 2, 300), false, 'the renewed one did not');
    });
  }

  it('a limit of 0 (or below) gives no place', async () => {
    const store = redisStore();
    assert.equal(await store.acquireLease('none', 'a', 0, 1000), false);
    assert.equal(await store.acquireLease('none', 'a', -1, 1000), false);
    assert.equal(await new MemoryStore().acquireLease('none', 'a', 0, 1000), false);
  });
});

describe('the per-address stream cap across two proxy processes on one Redis', () => {
  let redis: TestRedis;
  let sandbox: TestSandbox;
  const processes: ProxyProcess[] = [];
  const CAP = 10;

  before(async () => {
    redis = await startRedis();
    sandbox = await startTestSandbox({ professionals: { mode: 'manual' } });
    for (let i = 0; i < 2; i++) {
      processes.push(
        await spawnProxy({
          upstreamUrl: sandbox.url,
          apiKey: sandbox.sandbox.apiKeys[0] ?? 'sandbox-api-key',
          sessionSecret: SESSION_SECRET,
          redisUrl: redis.url,
          prefix: 'address-cap:',
          limits: { streamsPerAddress: CAP, streamsPerMember: 1000, perMemberPerMinute: 100_000 },
        }),
      );
    }
  });
  after(async () => {
    for (const proxy of processes) await proxy.kill();
    await sandbox?.close();
    await redis?.stop();
  });

  it('120 streams opened at once from one address, spread over both: exactly the cap get 200, the rest 429', async () => {
    const tokens: string[] = [];
    for (const member of ['alex', 'sam', 'noor']) {
      const url = new URL(processes[0]?.url ?? '');
      const response = await rawRequest(url.origin, 'POST', `${url.pathname}/session`, {
        body: { demoUser: member },
      });
      assert.equal(response.status, 200, response.text);
      tokens.push(response.body.token as string);
    }
    const streams: SseStream[] = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        openEventStream(`${processes[i % 2]?.url}/events`, tokens[i % tokens.length]),
      ),
    );
    try {
      const statuses = streams.map((stream) => stream.status);
      assert.equal(statuses.filter((s) => s === 200).length, CAP, statuses.join(','));
      assert.equal(statuses.filter((s) => s === 429).length, 120 - CAP);
      for (const stream of streams.filter((s) => s.status === 429)) {
        await eventually('the refusal to be read', () => stream.ended());
        assert.match(stream.text(), /too_many_streams/);
        assert.equal(stream.headers.get('retry-after'), '10');
      }
      // Both instances hold some of the places: the cap is one count, not one per instance.
      const openOn = (proxy: ProxyProcess | undefined) =>
        streams.filter((s, i) => s.status === 200 && processes[i % 2] === proxy).length;
      assert.ok(openOn(processes[0]) + openOn(processes[1]) === CAP);
    } finally {
      for (const stream of streams) stream.close();
    }
    // Closed streams give their places back, to either instance.
    const again = await eventually(
      'the places to be given back',
      async () => {
        const batch = await Promise.all(
          Array.from({ length: CAP }, (_, i) =>
            openEventStream(`${processes[i % 2]?.url}/events`, tokens[i % tokens.length]),
          ),
        );
        if (batch.every((stream) => stream.status === 200)) return batch;
        for (const stream of batch) stream.close();
        await sleep(200);
        return undefined;
      },
      5000,
    );
    for (const stream of again) stream.close();
  });
});

describe('the per-address stream cap on a store without leases', () => {
  it('a store of its own that has only the basic commands still caps an address, one key per place', async () => {
    // The partner's own store: everything but the lease commands.
    const store = Object.assign(new MemoryStore(), {
      acquireLease: undefined,
      renewLease: undefined,
      releaseLease: undefined,
    });
    const proxy = await startTestProxy({ store, limits: { streamsPerAddress: 3, streamsPerMember: 100 } });
    try {
      const token = await proxy.session('alex');
      const streams = await Promise.all(
        Array.from({ length: 12 }, () => openEventStream(`${proxy.url}/events`, token)),
      );
      try {
        const statuses = streams.map((stream) => stream.status);
        assert.equal(statuses.filter((status) => status === 200).length, 3, statuses.join(','));
        assert.equal(statuses.filter((status) => status === 429).length, 9);
      } finally {
        for (const stream of streams) stream.close();
      }
      await eventually(
        'a place to be given back',
        async () => {
          const stream = await openEventStream(`${proxy.url}/events`, token);
          stream.close();
          if (stream.status !== 200) await sleep(100);
          return stream.status === 200;
        },
        5000,
      );
    } finally {
      await proxy.close();
    }
  });
});

describe('sign-ins per member', () => {
  let redis: TestRedis;
  let sandbox: TestSandbox;
  const proxies: TestProxy[] = [];
  const stores: RedisProxyStore[] = [];

  before(async () => {
    redis = await startRedis();
    sandbox = await startTestSandbox({ professionals: { mode: 'manual' } });
    for (let i = 0; i < 2; i++) {
      const store = new RedisProxyStore({ url: redis.url, prefix: 'sign-ins:' });
      stores.push(store);
      proxies.push(await startTestProxy({ sandbox, store, limits: { signInsPerMemberPerMinute: 5 } }));
    }
  });
  after(async () => {
    for (const proxy of proxies) await proxy.close();
    for (const store of stores) await store.close();
    await sandbox?.close();
    await redis?.stop();
  });

  it('past signInsPerMemberPerMinute, counted across instances: 429 with Retry-After, and no upstream call', async () => {
    const [a, b] = proxies as [TestProxy, TestProxy];
    const mark = a.mark();
    const responses = [];
    for (let i = 0; i < 12; i++)
      responses.push(await (i % 2 ? b : a).call('POST', '/session', { body: { demoUser: 'alex' } }));
    const statuses = responses.map((response) => response.status);
    assert.deepEqual(statuses.slice(0, 5), [200, 200, 200, 200, 200], 'five a minute in all, not five each');
    assert.deepEqual(statuses.slice(5), Array(7).fill(429));
    for (const refused of responses.slice(5)) {
      assert.equal(refused.body.code, 'rate_limited');
      const retryAfter = Number(refused.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    }
    // Each sign-in that went through looked the member up once (the user id is cached); the
    // refused ones asked the service nothing.
    const lookups = a.upstreamCalls(mark).filter((call) => /\/user/.test(call.path));
    assert.equal(lookups.length, 5, lookups.map((call) => `${call.method} ${call.path}`).join('\n'));
    // Another member is not counted with this one.
    assert.equal((await b.call('POST', '/session', { body: { demoUser: 'sam' } })).status, 200);
  });

  it('the default is 30 a minute', async () => {
    const { DEFAULT_LIMITS } = await import('../../src/proxy/options.js');
    assert.equal(DEFAULT_LIMITS.signInsPerMemberPerMinute, 30);
  });
});
