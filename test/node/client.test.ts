import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, ConsultClient, OPERATIONS, newIdempotencyKey } from '../../src/client/index.js';
import type { OperationName, RequestOptions } from '../../src/client/index.js';
import { json, ok, problem, rejection, scriptedFetch } from './client-fixtures.js';

const BASE = 'https://api.example.test/base';

function client(fetch: ReturnType<typeof scriptedFetch>['fetch'], extra: { retries?: number } = {}) {
  return new ConsultClient({
    baseUrl: BASE,
    fetch,
    tokenProvider: async () => ({ token: 'tok-1', expiresAt: Date.now() + 3_600_000 }),
    retry: { retries: extra.retries ?? 0 },
  });
}

interface Case {
  name: OperationName;
  call: (c: ConsultClient, options?: RequestOptions) => Promise<unknown>;
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  response?: unknown;
}

const user = {
  id: 'u1',
  language: 'en',
  location: 'GB',
  origin: 'GB',
  physicianCountry: 'GB',
  partnerName: 'p',
};
const consultation = {
  consultationId: 'c1',
  userId: 'u1',
  status: 'open',
  createdAt: '2025-01-01',
  questions: [],
};
const subscription = { subscriptionId: 's1', userId: 'u1', active: 1 };

const CASES: Case[] = [
  {
    name: 'createAccessToken',
    call: (c, o) => c.createAccessToken({ apiKey: 'k', subPartnerName: 'sp' }, o),
    path: '/partner/authorization/token',
    body: { apiKey: 'k', subPartnerName: 'sp' },
    response: { accessToken: 'a', tokenType: 'Bearer', expiresIn: 3600 },
  },
  {
    name: 'createUser',
    call: (c, o) => c.createUser({ uniqueId: 'm-1', email: 'a@b.test' }, o),
    path: '/user',
    body: { uniqueId: 'm-1', email: 'a@b.test' },
    response: user,
  },
  { name: 'getUser', call: (c, o) => c.getUser('u1', o), path: '/user/u1', response: user },
  {
    name: 'updateUser',
    call: (c, o) => c.updateUser('u1', { language: 'fr' }, o),
    path: '/user/u1',
    body: { language: 'fr' },
    response: user,
  },
  {
    name: 'searchUsersByQuery',
    call: (c, o) => c.searchUsersByQuery('m 1&x=2', o),
    path: '/user/search',
    query: { uniqueId: 'm 1&x=2' },
    response: [user],
  },
  {
    name: 'searchUsersByBody',
    call: (c, o) => c.searchUsersByBody({ email: 'a@b.test' }, o),
    path: '/user/search',
    body: { email: 'a@b.test' },
    response: [user],
  },
  {
    name: 'createSubscription',
    call: (c, o) => c.createSubscription('u1', undefined, o),
    path: '/user/u1/subscription',
    body: {},
    response: subscription,
  },
  {
    name: 'getUserSubscriptions',
    call: (c, o) => c.getUserSubscriptions('u1', o),
    path: '/user/u1/subscriptions',
    response: [subscription],
  },
  {
    name: 'getSubscription',
    call: (c, o) => c.getSubscription('u1', 's1', o),
    path: '/user/u1/subscription/s1',
    response: subscription,
  },
  {
    name: 'getSubscriptionHistory',
    call: (c, o) => c.getSubscriptionHistory('u1', 's1', o),
    path: '/user/u1/subscription/s1/history',
    response: [subscription],
  },
  {
    name: 'createConsultation',
    call: (c, o) => c.createConsultation({ userId: 'u1', questions: ['Why?'] }, o),
    path: '/consultation',
    body: { userId: 'u1', questions: ['Why?'] },
    response: consultation,
  },
  {
    name: 'getConsultation',
    call: (c, o) => c.getConsultation('c1', o),
    path: '/consultation/c1',
    response: consultation,
  },
  {
    name: 'addConsultationFollowUp',
    call: (c, o) => c.addConsultationFollowUp('c1', { question: 'And?' }, o),
    path: '/consultation/c1',
    body: { question: 'And?' },
    response: consultation,
  },
  {
    name: 'getCaseHistory',
    call: (c, o) => c.getCaseHistory('u1', o),
    path: '/user/u1/case-history',
    response: [consultation],
  },
  {
    name: 'createWebhook',
    call: (c, o) => c.createWebhook({ url: 'https://p.test/hook', events: ['questionResolved'] }, o),
    path: '/webhook',
    body: { url: 'https://p.test/hook', events: ['questionResolved'] },
    response: { webhookId: 'w1', url: 'https://p.test/hook', events: ['questionResolved'], createdAt: 'x' },
  },
  { name: 'deleteWebhook', call: (c, o) => c.deleteWebhook('w1', o), path: '/webhook/w1' },
  {
    name: 'formatWebhookEvent',
    call: (c, o) => c.formatWebhookEvent({ anything: [1, { nested: true }] }, o),
    path: '/webhook/format-event',
    body: { anything: [1, { nested: true }] },
    response: { type: 'questionResolved', caseId: 'c1', userId: 'u1' },
  },
  {
    name: 'startNavigatorConversation',
    call: (c, o) => c.startNavigatorConversation('u1', undefined, o),
    path: '/v2/health-navigator/users/u1/conversations',
    body: {},
    response: { conversationId: 'n1', userId: 'u1', createdAt: 'x', messages: [] },
  },
  {
    name: 'sendNavigatorMessage',
    call: (c, o) => c.sendNavigatorMessage({ conversationId: 'n1', message: 'Hi' }, o),
    path: '/v2/health-navigator/messages',
    body: { conversationId: 'n1', message: 'Hi' },
    response: { conversationId: 'n1', messages: [] },
  },
  {
    name: 'createPrescriptionRequest',
    call: (c, o) => c.createPrescriptionRequest({ userId: 'u1', indicationSurvey: { q: 'a' } }, o),
    path: '/prescription',
    body: { userId: 'u1', indicationSurvey: { q: 'a' } },
    response: { prescriptionId: 'p1', userId: 'u1', status: 'received', createdAt: 'x' },
  },
];

const SPEC_METHODS = [
  'POST',
  'POST',
  'GET',
  'PUT',
  'GET',
  'POST',
  'POST',
  'GET',
  'GET',
  'GET',
  'POST',
  'GET',
  'POST',
  'GET',
  'POST',
  'DELETE',
  'POST',
  'POST',
  'POST',
  'POST',
];

describe('OPERATIONS', () => {
  it('lists the 20 spec operations in order, with the spec methods', () => {
    assert.equal(OPERATIONS.length, 20);
    assert.deepEqual(
      OPERATIONS.map((op) => op.number),
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    assert.deepEqual(
      OPERATIONS.map((op) => op.method),
      SPEC_METHODS,
    );
    assert.deepEqual(
      CASES.map((c) => c.name),
      OPERATIONS.map((op) => op.name),
    );
  });

  it('marks the eight creates, and the token operation as the only one without auth', () => {
    assert.deepEqual(
      OPERATIONS.filter((op) => op.creates).map((op) => op.name),
      [
        'createUser',
        'createSubscription',
        'createConsultation',
        'addConsultationFollowUp',
        'createWebhook',
        'startNavigatorConversation',
        'sendNavigatorMessage',
        'createPrescriptionRequest',
      ],
    );
    assert.deepEqual(
      OPERATIONS.filter((op) => !op.auth).map((op) => op.name),
      ['createAccessToken'],
    );
    // Every operation that is not a create is safe to repeat by nature; no create is.
    for (const op of OPERATIONS) assert.equal(op.retrySafe, !op.creates, op.name);
  });
});

describe('every operation', () => {
  for (const [index, c] of CASES.entries()) {
    const op = OPERATIONS[index]!;
    it(`${c.name}: ${op.method} ${op.path} sends what the spec says and returns the body`, async () => {
      const response = c.response === undefined ? new Response(null, { status: 204 }) : json(200, c.response);
      const { fetch, requests } = scriptedFetch([response]);
      const result = await c.call(client(fetch));

      assert.equal(requests.length, 1);
      const request = requests[0]!;
      assert.equal(request.method, op.method);
      assert.equal(request.url.origin, 'https://api.example.test');
      assert.equal(request.url.pathname, `/base${c.path}`);
      assert.deepEqual(Object.fromEntries(request.url.searchParams), c.query ?? {});
      assert.deepEqual(request.body, c.body);
      assert.equal(request.headers.get('content-type'), c.body === undefined ? null : 'application/json');
      assert.match(request.headers.get('accept') ?? '', /application\/json/);
      assert.equal(request.headers.get('authorization'), op.auth ? 'Bearer tok-1' : null);
      const key = request.headers.get('idempotency-key');
      if (op.creates) assert.match(key ?? '', /^[0-9a-f-]{36}$/);
      else assert.equal(key, null);
      assert.deepEqual(result, c.response);
    });
  }

  it('uses the caller’s Idempotency-Key when given, and a fresh one per call otherwise', async () => {
    const { fetch, requests } = scriptedFetch([], ok(consultation));
    const c = client(fetch);
    await c.createConsultation({ userId: 'u1', questions: ['a'] }, { idempotencyKey: 'draft-42' });
    await c.createConsultation({ userId: 'u1', questions: ['a'] });
    await c.createConsultation({ userId: 'u1', questions: ['a'] });
    const keys = requests.map((r) => r.headers.get('idempotency-key'));
    assert.equal(keys[0], 'draft-42');
    assert.notEqual(keys[1], keys[2]);
  });

  it('ignores an idempotencyKey on a read', async () => {
    const { fetch, requests } = scriptedFetch([json(200, user)]);
    await client(fetch).getUser('u1', { idempotencyKey: 'nope' });
    assert.equal(requests[0]!.headers.get('idempotency-key'), null);
  });
});

describe('paths', () => {
  it('encodes path parameters so that an id cannot change the path', async () => {
    const { fetch, requests } = scriptedFetch([], ok(subscription));
    const c = client(fetch);
    await c.getUser('../x');
    await c.getSubscription('a/b?c#d', '%2e%2e');
    assert.equal(requests[0]!.url.pathname, '/base/user/..%2Fx');
    assert.equal(requests[1]!.url.pathname, '/base/user/a%2Fb%3Fc%23d/subscription/%252e%252e');
    assert.equal(requests[1]!.url.search, '');
  });

  it('refuses empty, "." and ".." ids without calling the server', async () => {
    const { fetch, requests } = scriptedFetch([], ok());
    const c = client(fetch);
    for (const id of ['', '.', '..']) {
      const error = await rejection(c.getConsultation(id));
      assert.ok(error instanceof TypeError);
      assert.match(error.message, /consultationId/);
    }
    assert.equal(requests.length, 0);
  });

  it('resolves a relative baseUrl against the page location', async () => {
    const g = globalThis as { location?: unknown };
    g.location = { href: 'https://portal.example/members/home?x=1' };
    try {
      const { fetch, requests } = scriptedFetch([json(200, user)]);
      const c = new ConsultClient({ baseUrl: '/consult/', fetch });
      await c.getUser('u1');
      assert.equal(requests[0]!.url.href, 'https://portal.example/consult/user/u1');
    } finally {
      delete g.location;
    }
  });

  it('explains a relative baseUrl with no page to resolve it', () => {
    assert.throws(() => new ConsultClient({ baseUrl: '/consult' }), /baseUrl "\/consult"/);
  });

  it('calls the global fetch as a plain function, not as a method of the client', async () => {
    const original = globalThis.fetch;
    const receivers: unknown[] = [];
    globalThis.fetch = function (this: unknown) {
      receivers.push(this);
      return Promise.resolve(json(200, user));
    } as typeof fetch;
    try {
      const c = new ConsultClient({ baseUrl: BASE });
      await c.getUser('u1');
      assert.equal(receivers.length, 1);
      assert.ok(receivers[0] === globalThis || receivers[0] === undefined);
    } finally {
      globalThis.fetch = original;
    }
  });

  it('sends no Authorization at all when it has no credentials, and the 401 comes back as is', async () => {
    const { fetch, requests } = scriptedFetch([problem(401, { code: 'unauthorized' })]);
    const error = await rejection(new ConsultClient({ baseUrl: BASE, fetch }).getUser('u1'));
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 401);
    assert.equal(requests.length, 1);
    assert.equal(requests[0]!.headers.get('authorization'), null);
  });

  it('refuses both tokenProvider and apiKey', () => {
    assert.throws(
      () =>
        new ConsultClient({
          baseUrl: BASE,
          apiKey: 'k',
          tokenProvider: async () => ({ token: 't', expiresAt: 0 }),
        } as never),
      /either tokenProvider or apiKey/,
    );
  });
});

describe('responses', () => {
  it('resolves 204 and an empty 200 body to undefined', async () => {
    const { fetch } = scriptedFetch([new Response(null, { status: 204 }), new Response('', { status: 200 })]);
    const c = client(fetch);
    assert.equal(await c.deleteWebhook('w1'), undefined);
    assert.equal(await c.deleteWebhook('w2'), undefined);
  });

  it('maps a 2xx body that is not JSON to an ApiError instead of crashing', async () => {
    const { fetch } = scriptedFetch([new Response('<html>', { status: 200 })]);
    const error = await rejection(client(fetch).getUser('u1'));
    assert.ok(error instanceof ApiError);
    assert.equal(error.code, 'invalid_response');
    assert.equal(error.operation, 'getUser');
  });
});

describe('errors', () => {
  it('maps problem+json with its field errors', async () => {
    const { fetch } = scriptedFetch([
      problem(400, {
        code: 'invalid_input',
        title: 'Invalid input',
        detail: 'Two fields are wrong.',
        errors: [
          { field: 'questions.0', message: 'must not be empty' },
          { field: 'userId', message: 'is required' },
          { nonsense: true },
        ],
      }),
    ]);
    const error = await rejection(client(fetch).createConsultation({ userId: '', questions: [''] }));
    assert.ok(error instanceof ApiError);
    assert.ok(error instanceof Error);
    assert.equal(error.name, 'ApiError');
    assert.equal(error.kind, 'http');
    assert.equal(error.status, 400);
    assert.equal(error.code, 'invalid_input');
    assert.equal(error.title, 'Invalid input');
    assert.equal(error.detail, 'Two fields are wrong.');
    assert.equal(error.message, 'Invalid input: Two fields are wrong.');
    assert.equal(error.operation, 'createConsultation');
    assert.equal(error.retryAfterMs, undefined);
    assert.deepEqual(error.errors, [
      { field: 'questions.0', message: 'must not be empty' },
      { field: 'userId', message: 'is required' },
    ]);
  });

  it('keeps the 409 codes the elements act on', async () => {
    const { fetch } = scriptedFetch([problem(409, { code: 'question_limit_reached', title: 'Limit' })]);
    const error = await rejection(client(fetch).addConsultationFollowUp('c1', { question: 'q' }));
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 409);
    assert.equal(error.code, 'question_limit_reached');
    assert.equal(error.message, 'Limit');
    assert.deepEqual(error.errors, []);
  });

  it('gives a sensible error for a non-JSON body', async () => {
    const { fetch } = scriptedFetch([
      new Response('<html><body>Bad gateway from nginx 1.2.3</body></html>', {
        status: 502,
        headers: { 'content-type': 'text/html' },
      }),
    ]);
    const error = await rejection(client(fetch).getUser('u1'));
    assert.ok(error instanceof ApiError);
    assert.equal(error.kind, 'http');
    assert.equal(error.status, 502);
    assert.equal(error.code, 'http_502');
    assert.equal(error.title, 'Bad Gateway');
    assert.equal(error.detail, '');
    assert.deepEqual(error.errors, []);
    assert.doesNotMatch(error.message, /nginx/);
  });

  it('gives a sensible error for JSON that is not a problem, and for an empty body', async () => {
    const { fetch } = scriptedFetch([
      json(404, ['not', 'an', 'object']),
      new Response('', { status: 418, statusText: "I'm a teapot" }),
      new Response('{"title": 5, "code": null, "errors": "no"', { status: 500 }),
    ]);
    const c = client(fetch);
    const notFound = await rejection(c.getUser('u1'));
    const teapot = await rejection(c.getUser('u1'));
    const broken = await rejection(c.getUser('u1'));
    assert.ok(notFound instanceof ApiError && teapot instanceof ApiError && broken instanceof ApiError);
    assert.deepEqual([notFound.code, notFound.message], ['http_404', 'Not Found']);
    assert.deepEqual([teapot.code, teapot.message], ['http_418', "I'm a teapot"]);
    assert.deepEqual([broken.code, broken.message, broken.errors], ['http_500', 'Internal Server Error', []]);
  });

  it('tells network errors, timeouts and HTTP errors apart', async () => {
    const failure = new TypeError('fetch failed');
    const { fetch } = scriptedFetch([failure, 'hang', problem(503)]);
    const c = new ConsultClient({ baseUrl: BASE, fetch, timeoutMs: 20, retry: { retries: 0 } });

    const network = await rejection(c.getUser('u1'));
    assert.ok(network instanceof ApiError);
    assert.deepEqual([network.kind, network.status, network.code], ['network', 0, 'network_error']);
    assert.equal(network.cause, failure);

    const timeout = await rejection(c.getUser('u1'));
    assert.ok(timeout instanceof ApiError);
    assert.deepEqual([timeout.kind, timeout.status, timeout.code], ['timeout', 0, 'timeout']);
    assert.match(timeout.message, /20 ms/);

    const http = await rejection(c.getUser('u1'));
    assert.ok(http instanceof ApiError);
    assert.deepEqual([http.kind, http.status, http.code], ['http', 503, 'code_503']);
  });
});

describe('newIdempotencyKey', () => {
  it('makes a v4 UUID with crypto.randomUUID, and without it (insecure origins)', () => {
    const v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    assert.match(newIdempotencyKey(), v4);
    Object.defineProperty(globalThis.crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const keys = new Set(Array.from({ length: 50 }, () => newIdempotencyKey()));
      assert.equal(keys.size, 50);
      for (const key of keys) assert.match(key, v4);
    } finally {
      delete (globalThis.crypto as { randomUUID?: unknown }).randomUUID;
    }
    assert.equal(typeof globalThis.crypto.randomUUID, 'function');
  });
});
