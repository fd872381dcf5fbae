import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { ApiError, ConsultClient } from '../../src/client/index.js';
import type { TokenGrant } from '../../src/client/index.js';
import { deferred, json, ok, problem, recordingSleep, rejection, scriptedFetch } from './client-fixtures.js';

const BASE = 'https://api.example.test';
const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);
const user = { id: 'u1' };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A clock the test moves, and a provider that hands out tok-1, tok-2, … valid for `lifetimeMs`. */
function setup(options: { lifetimeMs?: number; expiresAt?: (now: number) => TokenGrant['expiresAt'] } = {}) {
  const clock = { now: T0 };
  const signals: (AbortSignal | undefined)[] = [];
  const tokenProvider = async (signal?: AbortSignal): Promise<TokenGrant> => {
    signals.push(signal);
    const token = `tok-${signals.length}`;
    await pause(5);
    return {
      token,
      expiresAt: options.expiresAt?.(clock.now) ?? clock.now + (options.lifetimeMs ?? 600_000),
    };
  };
  const { fetch, requests } = scriptedFetch([], ok(user));
  const client = new ConsultClient({ baseUrl: BASE, fetch, tokenProvider, now: () => clock.now });
  const tokensSent = () => requests.map((r) => r.headers.get('authorization'));
  return { clock, client, requests, signals, tokensSent };
}

describe('token provider', () => {
  it('sends the token as a bearer credential and reuses it', async () => {
    const { client, signals, tokensSent } = setup();
    await client.getUser('u1');
    await client.getCaseHistory('u1');
    await client.createConsultation({ userId: 'u1', questions: ['q'] });
    assert.equal(signals.length, 1);
    assert.deepEqual(tokensSent(), ['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-1']);
  });

  it('makes one provider call for 20 parallel calls with an expired token, and all 20 succeed', async () => {
    const { clock, client, signals, requests, tokensSent } = setup({ lifetimeMs: 60_000 });
    await client.getUser('u1');
    clock.now += 61_000;
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => client.getUser(`u${i}`)));
    assert.equal(results.length, 20);
    assert.ok(results.every((r) => r.id === 'u1'));
    assert.equal(signals.length, 2);
    assert.equal(requests.length, 21);
    assert.ok(
      tokensSent()
        .slice(1)
        .every((t) => t === 'Bearer tok-2'),
    );
  });

  it('makes one provider call for 20 parallel first calls', async () => {
    const { client, signals } = setup();
    await Promise.all(Array.from({ length: 20 }, () => client.getUser('u1')));
    assert.equal(signals.length, 1);
  });

  it('renews 30 s before expiry', async () => {
    const { clock, client, tokensSent } = setup({ lifetimeMs: 600_000 });
    await client.getUser('u1');
    clock.now = T0 + 600_000 - 31_000;
    await client.getUser('u1');
    clock.now = T0 + 600_000 - 29_000;
    await client.getUser('u1');
    assert.deepEqual(tokensSent(), ['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-2']);
  });

  it('renews no earlier than half way through a short lifetime', async () => {
    const { clock, client, tokensSent } = setup({ lifetimeMs: 40_000 });
    await client.getUser('u1');
    clock.now = T0 + 19_000;
    await client.getUser('u1');
    clock.now = T0 + 21_000;
    await client.getUser('u1');
    assert.deepEqual(tokensSent(), ['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-2']);
  });

  for (const [label, expiresAt] of [
    ['an ISO string', (now: number) => new Date(now + 60_000).toISOString()],
    ['a Date', (now: number) => new Date(now + 60_000)],
    ['epoch seconds', (now: number) => (now + 60_000) / 1000],
  ] as const) {
    it(`reads expiresAt given as ${label}`, async () => {
      const { clock, client, tokensSent } = setup({ expiresAt });
      await client.getUser('u1');
      clock.now = T0 + 29_000;
      await client.getUser('u1');
      clock.now = T0 + 31_000;
      await client.getUser('u1');
      assert.deepEqual(tokensSent(), ['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-2']);
    });
  }

  it('keeps a token with an unreadable expiry until the server refuses it', async () => {
    const { clock, client, signals } = setup({ expiresAt: () => 'whenever' });
    await client.getUser('u1');
    clock.now += 365 * 86_400_000;
    await client.getUser('u1');
    assert.equal(signals.length, 1);
  });

  it('does not cache a provider failure, and passes it on as is', async () => {
    const failure = new Error('proxy said no');
    let calls = 0;
    const { fetch, requests } = scriptedFetch([], ok(user));
    const client = new ConsultClient({
      baseUrl: BASE,
      fetch,
      tokenProvider: async () => {
        calls++;
        if (calls === 1) throw failure;
        return { token: 'good', expiresAt: Date.now() + 600_000 };
      },
    });
    assert.equal(await rejection(client.getUser('u1')), failure);
    assert.equal(requests.length, 0);
    await client.getUser('u1');
    assert.equal(calls, 2);
    assert.equal(requests[0]!.headers.get('authorization'), 'Bearer good');
  });

  it('refuses a provider answer without a token', async () => {
    const { fetch, requests } = scriptedFetch([], ok(user));
    const client = new ConsultClient({
      baseUrl: BASE,
      fetch,
      tokenProvider: async () => ({ token: '', expiresAt: 0 }),
    });
    const error = await rejection(client.getUser('u1'));
    assert.ok(error instanceof TypeError);
    assert.equal(requests.length, 0);
  });
});

describe('clearToken()', () => {
  it('forgets the cached token: the next call asks the provider for a new one', async () => {
    const { client, signals, tokensSent } = setup();
    await client.getUser('u1');
    client.clearToken();
    await client.getUser('u1');
    assert.equal(signals.length, 2);
    assert.deepEqual(tokensSent(), ['Bearer tok-1', 'Bearer tok-2']);
  });

  it('does not cache a token that was on its way when cleared, but still answers the call waiting for it', async () => {
    const { client, signals, tokensSent } = setup();
    const waiting = client.getUser('u1');
    client.clearToken();
    await waiting;
    await client.getUser('u1');
    assert.equal(signals.length, 2);
    assert.deepEqual(tokensSent(), ['Bearer tok-1', 'Bearer tok-2']);
  });
});

describe('aborting while waiting for a token', () => {
  function hangingProvider() {
    const signals: (AbortSignal | undefined)[] = [];
    const release = deferred<TokenGrant>();
    const tokenProvider = (signal?: AbortSignal) => {
      signals.push(signal);
      return release.promise;
    };
    return { signals, release, tokenProvider };
  }

  it('rejects promptly and cancels the provider call when nobody else waits', async () => {
    const { signals, tokenProvider } = hangingProvider();
    const { fetch, requests } = scriptedFetch([], ok(user));
    const client = new ConsultClient({ baseUrl: BASE, fetch, tokenProvider });
    const controller = new AbortController();
    const pending = rejection(client.getUser('u1', { signal: controller.signal }));
    await pause(5);
    controller.abort();
    assert.equal(((await pending) as DOMException).name, 'AbortError');
    assert.equal(signals.length, 1);
    assert.equal(signals[0]?.aborted, true);
    assert.equal(requests.length, 0);
  });

  it('keeps the provider call going for the callers still waiting', async () => {
    const { signals, release, tokenProvider } = hangingProvider();
    const { fetch, requests } = scriptedFetch([], ok(user));
    const client = new ConsultClient({ baseUrl: BASE, fetch, tokenProvider });
    const controller = new AbortController();
    const aborted = rejection(client.getUser('u1', { signal: controller.signal }));
    const patient = client.getUser('u2');
    await pause(5);
    controller.abort();
    assert.equal(((await aborted) as DOMException).name, 'AbortError');
    assert.equal(signals[0]?.aborted, false);
    release.resolve({ token: 'late', expiresAt: Date.now() + 600_000 });
    assert.deepEqual(await patient, user);
    assert.equal(signals.length, 1);
    assert.deepEqual(
      requests.map((r) => r.url.pathname),
      ['/user/u2'],
    );
  });
});

describe('401', () => {
  /** A server that accepts only `valid` tokens. */
  function server(valid: (auth: string | null) => boolean) {
    return scriptedFetch([], (request) =>
      valid(request.headers.get('authorization')) ? json(200, user) : problem(401, { code: 'unauthorized' }),
    );
  }

  function clientWith(fetch: ReturnType<typeof scriptedFetch>['fetch'], tokens: string[]) {
    let calls = 0;
    const client = new ConsultClient({
      baseUrl: BASE,
      fetch,
      retry: { retries: 0 },
      tokenProvider: async () => {
        const token = tokens[Math.min(calls, tokens.length - 1)]!;
        calls++;
        await pause(2);
        return { token, expiresAt: Date.now() + 600_000 };
      },
    });
    return { client, providerCalls: () => calls };
  }

  it('renews the token once and repeats the call (not counted as a retry)', async () => {
    const { fetch, requests } = server((auth) => auth === 'Bearer new');
    const { client, providerCalls } = clientWith(fetch, ['revoked', 'new']);
    assert.deepEqual(await client.getUser('u1'), user);
    assert.equal(providerCalls(), 2);
    assert.deepEqual(
      requests.map((r) => r.headers.get('authorization')),
      ['Bearer revoked', 'Bearer new'],
    );
  });

  it('repeats a create after a 401 with the same Idempotency-Key', async () => {
    const { fetch, requests } = server((auth) => auth === 'Bearer new');
    const { client } = clientWith(fetch, ['revoked', 'new']);
    await client.createConsultation({ userId: 'u1', questions: ['q'] });
    const keys = requests.map((r) => r.headers.get('idempotency-key'));
    assert.equal(keys.length, 2);
    assert.equal(keys[0], keys[1]);
  });

  it('throws the second 401 without looping', async () => {
    let seen = 0;
    // Refuses every token; after 10 requests it gives in, so that a loop would show as a success, not a hang.
    const { fetch, requests } = server(() => ++seen > 10);
    const { client, providerCalls } = clientWith(fetch, ['a', 'b', 'c', 'd']);
    const error = await rejection(client.getUser('u1'));
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 401);
    assert.equal(error.code, 'unauthorized');
    assert.equal(requests.length, 2);
    assert.equal(providerCalls(), 2);
    // The refused token is not kept: the next call starts with a fresh one, and again stops after one renewal.
    await rejection(client.getUser('u1'));
    assert.equal(requests.length, 4);
    assert.deepEqual(
      requests.map((r) => r.headers.get('authorization')),
      ['Bearer a', 'Bearer b', 'Bearer c', 'Bearer d'],
    );
  });

  it('renews once for many parallel calls refused together', async () => {
    const { fetch, requests } = server((auth) => auth === 'Bearer new');
    const { client, providerCalls } = clientWith(fetch, ['revoked', 'new', 'newer']);
    const results = await Promise.all(Array.from({ length: 10 }, () => client.getUser('u1')));
    assert.equal(results.length, 10);
    assert.equal(providerCalls(), 2);
    const sent = requests.map((r) => r.headers.get('authorization'));
    assert.equal(sent.filter((t) => t === 'Bearer revoked').length, 10);
    assert.equal(sent.filter((t) => t === 'Bearer new').length, 10);
  });

  it('does not drop a newer token when a late 401 arrives for an older one', async () => {
    const gate = deferred();
    let oldSeen = 0;
    const { fetch, requests } = scriptedFetch([], async (request) => {
      if (request.headers.get('authorization') === 'Bearer new') return json(200, user);
      oldSeen++;
      if (oldSeen === 2) await gate.promise; // B's 401 for the old token arrives after A has renewed
      return problem(401);
    });
    const { client, providerCalls } = clientWith(fetch, ['old', 'new', 'newer']);
    const a = client.getUser('a');
    const b = client.getUser('b');
    await a;
    gate.resolve();
    await b;
    assert.equal(providerCalls(), 2);
    assert.deepEqual(
      requests.map((r) => `${r.url.pathname} ${r.headers.get('authorization')}`),
      ['/user/a Bearer old', '/user/b Bearer old', '/user/a Bearer new', '/user/b Bearer new'],
    );
  });
});

describe('API key mode', () => {
  const API_KEY = 'sk_live_canary_7f3a9e';

  function upstream(tokenResponses: (() => Response)[] = []) {
    let issued = 0;
    return scriptedFetch([], async (request) => {
      if (request.url.pathname === '/partner/authorization/token') {
        await pause(5);
        const next = tokenResponses.shift();
        if (next) return next();
        issued++;
        return json(200, { accessToken: `access-${issued}`, tokenType: 'Bearer', expiresIn: 120 });
      }
      return json(200, user);
    });
  }

  it('makes exactly one token request for parallel calls, without Authorization', async () => {
    const { fetch, requests } = upstream();
    const client = new ConsultClient({ baseUrl: BASE, fetch, apiKey: API_KEY, subPartnerName: 'acme-east' });
    await Promise.all(Array.from({ length: 10 }, () => client.getUser('u1')));

    const tokenRequests = requests.filter((r) => r.url.pathname === '/partner/authorization/token');
    assert.equal(tokenRequests.length, 1);
    const tokenRequest = tokenRequests[0]!;
    assert.equal(tokenRequest.method, 'POST');
    assert.deepEqual(tokenRequest.body, { apiKey: API_KEY, subPartnerName: 'acme-east' });
    assert.equal(tokenRequest.headers.get('authorization'), null);
    assert.equal(tokenRequest.headers.get('idempotency-key'), null);
    const calls = requests.filter((r) => r.url.pathname === '/user/u1');
    assert.equal(calls.length, 10);
    assert.ok(calls.every((r) => r.headers.get('authorization') === 'Bearer access-1'));
  });

  it('leaves subPartnerName out when not given, and renews 30 s before expiresIn runs out', async () => {
    const clock = { now: T0 };
    const { fetch, requests } = upstream();
    const client = new ConsultClient({ baseUrl: BASE, fetch, apiKey: API_KEY, now: () => clock.now });
    await client.getUser('u1');
    clock.now = T0 + 89_000;
    await client.getUser('u1');
    clock.now = T0 + 91_000;
    await client.getUser('u1');
    assert.deepEqual(requests[0]!.body, { apiKey: API_KEY });
    assert.deepEqual(
      requests.map((r) => r.headers.get('authorization') ?? r.url.pathname),
      [
        '/partner/authorization/token',
        'Bearer access-1',
        'Bearer access-1',
        '/partner/authorization/token',
        'Bearer access-2',
      ],
    );
  });

  it('retries the token request on a 503', async () => {
    const { sleep, delays } = recordingSleep();
    const { fetch, requests } = upstream([() => problem(503)]);
    const client = new ConsultClient({ baseUrl: BASE, fetch, apiKey: API_KEY, sleep, random: () => 0.5 });
    await client.getUser('u1');
    assert.equal(requests.length, 3);
    assert.deepEqual(delays, [125]);
  });

  it('never puts the API key or a token into an error, even when the server echoes them', async () => {
    const echo = () =>
      problem(400, {
        title: `Bad key ${API_KEY}`,
        detail: `apiKey ${API_KEY} is not valid`,
        code: 'invalid_input',
        errors: [{ field: 'apiKey', message: `${API_KEY} is unknown` }],
      });
    const { fetch } = upstream([echo]);
    const client = new ConsultClient({ baseUrl: BASE, fetch, apiKey: API_KEY });
    const error = await rejection(client.getUser('u1'));
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 400);
    assert.equal(error.operation, 'createAccessToken');
    assert.equal(error.detail, 'apiKey [redacted] is not valid');
    assert.deepEqual(error.errors, [{ field: 'apiKey', message: '[redacted] is unknown' }]);
    const everything = [
      error.message,
      error.stack,
      inspect(error, { depth: 10 }),
      JSON.stringify(error),
    ].join();
    assert.ok(!everything.includes(API_KEY));
    assert.ok(!inspect(client, { depth: 10, showHidden: true }).includes(API_KEY));

    const { fetch: fetch2 } = scriptedFetch([], (request) =>
      request.url.pathname === '/partner/authorization/token'
        ? json(200, { accessToken: 'access-secret-1', tokenType: 'Bearer', expiresIn: 120 })
        : problem(403, { detail: `token access-secret-1 may not read ${request.url.pathname}` }),
    );
    const client2 = new ConsultClient({ baseUrl: BASE, fetch: fetch2, apiKey: API_KEY });
    const forbidden = await rejection(client2.getUser('u1'));
    assert.ok(forbidden instanceof ApiError);
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.detail, 'token [redacted] may not read /user/u1');
    assert.ok(!inspect(forbidden, { depth: 10 }).includes('access-secret-1'));
  });

  it('keeps a network failure of the token request free of the key', async () => {
    const { fetch } = scriptedFetch([new TypeError('fetch failed')]);
    const client = new ConsultClient({ baseUrl: BASE, fetch, apiKey: API_KEY, retry: { retries: 0 } });
    const error = await rejection(client.getUser('u1'));
    assert.ok(error instanceof ApiError);
    assert.equal(error.kind, 'network');
    assert.ok(!inspect(error, { depth: 10 }).includes(API_KEY));
  });
});
