/**
 * What the proxy accepts from a browser, and how it answers: every response says `nosniff`,
 * bodies must be declared JSON (415 otherwise), a broken chunked body is the client's 400 (never a
 * 500 or an error log), and health checks are never rate limited.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { sign } from 'hono/jwt';
import { ALLOWED_ORIGIN, openEventStream, startTestProxy, type TestProxy } from './support/proxy.js';
import { signedDelivery } from './support/webhooks.js';

let proxy: TestProxy;

/** Sends `raw` as it is on a new socket and reads the whole answer. */
function sendRaw(origin: string, raw: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(raw));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer')));
  });
}

describe('what the proxy accepts, and how it answers', () => {
  before(async () => {
    proxy = await startTestProxy();
  });
  after(async () => proxy?.close());

  it('says no-store and nosniff on every answer: success, empty, refusal, error and stream', async () => {
    const token = await proxy.session('alex');
    const answers = [
      await proxy.call('GET', '/healthz'),
      await proxy.call('GET', '/consultation/cns_demo_alex_rash', { token }),
      await proxy.call('GET', '/consultation/cns_demo_alex_rash'),
      await proxy.call('GET', '/no/such/route', { token }),
      await proxy.call('POST', '/consultation', { token, body: { questions: [] } }),
      await proxy.call('POST', '/consultation', {
        token,
        rawBody: 'x'.repeat(70_000),
        headers: { 'content-type': 'application/json' },
      }),
      await proxy.call('GET', '/consultation/cns_demo_alex_rash', {
        token,
        headers: { origin: ALLOWED_ORIGIN },
      }),
      await proxy.call('DELETE', '/session', { token: await proxy.session('alex') }),
    ];
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [200, 200, 401, 404, 400, 413, 200, 204],
    );
    for (const answer of answers) {
      assert.equal(answer.headers.get('x-content-type-options'), 'nosniff', `status ${answer.status}`);
      assert.equal(answer.headers.get('cache-control'), 'no-store', `status ${answer.status}`);
    }
    const stream = await openEventStream(`${proxy.url}/events`, token);
    try {
      assert.equal(stream.headers.get('x-content-type-options'), 'nosniff');
      // The stream also tells intermediaries not to compress (and so hold back) what it writes.
      assert.equal(stream.headers.get('cache-control'), 'no-store, no-transform');
    } finally {
      stream.close();
    }
  });

  it('adds CORS headers to one answer only: the next same-origin answer carries none', async () => {
    const token = await proxy.session('alex');
    const read = '/consultation/cns_demo_alex_rash';
    const across = await proxy.call('GET', read, { token, headers: { origin: ALLOWED_ORIGIN } });
    assert.equal(across.headers.get('access-control-allow-origin'), ALLOWED_ORIGIN);
    const same = await proxy.call('GET', read, { token });
    assert.equal(same.status, 200);
    assert.equal(same.headers.get('access-control-allow-origin'), null);
    // Vary names what the answer depends on: the encoding, never the origin.
    assert.doesNotMatch(same.headers.get('vary') ?? '', /origin/i);
  });

  it('refuses a body that is not declared JSON with 415, before any upstream call', async () => {
    const token = await proxy.session('sam');
    const mark = proxy.mark();
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const answer = await proxy.call('POST', '/consultation', {
        token,
        rawBody: '{"questions":["Is this JSON?"]}',
        headers: { 'content-type': type, 'idempotency-key': 'not-json-0001' },
      });
      assert.equal(answer.status, 415, type);
      assert.equal(answer.body.code, 'unsupported_media_type');
    }
    const missing = await proxy.call('POST', '/consultation', {
      token,
      rawBody: '{"questions":["Is this JSON?"]}',
      headers: { 'idempotency-key': 'not-json-0002' },
    });
    assert.equal(missing.status, 415, 'no content-type at all');
    assert.equal(proxy.upstreamCalls(mark).length, 0);
    // JSON with a charset is JSON.
    const charset = await proxy.call('POST', '/consultation', {
      token,
      rawBody: '{"questions":["Is this JSON?"]}',
      headers: { 'content-type': 'application/json; charset=utf-8', 'idempotency-key': 'json-charset-01' },
    });
    assert.notEqual(charset.status, 415);
  });

  it('answers a broken chunked body with 400, and logs no error', async () => {
    const before = proxy.logs.length;
    const answer = await sendRaw(
      proxy.origin,
      [
        'POST /consult/session HTTP/1.1',
        `Host: ${new URL(proxy.origin).host}`,
        'Content-Type: application/json',
        'Transfer-Encoding: chunked',
        'Connection: close',
        '',
        'zz',
        '{}',
        '0',
        '',
        '',
      ].join('\r\n'),
    );
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.doesNotMatch(answer, /internal_error/);
    const errors = proxy.logs.slice(before).filter((entry) => entry.level === 'error');
    assert.deepEqual(errors, [], 'no error-level log line');
  });

  it('closes a connection whose body trickles in too slowly, with 408', async () => {
    const slow = await startTestProxy({
      sandbox: proxy.sandbox,
      timeouts: { headersMs: 500, requestMs: 800 },
    });
    try {
      const { hostname, port } = new URL(slow.origin);
      const started = Date.now();
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), hostname, () => {
          // Headers promise 100 bytes; only 10 ever come.
          socket.write(
            `POST /consult/session HTTP/1.1\r\nHost: ${hostname}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"a":"b",`,
          );
        });
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('error', reject);
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
        socket.setTimeout(10_000, () => socket.destroy(new Error('the server kept the connection open')));
      });
      assert.match(answer, /^HTTP\/1\.1 408 /);
      assert.ok(Date.now() - started < 5000, 'closed within seconds, not minutes');
    } finally {
      await slow.close();
    }
  });

  it('never rate limits health checks', async () => {
    const strict = await startTestProxy({ sandbox: proxy.sandbox, limits: { perAddressPerMinute: 5 } });
    try {
      const checks = await Promise.all(Array.from({ length: 12 }, () => strict.call('GET', '/healthz')));
      assert.deepEqual(
        [...new Set(checks.map((c) => c.status))],
        [200],
        'twelve checks in a moment, over a limit of five a minute',
      );
      // The limit itself still holds for everything else.
      const routes = await Promise.all(Array.from({ length: 8 }, () => strict.call('GET', '/no/such/route')));
      assert.ok(
        routes.some((r) => r.status === 429),
        'other requests are limited',
      );
    } finally {
      await strict.close();
    }
  });
});

describe('widget tokens', () => {
  let tokens: TestProxy;
  before(async () => {
    tokens = await startTestProxy({ widgetTokenTtlSeconds: 300 });
  });
  after(async () => tokens?.close());

  const read = (token: string) => tokens.call('GET', '/consultation/cns_demo_alex_rash', { token });
  const payloadOf = (token: string) =>
    JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;

  it('carry their own id and issue time', async () => {
    const first = payloadOf(await tokens.session('alex'));
    const second = payloadOf(await tokens.session('alex'));
    assert.equal(typeof first['jti'], 'string');
    assert.notEqual(first['jti'], second['jti'], 'every token its own id');
    assert.equal(typeof first['iat'], 'number');
    assert.equal((first['exp'] as number) - (first['iat'] as number), 300);
  });

  it('are refused when their lifetime is longer than the proxy allows, even correctly signed', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      sub: 'usr_demo_alex',
      uid: 'alex',
      aud: 'consult-widget',
      jti: 'hand-made-0001',
      iat: now,
    };
    const long = await sign({ ...claims, exp: now + 3600 }, tokens.secret, 'HS256');
    assert.equal((await read(long)).status, 401, 'an hour-long token');
    const withinLimit = await sign({ ...claims, exp: now + 300 }, tokens.secret, 'HS256');
    assert.equal((await read(withinLimit)).status, 200, 'the same token with the allowed lifetime');
    const { jti: _id, ...withoutId } = claims;
    const anonymous = await sign({ ...withoutId, exp: now + 300 }, tokens.secret, 'HS256');
    assert.equal((await read(anonymous)).status, 401, 'a token without an id');
  });
});

describe('rate limits', () => {
  it('slide: a burst at the end of one minute and one at the start of the next count together', async () => {
    const limited = await startTestProxy({ limits: { perMemberPerMinute: 20 } });
    const realNow = Date.now;
    try {
      const token = await limited.session('alex');
      // Just before the next full minute, then just after it.
      const boundary = realNow() - (realNow() % 60_000) + 60_000;
      Date.now = () => boundary - 500;
      const first = await Promise.all(
        Array.from({ length: 20 }, () => limited.call('GET', '/user/usr_demo_alex', { token })),
      );
      assert.deepEqual([...new Set(first.map((r) => r.status))], [200]);
      Date.now = () => boundary + 500;
      const second = await Promise.all(
        Array.from({ length: 20 }, () => limited.call('GET', '/user/usr_demo_alex', { token })),
      );
      assert.equal(
        second.filter((r) => r.status === 200).length,
        0,
        'a fixed window would have let 20 more through a second later',
      );
      const refused = second[0]!;
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) >= 50, 'wait until the burst leaves the window');
      // A minute after the first burst, the member may go on.
      Date.now = () => boundary + 60_000;
      assert.equal((await limited.call('GET', '/user/usr_demo_alex', { token })).status, 200);
    } finally {
      Date.now = realNow;
      await limited.close();
    }
  });
});

describe('limits for many members behind one address', () => {
  it('lets 100 members behind one address sign in within a minute', async () => {
    const office = await startTestProxy();
    try {
      const statuses: number[] = [];
      for (let batch = 0; batch < 10; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            office.call('POST', '/session', { body: { demoUser: `office-${batch}-${i}` } }),
          ),
        );
        statuses.push(...answers.map((a) => a.status));
      }
      assert.deepEqual([...new Set(statuses)], [200], 'every member signed in');
    } finally {
      await office.close();
    }
  });

  it('refuses forged webhooks with 401 however many come from one address, never a genuine one, and logs them a bounded number of times', async () => {
    const secret = `whsec_${Buffer.from('x'.repeat(24)).toString('base64')}`;
    // The old per-address webhook limit, set low: it no longer counts anything.
    const hooks = await startTestProxy({
      webhookSecret: secret,
      limits: { webhooksPerAddressPerMinute: 10 },
    });
    try {
      const before = hooks.logs.length;
      const forged = () =>
        hooks.call('POST', '/webhooks', {
          headers: {
            'content-type': 'application/json',
            'webhook-id': 'msg_forged',
            'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
            'webhook-signature': 'v1,Zm9yZ2Vk',
          },
          rawBody: '{"type":"questionResolved","caseId":"cns_demo_alex_rash","userId":"usr_demo_alex"}',
        });
      const statuses: number[] = [];
      for (let i = 0; i < 15; i++) statuses.push((await forged()).status);
      assert.deepEqual(statuses, Array(15).fill(401), 'every forged one refused for its signature');
      // After the flood, from the same address, genuine deliveries are handled: 15 of them, past the old limit.
      const genuine: number[] = [];
      for (let i = 0; i < 15; i++) {
        const delivery = signedDelivery(
          { type: 'questionResolved', caseId: 'cns_demo_alex_rash', userId: 'usr_demo_alex' },
          secret,
        );
        genuine.push((await hooks.call('POST', '/webhooks', delivery)).status);
      }
      assert.deepEqual(genuine, Array(15).fill(200));
      const refusals = hooks.logs
        .slice(before)
        .filter((entry) => entry.message === 'webhook signature rejected');
      assert.equal(refusals.length, 1, 'fifteen refusals, one log line');
    } finally {
      await hooks.close();
    }
  });
});
