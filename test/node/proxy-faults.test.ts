/**
 * Faults lose nothing: a proxy process killed (SIGKILL) mid-webhook or after the upstream took a
 * follow-up, and a Redis paused (SIGSTOP) or stopped. Real redis-server, real proxy processes,
 * the sandbox upstream behind a relay that can hold an answer (the instance dies before it comes).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { sign } from 'hono/jwt';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { forwardedClientAddress } from '../../src/proxy/node.js';
import { RedisProxyStore } from '../../src/proxy/redis-store.js';
import { SessionManager } from '../../src/session/session.js';
import { startRedis, type TestRedis } from '../../scripts/redis-server.js';
import {
  eventually,
  openEventStream,
  rawRequest,
  SESSION_SECRET,
  sleep,
  startTestProxy,
  type TestProxy,
} from './support/proxy.js';
import { spawnProxy, type ProxyProcess } from './support/proxy-process.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';
import { signedDelivery } from './support/webhooks.js';

const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;

/**
 * Forwards every request to `target`; a request `hold` matches is forwarded and answered by the
 * upstream, but its answer is kept back (`held` resolves then), as when the caller dies first.
 */
async function startRelay(target: string) {
  let hold: (method: string, path: string) => boolean = () => false;
  let onHeld: () => void = () => undefined;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
          headers.set(name, value);
      const held = hold(req.method ?? 'GET', req.url ?? '/');
      void fetch(`${target}${req.url}`, {
        method: req.method ?? 'GET',
        headers,
        ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
        redirect: 'manual',
      })
        .then(async (response) => {
          const body = Buffer.from(await response.arrayBuffer());
          if (held) return onHeld();
          res.writeHead(response.status, Object.fromEntries(response.headers));
          res.end(body);
        })
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** The next request matching `match` is held; resolves once the upstream has answered it. */
    holdNext(match: (method: string, path: string) => boolean): Promise<void> {
      return new Promise((resolve) => {
        hold = (method, path) => {
          if (!match(method, path)) return false;
          hold = () => false;
          return true;
        };
        onHeld = resolve;
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Relay = Awaited<ReturnType<typeof startRelay>>;

describe('a proxy process killed mid-flow', () => {
  let redis: TestRedis;
  let sandbox: TestSandbox;
  let relay: Relay;
  const processes: ProxyProcess[] = [];
  const prefix = `killed-${randomBytes(4).toString('hex')}:`;

  const instance = async () => {
    const proxy = await spawnProxy({
      upstreamUrl: relay.url,
      apiKey: sandbox.sandbox.apiKeys[0] ?? 'sandbox-api-key',
      sessionSecret: SESSION_SECRET,
      redisUrl: redis.url,
      prefix,
      webhookSecret: WEBHOOK_SECRET,
      // A handling claim lasts three upstream timeouts: short here, so a test can outlive one.
      limits: { upstreamTimeoutMs: 1000 },
    });
    processes.push(proxy);
    return proxy;
  };
  const call = (proxy: ProxyProcess, method: string, path: string, options = {}) => {
    const url = new URL(`${proxy.url}${path}`);
    return rawRequest(url.origin, method, url.pathname, options);
  };
  const signIn = async (proxy: ProxyProcess, demoUser: string) => {
    const response = await call(proxy, 'POST', '/session', { body: { demoUser } });
    assert.equal(response.status, 200, response.text);
    return response.body.token as string;
  };

  before(async () => {
    redis = await startRedis();
    sandbox = await startTestSandbox({ professionals: { mode: 'manual' } });
    relay = await startRelay(sandbox.url);
  });
  after(async () => {
    for (const proxy of processes) await proxy.kill();
    await relay?.close();
    await sandbox?.close();
    await redis?.stop();
  });

  it('killed while handling a webhook: the redelivery is handled, and the member replays the event', async () => {
    const a = await instance();
    const b = await instance();
    const caseId = 'cns_demo_alex_rash';
    const delivery = signedDelivery(
      { type: 'questionResolved', caseId, userId: 'usr_demo_alex' },
      WEBHOOK_SECRET,
    );
    // The instance reads the case to find its member; it dies before the answer comes.
    const held = relay.holdNext((method, path) => method === 'GET' && path === `/consultation/${caseId}`);
    const first = call(a, 'POST', '/webhooks', delivery).catch((error: unknown) => error);
    await held;
    await a.kill();
    assert.ok((await first) instanceof Error, 'the killed instance never answered');

    // The upstream delivers again, to the other instance: handled there (once a claim the dead
    // instance held has lapsed), not taken for a duplicate.
    const statuses: number[] = [];
    const handled = await eventually(
      'the redelivery to be handled',
      async () => {
        const response = await call(b, 'POST', '/webhooks', delivery);
        statuses.push(response.status);
        return response.status === 200 ? response : undefined;
      },
      8000,
    );
    assert.equal(handled.body.duplicate, undefined, handled.text);
    assert.ok(
      statuses.slice(0, -1).every((status) => status === 409),
      statuses.join(),
    );
    // A later redelivery is the duplicate.
    const again = await call(b, 'POST', '/webhooks', delivery);
    assert.equal(again.status, 200);
    assert.equal(again.body.duplicate, true);

    // The member's replay from the start holds the event, once.
    const token = await signIn(b, 'alex');
    const stream = await openEventStream(`${b.url}/events`, token, { 'last-event-id': '0' });
    try {
      await stream.next((item) => item.event === 'ready');
      const event = await stream.next((item) => item.event === 'consultation', 3000);
      assert.equal(JSON.parse(event.data ?? '{}').consultationId, caseId);
      assert.equal(JSON.parse(event.data ?? '{}').type, 'questionResolved');
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(stream.events('consultation').length, 1);
    } finally {
      stream.close();
    }
  });

  it('killed after the upstream took a third question: the retry elsewhere answers it, not the limit', async () => {
    const a = await instance();
    const b = await instance();
    const token = await signIn(a, 'noor');
    const created = await call(a, 'POST', '/consultation', {
      token,
      headers: { 'idempotency-key': 'third-question-create' },
      body: { questions: ['First question?'] },
    });
    assert.equal(created.status, 201, created.text);
    const id = created.body.consultationId as string;
    const second = await call(a, 'POST', `/consultation/${id}`, {
      token,
      headers: { 'idempotency-key': 'third-question-second' },
      body: { question: 'Second question?' },
    });
    assert.equal(second.status, 200, second.text);

    const third = { question: 'Third question, sent as the instance dies?' };
    const headers = { 'idempotency-key': 'third-question-third' };
    const held = relay.holdNext((method, path) => method === 'POST' && path === `/consultation/${id}`);
    const first = call(a, 'POST', `/consultation/${id}`, { token, headers, body: third }).catch(
      (error: unknown) => error,
    );
    await held;
    await a.kill();
    assert.ok((await first) instanceof Error, 'the killed instance never answered');
    const stored = sandbox.sandbox.state.consultations.get(id);
    assert.equal(stored?.questions.length, 3, 'the upstream holds all three');

    // The browser retries with the same key, on the other instance: the recorded question.
    const retried = await call(b, 'POST', `/consultation/${id}`, { token, headers, body: third });
    assert.equal(retried.status, 200, retried.text);
    assert.equal(retried.body.questions.length, 3);
    assert.equal(retried.body.questions[2].question, third.question);
    assert.equal(sandbox.sandbox.state.consultations.get(id)?.questions.length, 3, 'nothing added');
    // A new question is still refused at the limit.
    const fourth = await call(b, 'POST', `/consultation/${id}`, {
      token,
      headers: { 'idempotency-key': 'third-question-fourth' },
      body: { question: 'A fourth?' },
    });
    assert.equal(fourth.status, 409);
    assert.equal(fourth.body.code, 'question_limit_reached');
    // The same question with a new key is a new question: refused too.
    const sameText = await call(b, 'POST', `/consultation/${id}`, {
      token,
      headers: { 'idempotency-key': 'third-question-again' },
      body: { question: 'Second question?' },
    });
    assert.equal(sameText.status, 409);
  });
});

/** Pauses Redis (SIGSTOP) as a stream reads the member's newest event number, while armed. */
let pauseOnEventRead = false;
let pausedRedis: TestRedis | undefined;
class PausingStore extends RedisProxyStore {
  override async get(key: string): Promise<string | undefined> {
    if (pauseOnEventRead && key.startsWith('event-seq:') && pausedRedis)
      process.kill(pausedRedis.pid, 'SIGSTOP');
    return super.get(key);
  }
}

describe('Redis paused or stopped', () => {
  let redis: TestRedis;
  let proxy: TestProxy;
  let store: RedisProxyStore;
  let token: string;

  before(async () => {
    redis = pausedRedis = await startRedis();
    store = new PausingStore({ url: redis.url, prefix: 'faults:' });
    proxy = await startTestProxy({ store, heartbeatMs: 200, limits: { streamsPerMember: 2 } });
    token = await proxy.session('alex');
  });
  after(async () => {
    await proxy?.close();
    await store?.close();
    await redis?.stop();
  });

  const read = () => proxy.call('GET', '/user/usr_demo_alex', { token });

  /** Every request answered 503 store_unavailable with Retry-After, and /readyz 503, within 2 s each. */
  async function assertUnavailable() {
    for (const request of [
      read,
      () => proxy.call('POST', '/session', { body: { demoUser: 'sam' } }),
      () => proxy.call('GET', '/events', { token }),
    ]) {
      const started = Date.now();
      const response = await request();
      const took = Date.now() - started;
      assert.equal(response.status, 503, response.text);
      assert.equal(response.body.code, 'store_unavailable');
      assert.ok(Number(response.headers.get('retry-after')) >= 1);
      assert.ok(took < 2000, `answered in ${took} ms`);
    }
    const ready = await proxy.request('GET', '/consult/readyz');
    assert.equal(ready.status, 503);
    assert.equal((await proxy.request('GET', '/consult/healthz')).status, 200, 'the process itself is up');
  }

  it('paused (SIGSTOP): 503 store_unavailable within 2 s, /readyz 503; resumed: served again', async () => {
    assert.equal((await read()).status, 200);
    assert.equal((await proxy.request('GET', '/consult/readyz')).status, 200);
    process.kill(redis.pid, 'SIGSTOP');
    try {
      await assertUnavailable();
    } finally {
      process.kill(redis.pid, 'SIGCONT');
    }
    await eventually('reads to be served again', async () => (await read()).status === 200, 5000);
    assert.equal((await proxy.request('GET', '/consult/readyz')).status, 200);
  });

  it('stopped: 503 store_unavailable within 2 s, with no growing queue; started again: served again', async () => {
    const { port } = redis;
    await redis.stop();
    // Many requests while it is down: each is answered, none waits for the reconnect.
    await assertUnavailable();
    const burst = await Promise.all(Array.from({ length: 50 }, read));
    assert.ok(burst.every((response) => response.status === 503));
    redis = pausedRedis = await startRedis({ port });
    await eventually(
      'the store to answer again',
      async () => (await proxy.request('GET', '/consult/readyz')).status === 200,
      8000,
    );
    // It came back empty: the member signs in again (see 'Redis restarted empty').
    token = await proxy.session('alex');
    assert.equal((await read()).status, 200);
  });

  it('the elements’ client waits out a short outage: the 503 is retried after its Retry-After', async () => {
    const session = new SessionManager({ endpoint: proxy.url, signInBody: { demoUser: 'alex' } });
    try {
      await session.ready();
      const logged = proxy.logs.length;
      process.kill(redis.pid, 'SIGSTOP');
      const reading = session.client.getUser('usr_demo_alex');
      await eventually(
        'a 503 answered',
        () => proxy.logs.slice(logged).some((entry) => entry.status === 503),
        5000,
      ).finally(() => process.kill(redis.pid, 'SIGCONT'));
      assert.equal((await reading).id, 'usr_demo_alex');
      const statuses = proxy.logs
        .slice(logged)
        .filter((entry) => entry.message === 'request' && entry.path === '/consult/user/usr_demo_alex')
        .map((entry) => entry.status);
      assert.equal(statuses[0], 503);
      assert.equal(statuses.at(-1), 200);
    } finally {
      session.signOut();
    }
  });

  it('a stream whose set-up fails on the store gives its slot back; the failure is one JSON log line', async () => {
    token = await proxy.session('alex');
    // Redis pauses just as each stream reads where the member's events stand (after its sign-in
    // was checked, its slot taken and the stream begun).
    pauseOnEventRead = true;
    try {
      for (let i = 0; i < 4; i++) {
        const stream = await openEventStream(`${proxy.url}/events`, token);
        await eventually('the failed stream to end', () => stream.ended(), 5000);
        assert.equal(stream.events('ready').length, 0);
        process.kill(redis.pid, 'SIGCONT');
      }
    } finally {
      pauseOnEventRead = false;
      process.kill(redis.pid, 'SIGCONT');
    }
    await eventually('reads to be served again', async () => (await read()).status === 200, 5000);
    // Two slots (the cap here), both free once the releases that waited out the pause went
    // through (they are tried again every half second): two streams open.
    const streams: Awaited<ReturnType<typeof openEventStream>>[] = [];
    for (let i = 0; i < 2; i++) {
      streams.push(
        await eventually(
          'a slot to be given back',
          async () => {
            const stream = await openEventStream(`${proxy.url}/events`, token);
            if (stream.status === 200) return stream;
            stream.close();
            await sleep(100);
            return undefined;
          },
          3000,
        ),
      );
    }
    try {
      for (const stream of streams) {
        assert.equal(stream.status, 200);
        await stream.next((item) => item.event === 'ready');
      }
    } finally {
      for (const stream of streams) stream.close();
    }
    const failures = proxy.logs.filter((entry) => entry.message === 'store unavailable');
    assert.ok(failures.length > 0);
    for (const entry of failures) {
      const line = JSON.stringify(entry);
      assert.doesNotMatch(line, /usr_demo|faults:|session|GET|MGET|INCR|EVALSHA/i, line);
      assert.ok(['timeout', 'disconnected'].includes(String(entry.code)), line);
    }
  });
});

describe('Redis restarted empty', () => {
  let redis: TestRedis;
  let proxy: TestProxy;
  let store: RedisProxyStore;

  before(async () => {
    redis = await startRedis();
    store = new RedisProxyStore({ url: redis.url, prefix: 'emptied:' });
    proxy = await startTestProxy({ store, webhookSecret: WEBHOOK_SECRET, heartbeatMs: 200 });
  });
  after(async () => {
    await proxy?.close();
    await store?.close();
    await redis?.stop();
  });

  const deliver = () =>
    proxy.call(
      'POST',
      '/webhooks',
      signedDelivery({ type: 'questionResolved', caseId: 'cns_demo_alex_rash' }, WEBHOOK_SECRET),
    );
  const read = (token: string) => proxy.call('GET', '/user/usr_demo_alex', { token });

  it('refuses tokens from before (signed out or not), resets streams and Last-Event-IDs from before, never reuses an event id', async () => {
    const kept = await proxy.session('alex');
    const signedOut = await proxy.session('alex');
    assert.equal((await proxy.call('DELETE', '/session', { token: signedOut })).status, 204);
    assert.equal((await read(signedOut)).status, 401);

    const open = await openEventStream(`${proxy.url}/events`, kept);
    const idsBefore: string[] = [];
    try {
      await open.next((item) => item.event === 'ready');
      assert.equal((await deliver()).status, 200);
      assert.equal((await deliver()).status, 200);
      await eventually('two events', () => open.events('consultation').length === 2, 3000);
      idsBefore.push(...open.events('consultation').map((item) => item.id ?? ''));

      // Redis restarts with nothing in it.
      const { port } = redis;
      await redis.stop();
      redis = await startRedis({ port });
      await eventually(
        'the store to answer again',
        async () => {
          const ready = await proxy.request('GET', '/consult/readyz');
          return ready.status === 200;
        },
        8000,
      );

      // Every token from before is refused, the signed-out one above all: the member signs in again.
      assert.equal((await read(signedOut)).status, 401);
      assert.equal((await read(kept)).status, 401);
      const fresh = await proxy.session('alex');
      assert.equal((await read(fresh)).status, 200);

      // The stream open across the restart hears the next event after a reset, under a new id.
      await eventually(
        'the stream to hear events again',
        async () => {
          assert.equal((await deliver()).status, 200);
          return open.events('consultation').length > 2;
        },
        8000,
      );
      const resetAt = open.items.findIndex((item) => item.event === 'reset');
      const after = open.items.findIndex(
        (item, i) => i > 1 && item.event === 'consultation' && !idsBefore.includes(item.id ?? ''),
      );
      assert.ok(resetAt > 0 && resetAt < after, 'a reset before the first event of the new store');
      const idsAfter = open
        .events('consultation')
        .slice(2)
        .map((item) => item.id ?? '');
      for (const id of idsAfter) assert.ok(!idsBefore.includes(id), `${id} was used before`);

      // A stream coming back with a Last-Event-ID from before gets a reset and no replay.
      const back = await openEventStream(`${proxy.url}/events`, fresh, {
        'last-event-id': idsBefore[1] ?? '',
      });
      try {
        await back.next((item) => item.event === 'ready');
        await back.next((item) => item.event === 'reset', 3000);
        assert.deepEqual(back.events('consultation'), []);
      } finally {
        back.close();
      }
      // One from now replays what came after it.
      const from = await openEventStream(`${proxy.url}/events`, fresh, {
        'last-event-id': idsAfter[0] ?? '',
      });
      try {
        await from.next((item) => item.event === 'ready');
        assert.equal((await deliver()).status, 200);
        const next = await from.next((item) => item.event === 'consultation', 3000);
        assert.ok(!idsBefore.includes(next.id ?? '') && next.id !== idsAfter[0]);
        assert.deepEqual(from.events('reset'), []);
      } finally {
        from.close();
      }
    } finally {
      open.close();
    }
  });
  it('the elements’ session signs in again silently when its token is refused after the store came back empty', async () => {
    const session = new SessionManager({ endpoint: proxy.url, signInBody: { demoUser: 'alex' } });
    try {
      await session.ready();
      assert.equal((await session.client.getUser('usr_demo_alex')).id, 'usr_demo_alex');
      const signIns = () =>
        proxy.logs.filter((entry) => entry.message === 'request' && entry.path === '/consult/session').length;
      const before = signIns();

      const { port } = redis;
      await redis.stop();
      redis = await startRedis({ port });
      await eventually(
        'the store to answer again',
        async () => (await proxy.request('GET', '/consult/readyz')).status === 200,
        8000,
      );
      // Its token is from before: refused once, then a sign-in through the partner's
      // `authenticate`, then the read, all inside one call; the member sees nothing of it.
      assert.equal((await session.client.getUser('usr_demo_alex')).id, 'usr_demo_alex');
      assert.equal(signIns(), before + 1);
      assert.notEqual(session.status, 'expired');
      assert.equal((await session.client.getUser('usr_demo_alex')).id, 'usr_demo_alex');
      assert.equal(signIns(), before + 1, 'the new token goes on working');
    } finally {
      session.signOut();
    }
  });
});

describe('tokens from the future and bodies that are not UTF-8', () => {
  let redis: TestRedis;
  let proxy: TestProxy;
  let store: RedisProxyStore;

  before(async () => {
    redis = await startRedis();
    store = new RedisProxyStore({ url: redis.url, prefix: 'future:' });
    proxy = await startTestProxy({ store });
  });
  after(async () => {
    await proxy?.close();
    await store?.close();
    await redis?.stop();
  });

  const read = (token: string) => proxy.call('GET', '/user/usr_demo_alex', { token });

  it('a correctly signed token issued a year ahead is refused; one a few seconds ahead is not', async () => {
    const yearAhead = await proxy.mint('usr_demo_alex', 'alex', 600, Date.now() + 365 * 24 * 3600_000);
    assert.equal((await read(yearAhead)).status, 401);
    const twoMinutesAhead = await proxy.mint('usr_demo_alex', 'alex', 600, Date.now() + 120_000);
    assert.equal((await read(twoMinutesAhead)).status, 401);
    const slightlyAhead = await proxy.mint('usr_demo_alex', 'alex', 600, Date.now() + 20_000);
    assert.equal((await read(slightlyAhead)).status, 200);
  });

  it('a token not valid before a time beyond the skew is refused', async () => {
    const now = Math.floor(Date.now() / 1000);
    const payload = {
      sub: 'usr_demo_alex',
      uid: 'alex',
      aud: 'consult-widget',
      jti: 'tok-nbf-0001',
      its: Date.now(),
      iat: now,
      exp: now + 600,
    };
    const later = await sign({ ...payload, nbf: now + 300 }, proxy.secret, 'HS256');
    assert.equal((await read(later)).status, 401);
    const plain = await sign(payload, proxy.secret, 'HS256');
    assert.equal((await read(plain)).status, 200);
  });

  it('a question whose bytes are not UTF-8 is refused with 400, nothing sent upstream', async () => {
    const token = await proxy.session('alex');
    const mark = proxy.mark();
    const body = Buffer.concat([
      Buffer.from('{"questions":["Is this '),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from(' fine?"]}'),
    ]);
    const response = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const target = new URL(proxy.url);
      const req = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: 'POST',
          path: `${target.pathname}/consultation`,
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'content-length': String(body.length),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    assert.equal(response.status, 400);
    assert.equal(response.body.code, 'invalid_encoding');
    assert.deepEqual(proxy.upstreamCalls(mark), []);
  });
});

describe('stream caps across instances and per address', () => {
  let redis: TestRedis;
  let sandbox: TestSandbox;
  const proxies: TestProxy[] = [];
  const stores: RedisProxyStore[] = [];

  const instance = async (limits: Record<string, number>) => {
    const store = new RedisProxyStore({ url: redis.url, prefix: 'caps:' });
    stores.push(store);
    const proxy = await startTestProxy({ sandbox, store, heartbeatMs: 200, limits });
    proxies.push(proxy);
    return proxy;
  };

  before(async () => {
    redis = await startRedis();
    sandbox = await startTestSandbox({ professionals: { mode: 'manual' } });
  });
  after(async () => {
    for (const proxy of proxies) await proxy.close();
    for (const store of stores) await store.close();
    await sandbox?.close();
    await redis?.stop();
  });

  it('the per-member cap counts the member’s streams on every instance', async () => {
    const a = await instance({ streamsPerMember: 2 });
    const b = await instance({ streamsPerMember: 2 });
    const token = await a.session('alex');
    const first = await openEventStream(`${a.url}/events`, token);
    const second = await openEventStream(`${b.url}/events`, token);
    try {
      assert.equal(first.status, 200);
      assert.equal(second.status, 200);
      for (const proxy of [a, b]) {
        const third = await proxy.call('GET', '/events', { token });
        assert.equal(third.status, 429, third.text);
        assert.equal(third.body.code, 'too_many_streams');
      }
      // Another member is not counted with this one.
      const other = await openEventStream(`${b.url}/events`, await b.session('sam'));
      assert.equal(other.status, 200);
      other.close();
      // A closed stream gives its place back, to any instance.
      first.close();
      const again = await eventually(
        'a slot to free up',
        async () => {
          const stream = await openEventStream(`${b.url}/events`, token);
          if (stream.status === 200) return stream;
          stream.close();
          return undefined;
        },
        5000,
      );
      again.close();
    } finally {
      first.close();
      second.close();
    }
  });

  it('one address holds at most streamsPerAddress streams, whoever is signed in', async () => {
    const proxy = await instance({ streamsPerMember: 5, streamsPerAddress: 3 });
    const streams = [
      await openEventStream(`${proxy.url}/events`, await proxy.session('alex')),
      await openEventStream(`${proxy.url}/events`, await proxy.session('sam')),
      await openEventStream(`${proxy.url}/events`, await proxy.session('noor')),
    ];
    try {
      for (const stream of streams) assert.equal(stream.status, 200);
      const fourth = await proxy.call('GET', '/events', { token: await proxy.session('alex') });
      assert.equal(fourth.status, 429);
      assert.equal(fourth.body.code, 'too_many_streams');
      streams[0]?.close();
      await eventually(
        'the address to have room again',
        async () => {
          const stream = await openEventStream(`${proxy.url}/events`, await proxy.session('alex'));
          stream.close();
          return stream.status === 200;
        },
        5000,
      );
    } finally {
      for (const stream of streams) stream.close();
    }
  });
});

describe('a flood from one address behind a trusted balancer', () => {
  let redis: TestRedis;
  let sandbox: TestSandbox;
  const proxies: TestProxy[] = [];
  const stores: RedisProxyStore[] = [];

  const instance = async (trusted: string[]) => {
    const store = new RedisProxyStore({ url: redis.url, prefix: `flood-${trusted.join()}:` });
    stores.push(store);
    const proxy = await startTestProxy({
      sandbox,
      store,
      clientAddress: forwardedClientAddress(trusted),
      limits: { perAddressPerMinute: 20, failedSignInsPerAddressPerMinute: 5 },
    });
    proxies.push(proxy);
    return proxy;
  };
  const from = (address: string, token?: string) => ({
    ...(token ? { token } : {}),
    headers: { 'x-forwarded-for': `${address}, 127.0.0.1` },
  });

  before(async () => {
    redis = await startRedis();
    sandbox = await startTestSandbox({ professionals: { mode: 'manual' } });
  });
  after(async () => {
    for (const proxy of proxies) await proxy.close();
    for (const store of stores) await store.close();
    await sandbox?.close();
    await redis?.stop();
  });

  it('locks out the junk, not the members behind that address, on either instance', async () => {
    const a = await instance(['127.0.0.1']);
    const b = await instance(['127.0.0.1']);
    const token = await a.call('POST', '/session', { body: { demoUser: 'alex' }, ...from('203.0.113.5') });
    assert.equal(token.status, 200);
    // Junk and failed sign-ins from the address, spread over both instances.
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const proxy = i % 2 ? a : b;
      statuses.push((await proxy.call('GET', '/user/usr_demo_alex', from('203.0.113.5', 'junk'))).status);
      statuses.push((await proxy.call('POST', '/session', { body: {}, ...from('203.0.113.5') })).status);
    }
    assert.ok(statuses.includes(429), 'the junk is limited, across both instances');
    for (const proxy of [a, b]) {
      const read = await proxy.call('GET', '/user/usr_demo_alex', from('203.0.113.5', token.body.token));
      assert.equal(read.status, 200, 'a member behind the address reads on');
      const signIn = await proxy.call('POST', '/session', {
        body: { demoUser: 'sam' },
        ...from('203.0.113.5'),
      });
      assert.equal(signIn.status, 200, 'and signs in');
    }
    // Another address behind the same balancer is not limited.
    assert.equal((await a.call('GET', '/user/usr_demo_alex', from('203.0.113.6', 'junk'))).status, 401);
  });

  it('believes X-Forwarded-For only from a trusted peer', async () => {
    // The balancer is said to be 10.0.0.0/8; requests come from 127.0.0.1, which is not it, so the
    // header is the client's own claim and each "address" below is the same peer.
    const proxy = await instance(['10.0.0.0/8']);
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++)
      statuses.push((await proxy.call('GET', '/user/usr_demo_alex', from(`198.18.0.${i}`, 'junk'))).status);
    assert.ok(statuses.includes(429), 'a forged header does not spread one client over many addresses');
  });
});
