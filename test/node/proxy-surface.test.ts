/**
 * The proxy's browser-facing surface: S4 (only the routes of docs/architecture.md 2.1 exist, path tricks
 * included), S5 (closed request schemas, projected responses), S6 (limits) and S9 (CORS and
 * Origin checks). Every refusal is shown to reach the upstream not at all, with the sandbox's
 * request log as the witness.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEMO_USER_IDS } from '../../src/sandbox/seed.js';
import {
  ALLOWED_ORIGIN,
  eventually,
  sleep,
  startTestProxy,
  type ProxyResponse,
  type TestProxy,
} from './support/proxy.js';

const ALEX = DEMO_USER_IDS.alex;
const EVIL = 'https://evil.example';

let proxy: TestProxy;
let alex: string;
const extraProxies: TestProxy[] = [];

before(async () => {
  proxy = await startTestProxy({ limits: { perMemberPerMinute: 100_000 } });
  // Signing in also fetches the proxy's upstream token, which it does lazily on first use.
  alex = await proxy.session('alex');
  const warm = await proxy.call('GET', `/user/${ALEX}`, { token: alex });
  assert.equal(warm.status, 200);
});

after(async () => {
  for (const extra of extraProxies) await extra.close();
  await proxy?.close();
});

/** Another proxy over the same sandbox with other options; closed in `after`. */
async function proxyWith(options: Parameters<typeof startTestProxy>[0]): Promise<TestProxy> {
  const extra = await startTestProxy({ sandbox: proxy.sandbox, ...options });
  extraProxies.push(extra);
  return extra;
}

/** Fields a 400 names, from the problem body. */
const fieldsOf = (response: ProxyResponse): string[] =>
  (response.body?.errors ?? []).map((e: { field: string }) => e.field);

/** Waits until the current one-minute rate-limit window has at least `ms` left, so a burst stays in one window. */
async function awayFromMinuteBoundary(ms = 3000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < ms) await sleep(left + 50);
}

describe('S4: operations that do not exist for browsers', () => {
  const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND'] as const;
  /** Paths (from the server root) that no method may reach. */
  const NOWHERE = [
    '/consult/partner/authorization/token',
    '/consult/user',
    '/consult/user/search?uniqueId=alex',
    '/consult/user/search',
    `/consult/user/${ALEX}/subscription`,
    '/consult/webhook',
    '/consult/webhook/format-event',
    '/consult/webhook/x',
    '/consult/_sandbox/reset',
    '/consult/openapi.json',
    `/consult/user/${ALEX}/../${DEMO_USER_IDS.sam}`,
    `/consult/user/${ALEX}/%2e%2e/${DEMO_USER_IDS.sam}`,
    `/consult/user/${ALEX}/%2E%2E/${DEMO_USER_IDS.sam}/case-history`,
    `/consult/user/${ALEX}%2F..%2F${DEMO_USER_IDS.sam}`,
    `/consult/user/%2e%2e%2f${DEMO_USER_IDS.sam}`,
    '/consult//user/x',
    `/consult//user/${ALEX}`,
    '//user/x',
    '/consult/consultation/..%2Fuser%2Fusr_demo_sam',
    '/consult/consultation/%2e%2e',
    '/consult/consultation/%',
    '/consult/user/%ff',
    `/consult/user/${ALEX}%00`,
    `/consult/user/${ALEX};userId=${DEMO_USER_IDS.sam}`,
    `/consult/../partner/authorization/token`,
    '/consult/%2e%2e/partner/authorization/token',
    '/partner/authorization/token',
    '/user/search?uniqueId=alex',
    `/consult/user/${'a'.repeat(5000)}`,
    `/consult/consultation/${'c'.repeat(129)}`,
    `/consult/${'x/'.repeat(3000)}`,
  ];
  /** Method and path pairs whose path exists for another method only. */
  const WRONG_METHOD: [string, string][] = [
    ['PUT', `/consult/user/${ALEX}`],
    ['POST', `/consult/user/${ALEX}`],
    ['DELETE', `/consult/user/${ALEX}`],
    ['PATCH', `/consult/user/${ALEX}`],
    ['POST', `/consult/user/${ALEX}/subscription`],
    ['DELETE', '/consult/consultation/cns_demo_alex_rash'],
    ['PUT', '/consult/consultation/cns_demo_alex_rash'],
    ['GET', '/consult/consultation'],
    ['GET', '/consult/prescription'],
    ['GET', '/consult/v2/health-navigator/messages'],
    ['DELETE', `/consult/v2/health-navigator/users/${ALEX}/conversations`],
    ['GET', '/consult/session'],
    ['GET', '/consult/webhooks'],
    ['POST', '/consult/events'],
    ['POST', '/consult/healthz'],
  ];
  /** Every status a refusal may have; never a 2xx or a 3xx. */
  const REFUSED = new Set([401, 404, 405, 414, 431]);

  /** A body that would be valid for a follow-up, so that only the path and method can refuse it. */
  const body = { question: 'Is this reachable?' };

  async function assertRefused(method: string, path: string, headers: Record<string, string> = {}) {
    const since = proxy.mark();
    const response = await proxy.request(method, path, {
      token: alex,
      ...(method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? {} : { body }),
      headers,
    });
    assert.ok(
      REFUSED.has(response.status),
      `${method} ${path.slice(0, 80)} answered ${response.status}: ${response.text.slice(0, 200)}`,
    );
    assert.deepEqual(proxy.upstreamCalls(since), [], `${method} ${path.slice(0, 80)} reached the upstream`);
    return response;
  }

  for (const method of METHODS) {
    it(`${method} on paths that must not exist → refused, zero upstream calls`, async () => {
      for (const path of NOWHERE) await assertRefused(method, path);
    });
  }

  it('a method on a path that exists only for another method → 404, zero upstream calls', async () => {
    for (const [method, path] of WRONG_METHOD) {
      const response = await assertRefused(method, path);
      assert.equal(response.status, 404, `${method} ${path}`);
    }
  });

  it('method override headers are ignored', async () => {
    for (const header of ['x-http-method-override', 'x-http-method', 'x-method-override']) {
      for (const [path, override] of [
        ['/consult/webhook/wh_123', 'DELETE'],
        [`/consult/user/${ALEX}`, 'PUT'],
        [`/consult/user/${ALEX}`, 'DELETE'],
        ['/consult/partner/authorization/token', 'GET'],
      ] as const) {
        const response = await assertRefused('POST', path, { [header]: override });
        assert.equal(response.status, 404, `${header}: ${override} on POST ${path}`);
      }
    }
    // On a real route the override changes nothing: a GET stays a read.
    const since = proxy.mark();
    const response = await proxy.call('GET', '/consultation/cns_demo_alex_rash', {
      token: alex,
      headers: { 'x-http-method-override': 'DELETE' },
    });
    assert.equal(response.status, 200);
    assert.ok(proxy.upstreamCalls(since).every((c) => c.method === 'GET'));
  });

  it('refusals are problem+json with our own words', async () => {
    const response = await proxy.request('GET', '/consult/partner/authorization/token', { token: alex });
    assert.equal(response.status, 404);
    assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(response.body.code, 'not_found');
    assert.ok(!response.text.includes('authorization/token'), 'the path is not echoed');
  });
});

describe('S5: closed request schemas → 400 naming the field, before any upstream call', () => {
  const long = 'x'.repeat(2001);
  const CASES: {
    name: string;
    method: 'POST';
    path: string;
    body?: unknown;
    raw?: string;
    field?: string;
  }[] = [
    {
      name: 'unknown field',
      method: 'POST',
      path: '/consultation',
      body: { questions: ['Hi'], priority: 'high' },
      field: 'priority',
    },
    {
      name: 'a 4th question',
      method: 'POST',
      path: '/consultation',
      body: { questions: ['1', '2', '3', '4'] },
      field: 'questions',
    },
    {
      name: 'a 2001-character question',
      method: 'POST',
      path: '/consultation',
      body: { questions: [long] },
      field: 'questions.0',
    },
    {
      name: 'questions not an array',
      method: 'POST',
      path: '/consultation',
      body: { questions: 'Hi' },
      field: 'questions',
    },
    {
      name: 'a question not a string',
      method: 'POST',
      path: '/consultation',
      body: { questions: [42] },
      field: 'questions.0',
    },
    {
      name: 'an empty question',
      method: 'POST',
      path: '/consultation',
      body: { questions: ['   '] },
      field: 'questions.0',
    },
    {
      name: 'no questions',
      method: 'POST',
      path: '/consultation',
      body: { questions: [] },
      field: 'questions',
    },
    {
      name: 'userId not a string',
      method: 'POST',
      path: '/consultation',
      body: { userId: 7, questions: ['Hi'] },
      field: 'userId',
    },
    { name: 'body is an array', method: 'POST', path: '/consultation', body: [{ questions: ['Hi'] }] },
    { name: 'body is not JSON', method: 'POST', path: '/consultation', raw: '{"questions": [' },
    {
      name: 'follow-up: unknown field',
      method: 'POST',
      path: '/consultation/cns_demo_alex_rash',
      body: { question: 'Hi', attachments: ['x'] },
      field: 'attachments',
    },
    {
      name: 'follow-up: a 2001-character question',
      method: 'POST',
      path: '/consultation/cns_demo_alex_rash',
      body: { question: long },
      field: 'question',
    },
    {
      name: 'follow-up: question not a string',
      method: 'POST',
      path: '/consultation/cns_demo_alex_rash',
      body: { question: ['Hi'] },
      field: 'question',
    },
    {
      name: 'follow-up: empty question',
      method: 'POST',
      path: '/consultation/cns_demo_alex_rash',
      body: { question: '' },
      field: 'question',
    },
    {
      name: 'message: bad conversationId',
      method: 'POST',
      path: '/v2/health-navigator/messages',
      body: { conversationId: '../user/usr_demo_sam', message: 'Hi' },
      field: 'conversationId',
    },
    {
      name: 'message: conversationId not a string',
      method: 'POST',
      path: '/v2/health-navigator/messages',
      body: { conversationId: { $ne: null }, message: 'Hi' },
      field: 'conversationId',
    },
    {
      name: 'message: empty message',
      method: 'POST',
      path: '/v2/health-navigator/messages',
      body: { conversationId: 'cnv_1', message: ' ' },
      field: 'message',
    },
    {
      name: 'message: unknown field',
      method: 'POST',
      path: '/v2/health-navigator/messages',
      body: { conversationId: 'cnv_1', message: 'Hi', userId: ALEX },
      field: 'userId',
    },
    {
      name: 'conversation: unknown field',
      method: 'POST',
      path: `/v2/health-navigator/users/${ALEX}/conversations`,
      body: { userId: 'usr_demo_sam' },
      field: 'userId',
    },
    {
      name: 'conversation: topic not a string',
      method: 'POST',
      path: `/v2/health-navigator/users/${ALEX}/conversations`,
      body: { topic: 5 },
      field: 'topic',
    },
    {
      name: 'prescription: unknown field',
      method: 'POST',
      path: '/prescription',
      body: { medication: 'anything' },
      field: 'medication',
    },
    {
      name: 'prescription: survey not an object',
      method: 'POST',
      path: '/prescription',
      body: { indicationSurvey: 'yes' },
      field: 'indicationSurvey',
    },
  ];

  for (const testCase of CASES) {
    it(`${testCase.name} → 400${testCase.field ? ` naming ${testCase.field}` : ''}`, async () => {
      const since = proxy.mark();
      const response = await proxy.call(testCase.method, testCase.path, {
        token: alex,
        ...(testCase.raw !== undefined
          ? { rawBody: testCase.raw, headers: { 'content-type': 'application/json' } }
          : { body: testCase.body }),
      });
      assert.equal(response.status, 400, response.text);
      assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
      if (testCase.field) assert.ok(fieldsOf(response).includes(testCase.field), response.text);
      assert.deepEqual(proxy.upstreamCalls(since), [], 'zero upstream calls');
    });
  }

  it('a bad Idempotency-Key → 400 naming it, zero upstream calls', async () => {
    const since = proxy.mark();
    const response = await proxy.call('POST', '/consultation', {
      token: alex,
      body: { questions: ['Hi'] },
      headers: { 'idempotency-key': 'short' },
    });
    assert.equal(response.status, 400);
    assert.ok(fieldsOf(response).includes('Idempotency-Key'));
    assert.deepEqual(proxy.upstreamCalls(since), []);
  });
});

describe('S5: responses carry only the fields the elements need', () => {
  it('an extra upstream field (top level and nested) does not reach the browser', async () => {
    const addCanary: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (init?.method !== 'GET' || !url.pathname.startsWith('/consultation/') || !response.ok)
        return response;
      const body = (await response.json()) as Record<string, any>;
      body['internalNotes'] = 'CANARY';
      body['assignedTo'] = { staffId: 'CANARY-STAFF', email: 'canary@internal.example' };
      for (const q of body['questions'] ?? []) {
        q.internalRating = 'CANARY-RATING';
        if (q.professional) q.professional.homeAddress = 'CANARY-ADDRESS';
      }
      return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
    };
    const canaryProxy = await proxyWith({ fetch: addCanary });
    const token = await canaryProxy.session('alex');
    const response = await canaryProxy.call('GET', '/consultation/cns_demo_alex_rash', { token });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.consultationId, 'cns_demo_alex_rash');
    assert.ok(response.body.questions[0].professional.name, 'the fields the elements need are there');
    assert.ok(!response.text.includes('CANARY'), `an upstream addition leaked: ${response.text}`);
    assert.ok(!response.text.includes('canary@internal.example'));
    assert.deepEqual(Object.keys(response.body).sort(), [
      'consultationId',
      'createdAt',
      'questions',
      'status',
      'userId',
    ]);
  });

  it('GET /user/{me} carries no phone, date of birth or e-mail', async () => {
    const response = await proxy.call('GET', `/user/${ALEX}`, { token: alex });
    assert.equal(response.status, 200);
    assert.equal(response.body.id, ALEX);
    for (const field of ['phone', 'dateOfBirth', 'email', 'gender', 'partnerName', 'associatedAccounts']) {
      assert.ok(!(field in response.body), `${field} reached the browser`);
    }
    for (const value of ['+447700900123', '1988-04-12', 'alex.morgan@example.com']) {
      assert.ok(!response.text.includes(value), `${value} reached the browser`);
    }
  });

  it('the session response carries no phone, date of birth or e-mail either', async () => {
    const response = await proxy.call('POST', '/session', { body: { demoUser: 'alex' } });
    assert.equal(response.status, 200);
    for (const value of ['+447700900123', '1988-04-12', 'alex.morgan@example.com']) {
      assert.ok(!response.text.includes(value), `${value} reached the browser`);
    }
  });
});

describe('S6: limits', () => {
  it('a body over the limit → 413, zero upstream calls', async () => {
    const since = proxy.mark();
    const response = await proxy.call('POST', '/consultation', {
      token: alex,
      body: { questions: ['y'.repeat(17 * 1024)] },
    });
    assert.equal(response.status, 413, response.text);
    assert.equal(response.body.code, 'payload_too_large');
    assert.deepEqual(proxy.upstreamCalls(since), []);

    const small = await proxyWith({ limits: { bodyBytes: 100 } });
    const token = await small.session('alex');
    const since2 = small.mark();
    const refused = await small.call('POST', '/consultation', {
      token,
      body: { questions: ['z'.repeat(120)] },
    });
    assert.equal(refused.status, 413);
    assert.deepEqual(small.upstreamCalls(since2), []);
  });

  it('per-member rate limit → 429 with Retry-After, zero upstream calls once refused', async () => {
    const limited = await proxyWith({ limits: { perMemberPerMinute: 3 } });
    const token = await limited.session('alex');
    const other = await limited.session('noor');
    await awayFromMinuteBoundary();
    for (let i = 0; i < 3; i++) {
      const ok = await limited.call('GET', `/user/${ALEX}/case-history`, { token });
      assert.equal(ok.status, 200, `call ${i + 1}: ${ok.text}`);
    }
    const since = limited.mark();
    const refused = await limited.call('GET', `/user/${ALEX}/case-history`, { token });
    assert.equal(refused.status, 429, refused.text);
    assert.equal(refused.body.code, 'rate_limited');
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(
      Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60,
      `Retry-After ${retryAfter}`,
    );
    assert.deepEqual(limited.upstreamCalls(since), []);
    // Another member is not affected.
    const noor = await limited.call('GET', `/user/${DEMO_USER_IDS.noor}/case-history`, { token: other });
    assert.equal(noor.status, 200);
  });

  it('a token whose session ended is refused with 401, never 429, and its requests count against its member’s limit', async () => {
    const limited = await proxyWith({ limits: { perMemberPerMinute: 5 } });
    const ended = await limited.session('alex');
    await awayFromMinuteBoundary();
    // Signing out is the member's first request of the minute.
    assert.equal((await limited.call('DELETE', '/session', { token: ended })).status, 204);
    const since = limited.mark();
    for (let i = 0; i < 4; i++) {
      const refused = await limited.call('GET', `/user/${ALEX}/case-history`, { token: ended });
      assert.equal(refused.status, 401, `call ${i + 1}: ${refused.text}`);
      assert.equal(refused.body.code, 'session_expired');
    }
    assert.deepEqual(limited.upstreamCalls(since), []);
    // Five requests of alex's so far: a new session's first read is the sixth.
    const fresh = await limited.session('alex');
    const over = await limited.call('GET', `/user/${ALEX}/case-history`, { token: fresh });
    assert.equal(over.status, 429, over.text);
    // Still refused as ended, not as limited: what the browser must do is sign in again.
    const stillEnded = await limited.call('GET', `/user/${ALEX}/case-history`, { token: ended });
    assert.equal(stillEnded.status, 401, stillEnded.text);
  });

  it('per-address rate limit on requests that are not a member’s → 429 with Retry-After, zero upstream calls once refused; members and sign-ins behind the address go on', async () => {
    const limited = await proxyWith({
      limits: { perAddressPerMinute: 3 },
      clientAddress: (c) => c.req.header('x-test-client'),
    });
    const token = await limited.session('alex');
    await awayFromMinuteBoundary();
    const junk = (address: string) =>
      limited.call('GET', `/user/${ALEX}`, { token: 'not-a-token', headers: { 'x-test-client': address } });
    for (let i = 0; i < 3; i++) {
      const refused = await junk('198.51.100.1');
      assert.equal(refused.status, 401, `call ${i + 1}: ${refused.text}`);
    }
    const since = limited.mark();
    const limitedNow = await junk('198.51.100.1');
    assert.equal(limitedNow.status, 429, limitedNow.text);
    assert.ok(Number(limitedNow.headers.get('retry-after')) >= 1);
    assert.deepEqual(limited.upstreamCalls(since), []);
    // A signed-in member behind the same address is counted on their own limit, not the address's.
    const member = await limited.call('GET', `/user/${ALEX}`, {
      token,
      headers: { 'x-test-client': '198.51.100.1' },
    });
    assert.equal(member.status, 200, member.text);
    // And a sign-in from there (a token renewal) goes through.
    const signIn = await limited.call('POST', '/session', {
      body: { demoUser: 'sam' },
      headers: { 'x-test-client': '198.51.100.1' },
    });
    assert.equal(signIn.status, 200, signIn.text);
    assert.equal((await junk('198.51.100.2')).status, 401, 'another address is not affected');
  });

  it('failed sign-ins are limited per address apart from successful ones → 429 past the limit', async () => {
    const limited = await proxyWith({
      limits: { failedSignInsPerAddressPerMinute: 2 },
      clientAddress: (c) => c.req.header('x-test-client'),
    });
    await awayFromMinuteBoundary();
    const failed = () =>
      limited.call('POST', '/session', { body: {}, headers: { 'x-test-client': '198.51.100.9' } });
    for (let i = 0; i < 2; i++) assert.equal((await failed()).status, 401, `failed sign-in ${i + 1}`);
    const refused = await failed();
    assert.equal(refused.status, 429, refused.text);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    const member = await limited.call('POST', '/session', {
      body: { demoUser: 'alex' },
      headers: { 'x-test-client': '198.51.100.9' },
    });
    assert.equal(member.status, 200, 'a member behind the address still signs in');
  });

  it('per-address sign-in limit → 429 on POST /session, zero upstream calls once refused', async () => {
    const limited = await proxyWith({
      limits: { sessionsPerAddressPerMinute: 2 },
      clientAddress: (c) => c.req.header('x-test-client'),
    });
    await awayFromMinuteBoundary();
    const signIn = (address: string) =>
      limited.call('POST', '/session', { body: { demoUser: 'alex' }, headers: { 'x-test-client': address } });
    for (let i = 0; i < 2; i++) assert.equal((await signIn('198.51.100.7')).status, 200, `sign-in ${i + 1}`);
    const since = limited.mark();
    const refused = await signIn('198.51.100.7');
    assert.equal(refused.status, 429, refused.text);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.deepEqual(limited.upstreamCalls(since), []);
    assert.equal((await signIn('198.51.100.8')).status, 200, 'another address is not affected');
  });

  it('an upstream that does not answer in time → 504', async () => {
    const slow = await proxyWith({ limits: { upstreamTimeoutMs: 200 } });
    const token = await slow.session('alex');
    const since = slow.mark();
    // Far beyond the proxy's two tries of 200 ms, also on a loaded machine.
    await slow.sandbox.control('/faults', { latencyMs: 2500 });
    try {
      const response = await slow.call('GET', '/consultation/cns_demo_alex_rash', { token });
      assert.equal(response.status, 504, response.text);
      assert.equal(response.body.code, 'upstream_timeout');
      // The sandbox logs a request once it has answered it: none has, so the proxy gave up first.
      assert.deepEqual(
        slow.upstreamCalls(since).filter((c) => c.path === '/consultation/cns_demo_alex_rash'),
        [],
        'the proxy gave up before the upstream answered',
      );
    } finally {
      await slow.sandbox.control('/faults', { latencyMs: 0 });
      // The sandbox logs the slow requests when it finally answers them: wait, so that later
      // tests' "zero upstream calls" are not disturbed by them.
      await eventually(
        'the slow requests to finish',
        () =>
          slow.upstreamCalls(since).filter((c) => c.path === '/consultation/cns_demo_alex_rash').length >= 2,
        5000,
      );
    }
  });

  it('an upstream redirect is not followed → 502, the redirect target never called', async () => {
    const targetHits: string[] = [];
    const target: Server = createServer((req, res) => {
      targetHits.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"consultationId":"x"}');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    const redirector: Server = createServer((req, res) => {
      res.writeHead(302, { location: `${targetUrl}${req.url}` }).end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    const redirectorUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
    try {
      // Consultation reads go to a server that redirects them: the proxy's own fetch options decide.
      const redirecting: typeof fetch = (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        if (url.pathname.startsWith('/consultation/')) return fetch(`${redirectorUrl}${url.pathname}`, init);
        return fetch(input, init);
      };
      const redirected = await proxyWith({ fetch: redirecting });
      const token = await redirected.session('alex');
      const response = await redirected.call('GET', '/consultation/cns_demo_alex_rash', { token });
      assert.equal(response.status, 502, response.text);
      assert.equal(response.body.code, 'upstream_failed');
      assert.ok(!response.text.includes(targetUrl) && !response.text.includes('location'));
      await sleep(50);
      assert.deepEqual(targetHits, [], 'the redirect target was never called');
    } finally {
      for (const server of [target, redirector]) {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      }
    }
  });
});

describe('S9: CORS for configured origins only; state-changing calls check Origin', () => {
  const preflight = (origin: string) =>
    proxy.call('OPTIONS', '/consultation', {
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, idempotency-key',
      },
    });

  it('a foreign-origin preflight gets no Access-Control-Allow-Origin', async () => {
    const response = await preflight(EVIL);
    assert.equal(response.headers.get('access-control-allow-origin'), null);
    assert.equal(response.headers.get('access-control-allow-credentials'), null);
  });

  it('a refused preflight is a warning naming the origin and the setting, once per origin, never for an allowed one', async () => {
    const own = await proxyWith({ allowedOrigins: [ALLOWED_ORIGIN] });
    const warnings = () =>
      own.logs.filter((entry) => entry.level === 'warn' && entry.code === 'origin_not_allowed');
    const foreign = (origin: string) =>
      own.call('OPTIONS', '/session', {
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
    await foreign('http://localhost:5173');
    await foreign('http://localhost:5173');
    assert.equal(warnings().length, 1, 'once for the same origin');
    assert.match(
      warnings()[0]?.message ?? '',
      /^refused a preflight from the origin http:\/\/localhost:5173, so its browser refuses the call: add it to CONSULT_ALLOWED_ORIGINS/,
    );
    assert.equal(warnings()[0]?.path, '/consult/session');
    await foreign('https://other.example');
    assert.equal(warnings().length, 2, 'another origin is named too');
    // Not a header's text repeated: something that is not an origin is not written to the log.
    await foreign('javascript:alert(1)//' + 'x'.repeat(300));
    assert.match(warnings()[2]?.message ?? '', /from an origin that is not a URL/);
    assert.doesNotMatch(JSON.stringify(own.logs), /javascript:/);
    const before = warnings().length;
    const allowed = await foreign(ALLOWED_ORIGIN);
    assert.equal(allowed.headers.get('access-control-allow-origin'), ALLOWED_ORIGIN);
    assert.equal(warnings().length, before, 'no warning for an allowed origin');
  });

  it('an allowed origin’s preflight gets it, with Vary: Origin, never *', async () => {
    const response = await preflight(ALLOWED_ORIGIN);
    assert.ok(response.status >= 200 && response.status < 300, String(response.status));
    assert.equal(response.headers.get('access-control-allow-origin'), ALLOWED_ORIGIN);
    assert.match(response.headers.get('vary') ?? '', /\bOrigin\b/i);
    assert.match(response.headers.get('access-control-allow-headers') ?? '', /authorization/i);
    // DELETE is for ending the session (DELETE /session), PUT for read marks
    // (PUT /consultations/:id/seen); nothing is ever PATCHed.
    assert.deepEqual(
      (response.headers.get('access-control-allow-methods') ?? '')
        .split(',')
        .map((m) => m.trim())
        .sort(),
      ['DELETE', 'GET', 'POST', 'PUT'],
    );
  });

  it('actual responses: the allowed origin echoed with Vary: Origin, a foreign one nothing, never *', async () => {
    const allowed = await proxy.call('GET', `/user/${ALEX}`, {
      token: alex,
      headers: { origin: ALLOWED_ORIGIN },
    });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.headers.get('access-control-allow-origin'), ALLOWED_ORIGIN);
    assert.match(allowed.headers.get('vary') ?? '', /\bOrigin\b/i);
    const foreign = await proxy.call('GET', `/user/${ALEX}`, { token: alex, headers: { origin: EVIL } });
    assert.equal(foreign.headers.get('access-control-allow-origin'), null);
    for (const wire of proxy.wire) assert.doesNotMatch(wire, /access-control-allow-origin\n\*/i);
  });

  it('a cross-site POST (Origin: https://evil.example) → 403, zero upstream calls', async () => {
    const since = proxy.mark();
    for (const path of ['/consultation', '/session', '/prescription', '/consultation/cns_demo_alex_rash']) {
      const response = await proxy.call('POST', path, {
        token: alex,
        headers: { origin: EVIL },
        body:
          path === '/session' ? { demoUser: 'alex' } : path === '/prescription' ? {} : { questions: ['Hi'] },
      });
      assert.equal(response.status, 403, `${path}: ${response.text}`);
      assert.equal(response.body.code, 'origin_not_allowed');
    }
    const nullOrigin = await proxy.call('POST', '/consultation', {
      token: alex,
      headers: { origin: 'null' },
      body: { questions: ['Hi'] },
    });
    assert.equal(nullOrigin.status, 403);
    assert.deepEqual(proxy.upstreamCalls(since), []);
  });

  it('same-origin, allowed-origin and no-Origin POSTs work', async () => {
    for (const headers of [{ origin: proxy.origin }, { origin: ALLOWED_ORIGIN }, {}] as Record<
      string,
      string
    >[]) {
      const response = await proxy.call('POST', '/consultation', {
        token: alex,
        headers,
        body: { questions: [`Posted with ${JSON.stringify(headers)}`] },
      });
      assert.equal(response.status, 201, `${JSON.stringify(headers)}: ${response.text}`);
    }
  });

  it('member responses, errors included, are cache-control: no-store; no cookies are set', async () => {
    const responses = [
      await proxy.call('POST', '/session', { body: { demoUser: 'alex' } }),
      await proxy.call('GET', `/user/${ALEX}/case-history`, { token: alex }),
      await proxy.call('GET', '/consultation/cns_demo_alex_rash', { token: alex }),
      await proxy.call('GET', '/consultation/cns_demo_noor_fever', { token: alex }),
      await proxy.call('GET', `/user/${ALEX}`),
    ];
    assert.deepEqual(
      responses.map((r) => r.status),
      [200, 200, 200, 404, 401],
    );
    for (const response of responses) {
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.equal(response.headers.get('set-cookie'), null);
    }
  });

  it('/healthz → 200', async () => {
    const response = await proxy.call('GET', '/healthz');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { ok: true });
  });
});
