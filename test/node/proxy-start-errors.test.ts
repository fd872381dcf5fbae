/**
 * The proxy's mistakes-at-start and failures say what to do, against the real sandbox over HTTP:
 * a refused API key is said at start, naming the setting; an unreachable service is warned about
 * once and tried again; an upstream failure is logged with the service's status and code; a
 * failing `authenticate` hook is logged with its own message; a refused origin is named, with the
 * setting that allows it, in the answer and the log.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FetchInit, FetchResponse } from '../../src/client/client.js';
import { pooledFetch } from '../../src/proxy/node.js';
import { ApiKeyRefusedError } from '../../src/proxy/proxy.js';
import { startTestProxy, type TestProxy } from './support/proxy.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';

describe('the proxy says what to fix', () => {
  let sandbox: TestSandbox;
  const proxies: TestProxy[] = [];
  const start = async (options: Parameters<typeof startTestProxy>[0]) => {
    const proxy = await startTestProxy({ sandbox, ...options });
    proxies.push(proxy);
    return proxy;
  };

  before(async () => {
    sandbox = await startTestSandbox();
  });

  after(async () => {
    for (const proxy of proxies) await proxy.close();
    await sandbox?.close();
  });

  it('a refused API key: apiKeyChecked rejects at start, and the log names CONSULT_API_KEY', async () => {
    const proxy = await start({ apiKey: 'a-key-the-service-does-not-know' });
    const error = await proxy.server.proxy.apiKeyChecked.then(
      () => assert.fail('the key was accepted'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ApiKeyRefusedError);
    assert.equal(error.status, 401);
    assert.match(error.message, /the service refused the API key \(401 \w+\): check CONSULT_API_KEY/);
    const logged = proxy.logs.filter((entry) => entry.level === 'error');
    assert.equal(logged.length, 1, JSON.stringify(proxy.logs));
    assert.match(logged[0]?.message ?? '', /check CONSULT_API_KEY/);
    assert.ok(
      !JSON.stringify(proxy.logs).includes('a-key-the-service-does-not-know'),
      'the key is not logged',
    );
  });

  it('an accepted key: its token is the one the first member’s call uses (one exchange in all)', async () => {
    const proxy = await start({});
    await proxy.server.proxy.apiKeyChecked;
    const since = proxy.mark();
    await proxy.session('alex');
    const exchanges = proxy.upstreamCalls(since).filter((r) => r.path === '/partner/authorization/token');
    assert.equal(exchanges.length, 0);
  });

  it('the service unreachable at start: one warning, tried again, then accepted', async () => {
    let refusals = 3;
    const pooled = pooledFetch();
    const flaky = Object.assign(
      (input: string, init: FetchInit): Promise<FetchResponse> => {
        if (input.endsWith('/partner/authorization/token') && refusals-- > 0) {
          return Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }));
        }
        return pooled(input, init);
      },
      { enforcesLimits: pooled.enforcesLimits },
    );
    const proxy = await start({ fetch: flaky, limits: { apiKeyCheckRetryMs: 50 } });
    await proxy.server.proxy.apiKeyChecked;
    const warnings = proxy.logs.filter((entry) => /could not check the API key/.test(entry.message));
    assert.equal(warnings.length, 1, JSON.stringify(proxy.logs));
    assert.equal(warnings[0]?.level, 'warn');
    assert.match(warnings[0]?.message ?? '', new RegExp(`${sandbox.url}.*trying again every 0.05 s`));
    assert.ok(proxy.logs.some((entry) => /accepted the API key/.test(entry.message)));
    // And it serves.
    assert.equal(typeof (await proxy.session('alex')), 'string');
  });

  it('an upstream failure: the member gets 502, the log has the service’s status and code', async () => {
    const proxy = await start({});
    const token = await proxy.session('alex');
    await sandbox.control('/faults', { errorRate: 1 });
    try {
      const response = await proxy.call('GET', '/user/usr_demo_alex/case-history', { token });
      assert.equal(response.status, 502);
      assert.equal(response.body.code, 'upstream_failed');
    } finally {
      await sandbox.control('/faults', { errorRate: 0 });
    }
    const line = proxy.logs.find((entry) => /^the service failed/.test(entry.message));
    assert.ok(line, JSON.stringify(proxy.logs));
    assert.equal(line.level, 'error');
    assert.equal(line.status, 503);
    assert.equal(line.code, 'sandbox_fault');
    assert.match(line.message, /the service failed \(503 sandbox_fault\), answered 502 upstream_failed/);
  });

  it('a failing authenticate hook: 500 to the browser, its own message in the log', async () => {
    const proxy = await start({
      authenticate: () => {
        throw new Error('PORTAL_COOKIE_SECRET is not set');
      },
    });
    const response = await proxy.call('POST', '/session', { body: {} });
    assert.equal(response.status, 500);
    assert.equal(response.body.code, 'authenticate_failed');
    assert.ok(
      proxy.logs.some(
        (entry) =>
          entry.level === 'error' &&
          entry.message === 'authenticate hook failed: PORTAL_COOKIE_SECRET is not set',
      ),
      JSON.stringify(proxy.logs),
    );
  });

  it('a hook’s message goes to the log without what it quotes or anything like a token', async () => {
    const proxy = await start({
      authenticate: () => {
        // What JSON.parse says about a cookie it could not read: it quotes the cookie.
        throw new SyntaxError(
          'Unexpected token \'s\', "session-3f9a8c1d2e7b4a6f9c0d1e2f3a4b5c6d" is not valid JSON',
        );
      },
    });
    await proxy.call('POST', '/session', { body: {} });
    const line = proxy.logs.find((entry) => entry.message.startsWith('authenticate hook failed'));
    assert.ok(line, JSON.stringify(proxy.logs));
    assert.equal(line.message, 'authenticate hook failed: Unexpected token …');
    assert.equal(line.code, 'SyntaxError');
  });

  for (const [thrown, logged] of [
    ['PORTAL_COOKIE_SECRET is not set', 'PORTAL_COOKIE_SECRET is not set'],
    [`Unexpected token 'x', "x{"m":"ale"... is not valid JSON`, 'Unexpected token …'],
    [`Couldn't read cookie 'alex: rash on my groin'`, 'Couldn …'],
    ['Key (email)=(alice@example.com) already exists', 'Key …'],
    ['session 3f9a8c1d2e7b4a6f9c0d1e2f3a4b5c6d7e8f expired', 'session … expired'],
  ]) {
    it(`logs "${logged}" for a hook that threw "${thrown}"`, async () => {
      const proxy = await start({
        authenticate: () => {
          throw new Error(thrown);
        },
      });
      await proxy.call('POST', '/session', { body: {} });
      const line = proxy.logs.find((entry) => entry.message.startsWith('authenticate hook failed'));
      assert.equal(line?.message, `authenticate hook failed: ${logged}`);
    });
  }

  it('a refused origin is named, with the setting that allows it, in the answer and the log', async () => {
    const proxy = await start({});
    const response = await proxy.call('POST', '/session', {
      body: { demoUser: 'alex' },
      headers: { origin: 'http://localhost:5173', 'content-type': 'application/json' },
    });
    assert.equal(response.status, 403);
    assert.equal(response.body.code, 'origin_not_allowed');
    assert.match(response.body.detail, /the origin http:\/\/localhost:5173 .*CONSULT_ALLOWED_ORIGINS/);
    const line = proxy.logs.find((entry) => entry.code === 'origin_not_allowed');
    assert.ok(line, JSON.stringify(proxy.logs));
    assert.match(line.message, /http:\/\/localhost:5173: add it to CONSULT_ALLOWED_ORIGINS/);

    // An Origin header that is not an origin is not repeated.
    const odd = await proxy.call('POST', '/session', {
      body: { demoUser: 'alex' },
      headers: { origin: `https://x.example/${'a'.repeat(300)}`, 'content-type': 'application/json' },
    });
    assert.equal(odd.status, 403);
    assert.match(odd.body.detail, /^Requests from an origin that is not a URL are not allowed/);
    assert.ok(!JSON.stringify(proxy.logs).includes('aaaaaaaaaa'));
  });
});
