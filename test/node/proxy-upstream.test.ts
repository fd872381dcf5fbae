/**
 * The proxy as the upstream's client: S7 (the access token lives in memory, refresh is
 * single-flight, one refresh and one retry on 401, tokens never logged), S1 (no secret reaches a
 * browser), S14 (idempotent creates), S17 (logs and error bodies), and how upstream errors reach
 * the browser.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO_USER_IDS } from '../../src/sandbox/seed.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';
import {
  openEventStream,
  sleep,
  startTestProxy,
  type ProxyResponse,
  type TestProxy,
} from './support/proxy.js';

const ALEX = DEMO_USER_IDS.alex;
const TOKEN_PATH = '/partner/authorization/token';
const API_KEY_CANARY = 'canary-api-key-XYZ-7f3a9c1e5b-do-not-leak';

const urlOf = (input: RequestInfo | URL): URL =>
  new URL(input instanceof Request ? input.url : String(input));

/** A fetch for the proxy's upstream calls that records every access token it sends. */
function recordingFetch(seen: Set<string>): typeof fetch {
  return (input, init) => {
    const authorization = new Headers(init?.headers).get('authorization');
    const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    if (token) seen.add(token);
    return fetch(input, init);
  };
}

let sandbox: TestSandbox;
const proxies: TestProxy[] = [];

before(async () => {
  sandbox = await startTestSandbox({ apiKeys: [API_KEY_CANARY] });
});

after(async () => {
  for (const proxy of proxies) await proxy.close();
  await sandbox?.close();
});

async function proxyWith(options: Parameters<typeof startTestProxy>[0] = {}): Promise<TestProxy> {
  const proxy = await startTestProxy({ sandbox, ...options });
  proxies.push(proxy);
  return proxy;
}

describe('S7: the upstream access token', () => {
  it('50 concurrent calls across an expiry: exactly one new token request, 50 successes', async () => {
    const proxy = await proxyWith();
    const token = await proxy.session('alex');
    const first = await proxy.call('GET', '/consultation/cns_demo_alex_rash', { token });
    assert.equal(first.status, 200);

    // The upstream's clock moves past the access token's expiry; the proxy does not know.
    await sandbox.control('/clock', { advanceMs: 2 * 60 * 60 * 1000 });
    const since = proxy.mark();
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        proxy.call('GET', i % 2 ? '/consultation/cns_demo_alex_rash' : `/user/${ALEX}/case-history`, {
          token,
        }),
      ),
    );
    assert.deepEqual(
      responses.map((r) => r.status),
      Array.from({ length: 50 }, () => 200),
    );
    const calls = proxy.upstreamCalls(since);
    const tokenRequests = calls.filter((c) => c.path === TOKEN_PATH);
    assert.equal(tokenRequests.length, 1, `token requests: ${JSON.stringify(tokenRequests)}`);
    assert.equal(tokenRequests[0]?.status, 200);
    // The expiry path ran (the upstream refused the old token), and no call was refused twice.
    const refused = calls.filter((c) => c.status === 401);
    assert.ok(refused.length >= 1 && refused.length <= 50, `${refused.length} refusals`);
    assert.equal(calls.filter((c) => c.path !== TOKEN_PATH && c.status === 200).length, 50);
  });

  it('a second 401 → 502, with one refresh and one retry, never a loop', async () => {
    let tokenRequests = 0;
    let attempts = 0;
    const seen = new Set<string>();
    const alwaysRefused: typeof fetch = async (input, init) => {
      if (urlOf(input).pathname === TOKEN_PATH) {
        tokenRequests++;
        const response = await fetch(input, init);
        const text = await response.text();
        seen.add((JSON.parse(text) as { accessToken: string }).accessToken);
        return new Response(text, { status: response.status, headers: response.headers });
      }
      attempts++;
      // An upstream that echoes what it was sent: none of it may reach the browser.
      const authorization = new Headers(init?.headers).get('authorization') ?? '';
      return new Response(
        JSON.stringify({
          type: 'about:blank',
          title: 'Unauthorized',
          status: 401,
          code: 'invalid_token',
          detail: `Token ${authorization} rejected for key ${API_KEY_CANARY} at db-shard-7.internal`,
        }),
        { status: 401, headers: { 'content-type': 'application/problem+json' } },
      );
    };
    const proxy = await proxyWith({ fetch: alwaysRefused });
    // The sign-in itself would be refused upstream: mint the widget token directly.
    const token = await proxy.mint(ALEX, 'alex');
    const response = await proxy.call('GET', '/consultation/cns_demo_alex_rash', { token });
    assert.equal(response.status, 502, response.text);
    assert.equal(response.body.code, 'upstream_failed');
    assert.equal(tokenRequests, 2, 'the first token and one refresh');
    assert.equal(attempts, 2, 'the call and one retry');
    for (const secret of [API_KEY_CANARY, 'db-shard-7', 'invalid_token', ...seen]) {
      assert.ok(!response.text.includes(secret), `the browser saw "${secret}"`);
    }
    // A later call does not loop either: at most one more refresh and one more retry.
    const again = await proxy.call('GET', `/user/${ALEX}/case-history`, { token });
    assert.equal(again.status, 502);
    assert.ok(tokenRequests <= 4 && attempts <= 4, `${tokenRequests} token requests, ${attempts} attempts`);
  });

  it('the log holds no access token, API key, widget token or question text (S17)', async () => {
    const accessTokens = new Set<string>();
    const console_ = { log: console.log, info: console.info, warn: console.warn, error: console.error };
    const printed: string[] = [];
    const capture = (...args: unknown[]): void => {
      printed.push(args.map((a) => (typeof a === 'string' ? a : (JSON.stringify(a) ?? String(a)))).join(' '));
    };
    Object.assign(console, { log: capture, info: capture, warn: capture, error: capture });
    let widgetTokens: string[] = [];
    const question = 'QUESTION-CANARY: a private worry about a mole on my back';
    let proxy!: TestProxy;
    try {
      proxy = await proxyWith({ fetch: recordingFetch(accessTokens) });
      const alex = await proxy.session('alex');
      const sam = await proxy.session('sam');
      widgetTokens = [alex, sam];
      const created = await proxy.call('POST', '/consultation', {
        token: alex,
        body: { questions: [question] },
        headers: { 'idempotency-key': 'log-test-key-0001' },
      });
      assert.equal(created.status, 201);
      await proxy.call('POST', `/consultation/${created.body.consultationId}`, {
        token: alex,
        body: { question: `${question} (follow-up)` },
      });
      await proxy.call('POST', '/consultation', { token: sam, body: { questions: [question] } });
      await proxy.call('POST', '/consultation', {
        token: alex,
        body: { questions: [question], extra: question },
      });
      await proxy.call('GET', '/consultation/cns_demo_noor_fever', { token: alex });
      await proxy.call('GET', `/user/${ALEX}`, { token: `${alex}x` });
      // Upstream failures are logged too.
      await sandbox.control('/faults', { errorRate: 1 });
      try {
        await proxy.call('GET', `/user/${ALEX}/case-history`, { token: alex });
      } finally {
        await sandbox.control('/faults', { errorRate: 0 });
      }
    } finally {
      Object.assign(console, console_);
    }
    assert.ok(proxy.logs.length >= 8, 'the proxy logged its requests');
    assert.ok(accessTokens.size >= 1, 'an access token was used');
    const everything = [...proxy.logs.map((entry) => JSON.stringify(entry)), ...printed].join('\n');
    for (const secret of [API_KEY_CANARY, ...accessTokens, ...widgetTokens, question, 'QUESTION-CANARY']) {
      assert.ok(!everything.includes(secret), `the log holds "${secret.slice(0, 24)}…"`);
    }
    for (const entry of proxy.logs) {
      const allowed = ['level', 'message', 'method', 'path', 'status', 'durationMs', 'userId', 'code'];
      for (const key of Object.keys(entry)) assert.ok(allowed.includes(key), `log field ${key}`);
    }
  });
});

describe('S1: no secret reaches the browser', () => {
  it('a full flow’s responses and headers hold neither the API key nor the access token', async () => {
    const accessTokens = new Set<string>();
    const proxy = await proxyWith({ fetch: recordingFetch(accessTokens), heartbeatMs: 50 });
    const wire: string[] = [];
    const keep = (response: ProxyResponse): ProxyResponse => {
      wire.push(`${response.status}\n${JSON.stringify([...response.headers])}\n${response.text}`);
      return response;
    };
    const session = keep(await proxy.call('POST', '/session', { body: { demoUser: 'alex' } }));
    assert.equal(session.status, 200);
    const token: string = session.body.token;
    const stream = await openEventStream(`${proxy.url}/events`, token);
    await stream.next((item) => item.event === 'ready');

    const history = keep(await proxy.call('GET', `/user/${ALEX}/case-history`, { token }));
    assert.equal(history.status, 200);
    const created = keep(
      await proxy.call('POST', '/consultation', {
        token,
        body: { questions: ['Is it fine to run with a mild cold?'] },
        headers: { 'idempotency-key': 's1-flow-create-0001' },
      }),
    );
    assert.equal(created.status, 201);
    const id: string = created.body.consultationId;
    keep(await proxy.call('GET', `/consultation/${id}`, { token }));
    const followUp = keep(
      await proxy.call('POST', `/consultation/${id}`, {
        token,
        body: { question: 'And with a fever?' },
        headers: { 'idempotency-key': 's1-flow-follow-0001' },
      }),
    );
    assert.equal(followUp.status, 200);
    const conversation = keep(
      await proxy.call('POST', `/v2/health-navigator/users/${ALEX}/conversations`, { token, body: {} }),
    );
    assert.equal(conversation.status, 201);
    const message = keep(
      await proxy.call('POST', '/v2/health-navigator/messages', {
        token,
        body: { conversationId: conversation.body.conversationId, message: 'I have chest pain' },
      }),
    );
    assert.equal(message.status, 200);
    const prescription = keep(
      await proxy.call('POST', '/prescription', { token, body: { indicationSurvey: { repeat: true } } }),
    );
    assert.equal(prescription.status, 201);
    keep(await proxy.call('GET', `/user/${ALEX}`, { token }));
    keep(await proxy.call('GET', `/user/${ALEX}/subscriptions`, { token }));
    keep(await proxy.call('GET', '/consultation/cns_demo_noor_fever', { token }));
    keep(await proxy.call('GET', '/healthz'));
    await stream.next((item) => item.comment === 'heartbeat');
    stream.close();
    wire.push(`${stream.status}\n${JSON.stringify([...stream.headers])}\n${stream.text()}`);

    assert.ok(accessTokens.size >= 1, 'the proxy used an access token');
    const everything = [...wire, ...proxy.wire].join('\n');
    assert.ok(everything.includes(id), 'the flow’s responses were collected');
    for (const secret of [API_KEY_CANARY, ...accessTokens]) {
      assert.ok(!everything.includes(secret), `a browser response holds "${secret.slice(0, 12)}…"`);
    }
    assert.doesNotMatch(everything, /accessToken|apiKey/i);
  });
});

describe('S14: creates are idempotent', () => {
  let proxy: TestProxy;
  let alex: string;
  let noor: string;

  before(async () => {
    proxy = await proxyWith();
    alex = await proxy.session('alex');
    noor = await proxy.session('noor');
  });

  const create = (token: string, key: string, questions: string[]) =>
    proxy.call('POST', '/consultation', { token, body: { questions }, headers: { 'idempotency-key': key } });
  const creates = (since: number) =>
    proxy.upstreamCalls(since).filter((c) => c.method === 'POST' && c.path === '/consultation');

  it('5 concurrent POSTs with one key: one consultation, one upstream create', async () => {
    const since = proxy.mark();
    const key = 'concurrent-key-0001';
    // Five tabs, a millisecond apart: each arrives while the others are at a different step.
    const responses = await Promise.all(
      Array.from({ length: 5 }, async (_, i) => {
        await sleep(i);
        return create(alex, key, ['Five tabs, one question.']);
      }),
    );
    assert.deepEqual(
      responses.map((r) => r.status),
      [201, 201, 201, 201, 201],
    );
    const ids = new Set(responses.map((r) => r.body.consultationId as string));
    assert.equal(ids.size, 1, `consultations: ${[...ids].join(', ')}`);
    assert.equal(creates(since).length, 1, JSON.stringify(creates(since)));

    // A retry after completion: the same outcome, no new upstream create.
    const retry = await create(alex, key, ['Five tabs, one question.']);
    assert.equal(retry.status, 201);
    assert.equal(retry.body.consultationId, [...ids][0]);
    assert.equal(creates(since).length, 1);
    const history = await proxy.call('GET', `/user/${ALEX}/case-history`, { token: alex });
    assert.equal(
      history.body.filter(
        (c: { questions: { question: string }[] }) => c.questions[0]?.question === 'Five tabs, one question.',
      ).length,
      1,
    );
  });

  it('the same key with another body → 422, no upstream call', async () => {
    const key = 'reused-key-0001';
    const first = await create(alex, key, ['The first question.']);
    assert.equal(first.status, 201);
    const since = proxy.mark();
    const reused = await create(alex, key, ['A different question.']);
    assert.equal(reused.status, 422, reused.text);
    assert.equal(reused.body.code, 'idempotency_key_reused');
    assert.deepEqual(proxy.upstreamCalls(since), []);
    // …also while the first one is still in flight.
    const key2 = 'reused-key-0002';
    const [a, b] = await Promise.all([create(alex, key2, ['One.']), create(alex, key2, ['Two.'])]);
    assert.deepEqual([a.status, b.status].sort(), [201, 422]);
  });

  it('different members may use the same key independently', async () => {
    const since = proxy.mark();
    const key = 'shared-key-0001';
    const [forAlex, forNoor] = await Promise.all([
      create(alex, key, ['Same key, same words.']),
      create(noor, key, ['Same key, same words.']),
    ]);
    assert.equal(forAlex.status, 201, forAlex.text);
    assert.equal(forNoor.status, 201, forNoor.text);
    assert.equal(forAlex.body.userId, ALEX);
    assert.equal(forNoor.body.userId, DEMO_USER_IDS.noor);
    assert.notEqual(forAlex.body.consultationId, forNoor.body.consultationId);
    const upstream = creates(since);
    assert.equal(upstream.length, 2);
    assert.notEqual(upstream[0]?.idempotencyKey, upstream[1]?.idempotencyKey, 'upstream keys are per member');
    assert.ok(upstream.every((c) => c.idempotencyKey && !c.idempotencyKey.includes(key)));
  });

  it('follow-ups, messages and prescriptions with a repeated key make one upstream call each', async () => {
    const created = await create(alex, 'followup-parent-0001', ['Parent question.']);
    const id: string = created.body.consultationId;
    const conversation = await proxy.call('POST', `/v2/health-navigator/users/${ALEX}/conversations`, {
      token: alex,
      body: {},
    });
    const conversationId: string = conversation.body.conversationId;
    const since = proxy.mark();
    const twice = async (path: string, body: unknown, key: string) => {
      const options = { token: alex, body, headers: { 'idempotency-key': key } };
      const [x, y] = await Promise.all([
        proxy.call('POST', path, options),
        proxy.call('POST', path, options),
      ]);
      const z = await proxy.call('POST', path, options);
      assert.equal(x.status, y.status, `${path}: ${x.text} ${y.text}`);
      assert.ok(x.status < 300, `${path}: ${x.text}`);
      assert.deepEqual(x.body, y.body);
      assert.deepEqual(x.body, z.body);
    };
    await twice(`/consultation/${id}`, { question: 'Once only?' }, 'followup-key-0001');
    await twice(
      '/v2/health-navigator/messages',
      { conversationId, message: 'Once only?' },
      'message-key-0001',
    );
    await twice('/prescription', { indicationSurvey: { once: true } }, 'prescription-key-0001');
    const posts = proxy.upstreamCalls(since).filter((c) => c.method === 'POST');
    assert.deepEqual(
      posts.map((c) => c.path).sort(),
      ['/consultation/' + id, '/prescription', '/v2/health-navigator/messages'].sort(),
    );
  });
});

describe('upstream errors reach the browser in our words', () => {
  let proxy: TestProxy;
  let alex: string;

  before(async () => {
    proxy = await proxyWith();
    alex = await proxy.session('alex');
  });

  it('a 4th question → 409 question_limit_reached', async () => {
    const created = await proxy.call('POST', '/consultation', {
      token: alex,
      body: { questions: ['One?', 'Two?', 'Three?'] },
    });
    assert.equal(created.status, 201);
    const response = await proxy.call('POST', `/consultation/${created.body.consultationId}`, {
      token: alex,
      body: { question: 'Four?' },
    });
    assert.equal(response.status, 409, response.text);
    assert.deepEqual(response.body, {
      type: 'about:blank',
      title: 'Question limit reached',
      status: 409,
      detail: 'A consultation holds at most 3 questions.',
      code: 'question_limit_reached',
    });
  });

  it('a follow-up on a closed case → 409 consultation_closed', async () => {
    const response = await proxy.call('POST', '/consultation/cns_demo_alex_sleep', {
      token: alex,
      body: { question: 'Can I ask one more?' },
    });
    assert.equal(response.status, 409, response.text);
    assert.equal(response.body.code, 'consultation_closed');
    assert.equal(response.body.title, 'Consultation closed');
  });

  it('sam (no active subscription) creating a consultation → 403 subscription_required', async () => {
    const sam = await proxy.session('sam');
    const response = await proxy.call('POST', '/consultation', {
      token: sam,
      body: { questions: ['Can I ask without a subscription?'] },
    });
    assert.equal(response.status, 403, response.text);
    assert.deepEqual(response.body, {
      type: 'about:blank',
      title: 'No active subscription',
      status: 403,
      detail: 'An active subscription is needed to ask a doctor.',
      code: 'subscription_required',
    });
  });

  it('an upstream failing every call → 502 with no upstream internals', async () => {
    await sandbox.control('/faults', { errorRate: 1 });
    try {
      for (const [method, path, body] of [
        ['GET', `/user/${ALEX}/case-history`, undefined],
        ['GET', '/consultation/cns_demo_alex_rash', undefined],
        ['POST', '/consultation', { questions: ['During an outage?'] }],
      ] as const) {
        const response = await proxy.call(method, path, { token: alex, ...(body ? { body } : {}) });
        assert.equal(response.status, 502, `${method} ${path}: ${response.text}`);
        assert.equal(response.body.code, 'upstream_failed');
        assert.doesNotMatch(response.text, /sandbox|fault|injected|503/i);
        assert.deepEqual(Object.keys(response.body).sort(), ['code', 'detail', 'status', 'title', 'type']);
      }
    } finally {
      await sandbox.control('/faults', { errorRate: 0 });
    }
  });
});
