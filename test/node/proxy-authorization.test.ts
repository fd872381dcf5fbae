/**
 * docs/security.md S2 and S3: identity comes only from the verified widget token, and every id is
 * checked against its owner. A data table: every browser route of docs/architecture.md 2.1 × {owner, other
 * member, no token, expired token, forged token}, with the expected status in each cell and the
 * sandbox's request log as the witness of what reached the upstream. The table must cover every
 * route the proxy registers: a route without a row fails the first test.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sign } from 'hono/jwt';
import { mintWidgetToken } from '../../src/proxy/widget-token.js';
import { DEMO_USER_IDS } from '../../src/sandbox/seed.js';
import { startTestProxy, type ProxyResponse, type TestProxy } from './support/proxy.js';

const ALEX = DEMO_USER_IDS.alex;
const SAM = DEMO_USER_IDS.sam;
const NOOR = DEMO_USER_IDS.noor;

/** The owner's records the table's requests point at; filled in `before`. */
interface Records {
  consultationId: string;
  consultationQuestion: string;
  subscriptionId: string;
  conversationId: string;
}

interface Req {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: unknown;
}

interface Row {
  /** As the proxy registers it (Hono syntax), e.g. `GET /user/:userId`. */
  route: string;
  /** The owner's (alex's) own request and its status. */
  owner: (r: Records) => Req;
  ownerStatus: number;
  /**
   * The other member (sam) aiming at the owner's record: each request with its status and code.
   * `reads` says the proxy must read the record upstream to learn its owner (a GET concerning the
   * owner is then expected); otherwise nothing concerning the owner may reach the upstream.
   */
  other: (r: Records) => { req: Req; status: number; code: string }[];
  reads?: boolean;
}

const question = (text: string) => ({ questions: [text] });

const TABLE: Row[] = [
  {
    route: 'GET /user/:userId',
    owner: () => ({ method: 'GET', path: `/user/${ALEX}` }),
    ownerStatus: 200,
    other: () => [{ req: { method: 'GET', path: `/user/${ALEX}` }, status: 404, code: 'not_found' }],
  },
  {
    route: 'GET /user/:userId/subscriptions',
    owner: () => ({ method: 'GET', path: `/user/${ALEX}/subscriptions` }),
    ownerStatus: 200,
    other: () => [
      { req: { method: 'GET', path: `/user/${ALEX}/subscriptions` }, status: 404, code: 'not_found' },
    ],
  },
  {
    route: 'GET /user/:userId/subscription/:subscriptionId',
    owner: (r) => ({ method: 'GET', path: `/user/${ALEX}/subscription/${r.subscriptionId}` }),
    ownerStatus: 200,
    other: (r) => [
      {
        req: { method: 'GET', path: `/user/${ALEX}/subscription/${r.subscriptionId}` },
        status: 404,
        code: 'not_found',
      },
      // Their own user id in the path, the owner's subscription id.
      {
        req: { method: 'GET', path: `/user/${SAM}/subscription/${r.subscriptionId}` },
        status: 404,
        code: 'not_found',
      },
    ],
  },
  {
    route: 'GET /user/:userId/subscription/:subscriptionId/history',
    owner: (r) => ({ method: 'GET', path: `/user/${ALEX}/subscription/${r.subscriptionId}/history` }),
    ownerStatus: 200,
    other: (r) => [
      {
        req: { method: 'GET', path: `/user/${ALEX}/subscription/${r.subscriptionId}/history` },
        status: 404,
        code: 'not_found',
      },
      {
        req: { method: 'GET', path: `/user/${SAM}/subscription/${r.subscriptionId}/history` },
        status: 404,
        code: 'not_found',
      },
    ],
  },
  {
    route: 'POST /consultation',
    owner: () => ({
      method: 'POST',
      path: '/consultation',
      body: question('Owner asks: is a cough normal?'),
    }),
    ownerStatus: 201,
    other: () => [
      {
        req: {
          method: 'POST',
          path: '/consultation',
          body: { userId: ALEX, ...question('Written into the owner’s record?') },
        },
        status: 403,
        code: 'not_your_user',
      },
    ],
  },
  {
    route: 'GET /consultation/:consultationId',
    owner: (r) => ({ method: 'GET', path: `/consultation/${r.consultationId}` }),
    ownerStatus: 200,
    reads: true,
    other: (r) => [
      { req: { method: 'GET', path: `/consultation/${r.consultationId}` }, status: 404, code: 'not_found' },
    ],
  },
  {
    route: 'POST /consultation/:consultationId',
    owner: (r) => ({
      method: 'POST',
      path: `/consultation/${r.consultationId}`,
      body: { question: 'Owner follows up.' },
    }),
    ownerStatus: 200,
    reads: true,
    other: (r) => [
      {
        req: {
          method: 'POST',
          path: `/consultation/${r.consultationId}`,
          body: { question: 'A stranger follows up.' },
        },
        status: 404,
        code: 'not_found',
      },
    ],
  },
  {
    route: 'PUT /consultations/:consultationId/seen',
    owner: (r) => ({ method: 'PUT', path: `/consultations/${r.consultationId}/seen`, body: { answers: 0 } }),
    ownerStatus: 200,
    reads: true,
    other: (r) => [
      {
        req: { method: 'PUT', path: `/consultations/${r.consultationId}/seen`, body: { answers: 0 } },
        status: 404,
        code: 'not_found',
      },
    ],
  },
  {
    route: 'GET /user/:userId/case-history',
    owner: () => ({ method: 'GET', path: `/user/${ALEX}/case-history` }),
    ownerStatus: 200,
    other: () => [
      { req: { method: 'GET', path: `/user/${ALEX}/case-history` }, status: 404, code: 'not_found' },
    ],
  },
  {
    route: 'POST /v2/health-navigator/users/:userId/conversations',
    owner: () => ({ method: 'POST', path: `/v2/health-navigator/users/${ALEX}/conversations`, body: {} }),
    ownerStatus: 201,
    other: () => [
      {
        req: { method: 'POST', path: `/v2/health-navigator/users/${ALEX}/conversations`, body: {} },
        status: 404,
        code: 'not_found',
      },
    ],
  },
  {
    route: 'POST /v2/health-navigator/messages',
    owner: (r) => ({
      method: 'POST',
      path: '/v2/health-navigator/messages',
      body: { conversationId: r.conversationId, message: 'Owner: I have a headache.' },
    }),
    ownerStatus: 200,
    other: (r) => [
      {
        req: {
          method: 'POST',
          path: '/v2/health-navigator/messages',
          body: { conversationId: r.conversationId, message: 'Stranger: hello?' },
        },
        status: 404,
        code: 'not_found',
      },
    ],
  },
  {
    route: 'POST /prescription',
    owner: () => ({
      method: 'POST',
      path: '/prescription',
      body: { indicationSurvey: { reason: 'refill' } },
    }),
    ownerStatus: 201,
    other: () => [
      {
        req: { method: 'POST', path: '/prescription', body: { userId: ALEX, indicationSurvey: {} } },
        status: 403,
        code: 'not_your_user',
      },
    ],
  },
];

/**
 * Routes that are not member operations on a record: they have their own tests (`/prescriptions`
 * takes no id and calls no upstream: the member's own list, test/node/proxy-memory.test.ts; push:
 * proxy-push.test.ts).
 */
const NOT_RECORD_ROUTES = new Set([
  '/session',
  '/events',
  '/webhooks',
  '/healthz',
  '/readyz',
  '/prescriptions',
  '/push',
  '/push/subscription',
  '/push/sw.js',
  '/service-notifications',
]);

let proxy: TestProxy;
let records: Records;
const tokens: Record<'alex' | 'sam' | 'noor', string> = { alex: '', sam: '', noor: '' };

before(async () => {
  proxy = await startTestProxy();
  tokens.alex = await proxy.session('alex');
  tokens.sam = await proxy.session('sam');
  tokens.noor = await proxy.session('noor');
  // The owner's own consultation (one question, so follow-ups have room) and conversation.
  const consultationQuestion = 'Owner-only question: my left knee clicks when I climb stairs.';
  const created = await proxy.call('POST', '/consultation', {
    token: tokens.alex,
    body: question(consultationQuestion),
  });
  assert.equal(created.status, 201, created.text);
  const conversation = await proxy.call('POST', `/v2/health-navigator/users/${ALEX}/conversations`, {
    token: tokens.alex,
    body: {},
  });
  assert.equal(conversation.status, 201, conversation.text);
  records = {
    consultationId: created.body.consultationId,
    consultationQuestion,
    subscriptionId: 'sub_demo_alex_2026',
    conversationId: conversation.body.conversationId,
  };
});

after(async () => {
  await proxy?.close();
});

const send = (req: Req, token?: string): Promise<ProxyResponse> =>
  proxy.call(req.method, req.path, {
    ...(token === undefined ? {} : { token }),
    ...(req.body === undefined ? {} : { body: req.body }),
  });

/** Nothing that identifies the owner's record may appear in what the other member gets back. */
function assertNothingOfOwner(response: ProxyResponse): void {
  for (const secret of [
    ALEX,
    'alex',
    'Alex',
    'Morgan',
    records.consultationId,
    records.consultationQuestion,
    records.subscriptionId,
    records.conversationId,
  ]) {
    assert.ok(!response.text.includes(secret), `the response leaks "${secret}": ${response.text}`);
  }
}

/** Tokens that must get a 401 and no upstream call at all. */
async function invalidTokens(): Promise<{ name: string; token: string | undefined }[]> {
  const hourAgo = Date.now() - 60 * 60 * 1000;
  const expired = (await mintWidgetToken(proxy.secret, { userId: ALEX, uniqueId: 'alex' }, 600, hourAgo))
    .token;
  const otherSecret = (
    await mintWidgetToken(
      'another-secret-of-at-least-32-characters-0123456789',
      {
        userId: ALEX,
        uniqueId: 'alex',
      },
      600,
    )
  ).token;
  const now = Math.floor(Date.now() / 1000);
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const claims = { sub: ALEX, uid: 'alex', aud: 'consult-widget', iat: now, exp: now + 600 };
  const algNone = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
  // A valid token of sam's with the payload swapped for alex's: the signature no longer matches.
  const [header, , signature] = tokens.sam.split('.');
  const swapped = `${header}.${b64(claims)}.${signature}`;
  // Signed with the right secret, but for another audience.
  const otherAudience = await sign({ ...claims, aud: 'something-else' }, proxy.secret, 'HS256');
  return [
    { name: 'no token', token: undefined },
    { name: 'expired token', token: expired },
    { name: 'forged token (another secret)', token: otherSecret },
    { name: 'forged token (alg none)', token: algNone },
    { name: 'forged token (payload swapped)', token: swapped },
    { name: 'forged token (another audience)', token: otherAudience },
    { name: 'garbage token', token: 'not-a-jwt' },
  ];
}

describe('S3: every browser route has a row in the authorization table', () => {
  it('the table and the proxy’s registered routes are the same set', () => {
    // The proxy's routes sit under its base path on the server's app.
    const basePath = new URL(proxy.url).pathname;
    const registered = new Set(
      proxy.server.proxy.routes
        .filter((r) => r.method !== 'ALL' && r.path.startsWith(`${basePath}/`))
        .map((r) => ({ method: r.method, path: r.path.slice(basePath.length) }))
        .filter((r) => !NOT_RECORD_ROUTES.has(r.path))
        .map((r) => `${r.method} ${r.path}`),
    );
    const tabled = new Set(TABLE.map((row) => row.route));
    const missing = [...registered].filter((route) => !tabled.has(route));
    const stale = [...tabled].filter((route) => !registered.has(route));
    assert.deepEqual(
      missing,
      [],
      `proxy routes without a row in the authorization table: ${missing.join(', ')}`,
    );
    assert.deepEqual(stale, [], `rows for routes the proxy does not have: ${stale.join(', ')}`);
    assert.equal(
      registered.size,
      12,
      'docs/architecture.md 2.1 names 11 member operations of the service and the read marks of the proxy’s own',
    );
  });
});

describe('S3: operation × caller matrix', () => {
  for (const row of TABLE) {
    describe(row.route, () => {
      it(`owner → ${row.ownerStatus}`, async () => {
        const since = proxy.mark();
        const response = await send(row.owner(records), tokens.alex);
        assert.equal(response.status, row.ownerStatus, response.text);
        const calls = proxy.upstreamCalls(since);
        assert.ok(calls.length > 0, 'the owner’s call reached the upstream');
        assert.ok(
          calls.every((c) => c.userId === undefined || c.userId === ALEX),
          `only the owner concerned: ${JSON.stringify(calls)}`,
        );
      });

      it('other member → refused, nothing of the owner’s record returned', async () => {
        for (const { req, status, code } of row.other(records)) {
          const since = proxy.mark();
          const response = await send(req, tokens.sam);
          assert.equal(response.status, status, `${req.method} ${req.path}: ${response.text}`);
          assert.equal(response.body?.code, code, response.text);
          assertNothingOfOwner(response);
          const aboutOwner = proxy.upstreamCalls(since).filter((c) => c.userId === ALEX);
          if (row.reads) {
            // The proxy reads the record to learn its owner; it must not act on it.
            assert.ok(
              aboutOwner.every(
                (c) => c.method === 'GET' && c.path === `/consultation/${records.consultationId}`,
              ),
              `only the ownership read may concern the owner: ${JSON.stringify(aboutOwner)}`,
            );
          } else {
            assert.deepEqual(aboutOwner, [], 'no upstream call concerning the owner');
          }
          assert.ok(
            proxy.upstreamCalls(since).every((c) => c.method === 'GET'),
            'the refused call changed nothing upstream',
          );
        }
      });

      it('no token, expired token, forged tokens → 401 and zero upstream calls', async () => {
        for (const { name, token } of await invalidTokens()) {
          const since = proxy.mark();
          const response = await send(row.owner(records), token);
          assert.equal(response.status, 401, `${name}: ${response.text}`);
          assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer/, name);
          assert.deepEqual(proxy.upstreamCalls(since), [], `${name}: no upstream call`);
          assertNothingOfOwner(response);
        }
      });
    });
  }
});

describe('S2: identity comes only from the widget token', () => {
  it('as alex, sam’s id in paths, bodies and spoofable headers does nothing for sam', async () => {
    const since = proxy.mark();
    const spoof = {
      'x-user-id': SAM,
      'x-forwarded-for': '203.0.113.7',
      'x-forwarded-host': 'sam.example',
      'x-forwarded-user': SAM,
      'x-unique-id': 'sam',
    };
    const inPath = [
      `/user/${SAM}`,
      `/user/${SAM}/subscriptions`,
      `/user/${SAM}/subscription/sub_demo_sam_2026`,
      `/user/${SAM}/subscription/sub_demo_sam_2026/history`,
      `/user/${SAM}/case-history`,
    ];
    for (const path of inPath) {
      const response = await proxy.call('GET', path, { token: tokens.alex, headers: spoof });
      assert.equal(response.status, 404, `${path}: ${response.text}`);
    }
    const conversation = await proxy.call('POST', `/v2/health-navigator/users/${SAM}/conversations`, {
      token: tokens.alex,
      body: {},
    });
    assert.equal(conversation.status, 404, conversation.text);

    for (const path of ['/consultation', '/prescription']) {
      const body =
        path === '/consultation' ? { userId: SAM, ...question('For sam, please.') } : { userId: SAM };
      const response = await proxy.call('POST', path, { token: tokens.alex, body, headers: spoof });
      assert.equal(response.status, 403, `${path}: ${response.text}`);
      assert.equal(response.body.code, 'not_your_user');
      assert.deepEqual(
        response.body.errors.map((e: { field: string }) => e.field),
        ['userId'],
      );
    }

    // Spoofed headers on a legitimate call: the call is alex's, whatever they say.
    const created = await proxy.call('POST', '/consultation', {
      token: tokens.alex,
      body: question('Spoofed headers, my own question.'),
      headers: spoof,
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.userId, ALEX);
    const history = await proxy.call('GET', `/user/${ALEX}/case-history`, {
      token: tokens.alex,
      headers: spoof,
    });
    assert.equal(history.status, 200);
    assert.ok(history.body.every((c: { userId: string }) => c.userId === ALEX));
    const me = await proxy.call('GET', `/user/${ALEX}`, { token: tokens.alex, headers: spoof });
    assert.equal(me.body.id, ALEX);
    // A userId in the query string is ignored too.
    const query = await proxy.call('GET', `/user/${ALEX}/case-history?userId=${SAM}`, { token: tokens.alex });
    assert.equal(query.status, 200);
    assert.ok(query.body.every((c: { userId: string }) => c.userId === ALEX));

    const forSam = proxy.upstreamCalls(since).filter((c) => c.userId === SAM);
    assert.deepEqual(forSam, [], 'the sandbox saw no call for sam');
    assert.ok(
      proxy
        .upstreamCalls(since)
        .some((c) => c.method === 'POST' && c.path === '/consultation' && c.userId === ALEX),
    );
  });

  it('sam’s token with X-User-Id naming alex still cannot read alex', async () => {
    const since = proxy.mark();
    const response = await proxy.call('GET', `/user/${ALEX}`, {
      token: tokens.sam,
      headers: { 'x-user-id': ALEX },
    });
    assert.equal(response.status, 404);
    assert.deepEqual(proxy.upstreamCalls(since), []);
  });
});

describe('S3: navigator conversations belong to the member who started them', () => {
  it('a conversation alex started cannot receive noor’s messages (404, no upstream call)', async () => {
    const started = await proxy.call('POST', `/v2/health-navigator/users/${ALEX}/conversations`, {
      token: tokens.alex,
      body: {},
    });
    assert.equal(started.status, 201);
    const conversationId: string = started.body.conversationId;
    assert.equal(started.body.userId, ALEX);

    const since = proxy.mark();
    const response = await proxy.call('POST', '/v2/health-navigator/messages', {
      token: tokens.noor,
      body: { conversationId, message: 'Noor writes into alex’s conversation.' },
    });
    assert.equal(response.status, 404, response.text);
    assert.equal(response.body.code, 'not_found');
    assert.ok(!response.text.includes(conversationId));
    assert.deepEqual(proxy.upstreamCalls(since), [], 'nothing reached the upstream');

    // Alex still can, and the upstream records it as alex's.
    const own = await proxy.call('POST', '/v2/health-navigator/messages', {
      token: tokens.alex,
      body: { conversationId, message: 'Alex: I have had a sore throat for two days.' },
    });
    assert.equal(own.status, 200, own.text);
    assert.ok(proxy.upstreamCalls(since).every((c) => c.userId === ALEX));
    assert.ok(!proxy.upstreamCalls(since).some((c) => c.userId === NOOR));
  });

  it('a conversation id the proxy never started is 404 even for a member', async () => {
    const since = proxy.mark();
    const response = await proxy.call('POST', '/v2/health-navigator/messages', {
      token: tokens.noor,
      body: { conversationId: 'cnv_made_up_123', message: 'hello' },
    });
    assert.equal(response.status, 404);
    assert.deepEqual(proxy.upstreamCalls(since), []);
  });

  it('noor cannot read alex’s consultation nor noor’s be read by alex', async () => {
    const since = proxy.mark();
    const response = await proxy.call('GET', '/consultation/cns_demo_noor_fever', { token: tokens.alex });
    assert.equal(response.status, 404);
    assert.ok(!response.text.includes('noor') && !response.text.includes(NOOR));
    const calls = proxy.upstreamCalls(since);
    assert.ok(calls.every((c) => c.method === 'GET'));
    const ownRead = await proxy.call('GET', '/consultation/cns_demo_noor_fever', { token: tokens.noor });
    assert.equal(ownRead.status, 200);
    assert.equal(ownRead.body.userId, NOOR);
  });
});
