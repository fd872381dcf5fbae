/**
 * Edges of S3, S4, S9, S15 and S17 found in review: HEAD, the exposed Retry-After, ownership reads
 * that reveal nothing, the Origin check against the configured public origin, and upstream field
 * messages kept from the browser.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ALLOWED_ORIGIN, startTestProxy, type TestProxy } from './support/proxy.js';

describe('the proxy, hardened', () => {
  let proxy: TestProxy;
  let alex: string;
  /** Upstream answers to script, by method and path, before the real sandbox is asked. */
  const scripted = new Map<string, () => Response>();

  before(async () => {
    proxy = await startTestProxy({
      publicUrl: 'https://portal.example.org/consult',
      fetch: async (input, init) => {
        const url = new URL(input);
        const answer = scripted.get(`${init?.method ?? 'GET'} ${url.pathname}`);
        return answer ? answer() : fetch(input, init);
      },
    });
    alex = await proxy.session('alex');
  });
  after(() => proxy.close());

  it('answers HEAD on every member route with 404 and no upstream call', async () => {
    await proxy.call('GET', '/user/usr_demo_alex', { token: alex });
    for (const path of [
      '/user/usr_demo_alex',
      '/user/usr_demo_alex/case-history',
      '/consultation/cns_demo_alex_rash',
      '/events',
      '/healthz',
    ]) {
      const since = proxy.mark();
      const response = await proxy.call('HEAD', path, { token: alex });
      assert.equal(response.status, 404, path);
      assert.deepEqual(proxy.upstreamCalls(since), [], path);
    }
  });

  it('lets a browser on an allowed origin read Retry-After', async () => {
    const response = await proxy.call('GET', '/user/usr_demo_alex', {
      token: alex,
      headers: { origin: ALLOWED_ORIGIN },
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('access-control-expose-headers') ?? '', /retry-after/i);
    // A portal on that origin may send its sign-in cookie along.
    assert.equal(response.headers.get('access-control-allow-credentials'), 'true');
  });

  it('without a configured public URL, accepts its own host behind a TLS-terminating proxy', async () => {
    const plain = await startTestProxy();
    try {
      const token = await plain.session('alex');
      const host = new URL(plain.origin).host;
      const response = await plain.call('POST', '/v2/health-navigator/users/usr_demo_alex/conversations', {
        token,
        body: {},
        // The browser saw https; the request reaches the proxy as plain http.
        headers: { origin: `https://${host}` },
      });
      assert.equal(response.status, 201, response.text);
      const foreign = await plain.call('POST', '/v2/health-navigator/users/usr_demo_alex/conversations', {
        token,
        body: {},
        headers: { origin: 'https://evil.example' },
      });
      assert.equal(foreign.status, 403);
    } finally {
      await plain.close();
    }
  });

  it("answers 404, not the upstream's refusal, for another member's consultation", async () => {
    scripted.set('GET /consultation/cns_someone_elses', () =>
      Response.json(
        { type: 'about:blank', title: 'Forbidden', status: 403, code: 'user_inactive' },
        { status: 403 },
      ),
    );
    scripted.set('GET /consultation/cns_someone_closed', () =>
      Response.json(
        { type: 'about:blank', title: 'Conflict', status: 409, code: 'consultation_closed' },
        { status: 409 },
      ),
    );
    for (const id of ['cns_someone_elses', 'cns_someone_closed']) {
      const read = await proxy.call('GET', `/consultation/${id}`, { token: alex });
      const followUp = await proxy.call('POST', `/consultation/${id}`, {
        token: alex,
        body: { question: 'Hello?' },
      });
      for (const response of [read, followUp]) {
        assert.equal(response.status, 404, id);
        assert.equal(response.body.code, 'not_found');
      }
    }
  });

  it('checks Origin against the configured public origin, not the Host header', async () => {
    const forged = await proxy.call('POST', '/consultation', {
      token: alex,
      body: { questions: ['Is this allowed?'] },
      headers: { origin: 'http://evil.test', host: 'evil.test' },
    });
    assert.equal(forged.status, 403);
    assert.equal(forged.body.code, 'origin_not_allowed');
    const own = await proxy.call('POST', '/v2/health-navigator/users/usr_demo_alex/conversations', {
      token: alex,
      body: {},
      headers: { origin: 'https://portal.example.org' },
    });
    assert.equal(own.status, 201);
  });

  it("keeps the upstream's words about bad fields from the browser", async () => {
    scripted.set('POST /prescription', () =>
      Response.json(
        {
          type: 'about:blank',
          title: 'Invalid request',
          status: 400,
          code: 'invalid_request',
          errors: [
            { field: 'indicationSurvey.allergies', message: 'UPSTREAM-INTERNAL echo of <private answer>' },
          ],
        },
        { status: 400 },
      ),
    );
    const response = await proxy.call('POST', '/prescription', {
      token: alex,
      body: { indicationSurvey: { allergies: 'x' } },
    });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body.errors, [
      { field: 'indicationSurvey.allergies', message: 'is not valid' },
    ]);
    assert.ok(!response.text.includes('UPSTREAM-INTERNAL'));
  });
});
