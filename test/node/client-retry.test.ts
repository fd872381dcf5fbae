import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, ConsultClient, OPERATIONS, canRetry } from '../../src/client/index.js';
import type { ConsultClientOptions, FetchInit } from '../../src/client/index.js';
import { json, problem, recordingSleep, rejection, scriptedFetch, type Step } from './client-fixtures.js';

const BASE = 'https://api.example.test';
const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);
const user = { id: 'u1' };

/** A client with half-way jitter and recorded, instant sleeps: the backoffs are 50, 100, 200, 400 ms. */
function setup(steps: Step[], options: Partial<ConsultClientOptions> = {}) {
  const { fetch, requests } = scriptedFetch(steps);
  const { sleep, delays } = recordingSleep();
  const client = new ConsultClient({
    baseUrl: BASE,
    fetch,
    sleep,
    random: () => 0.5,
    now: () => NOW,
    retry: { retries: 3, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 10_000 },
    tokenProvider: async () => ({ token: 't', expiresAt: NOW + 3_600_000 }),
    ...options,
  } as ConsultClientOptions);
  return { client, requests, delays };
}

describe('retries', () => {
  for (const status of [502, 503, 504, 429]) {
    it(`retries a ${status} with jittered exponential backoff, then succeeds`, async () => {
      const { client, requests, delays } = setup([
        problem(status),
        problem(status),
        problem(status),
        json(200, user),
      ]);
      assert.deepEqual(await client.getUser('u1'), user);
      assert.equal(requests.length, 4);
      assert.deepEqual(delays, [50, 100, 200]);
    });
  }

  it('gives up after `retries` extra attempts and throws the last error', async () => {
    const { client, requests, delays } = setup([problem(503), problem(503), problem(502)], {
      retry: { retries: 2, baseDelayMs: 100 },
    });
    const error = await rejection(client.getUser('u1'));
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 502);
    assert.equal(requests.length, 3);
    assert.deepEqual(delays, [50, 100]);
  });

  it('uses the defaults: 2 retries, 250 ms base', async () => {
    const { client, requests, delays } = setup([problem(503), problem(503), problem(503)], {
      retry: {},
      random: () => 1,
    });
    await rejection(client.getUser('u1'));
    assert.equal(requests.length, 3);
    assert.deepEqual(delays, [250, 500]);
  });

  it('caps the backoff at maxDelayMs and draws the full jitter range', async () => {
    const steps = (): Step[] => [...Array.from({ length: 5 }, () => problem(503)), json(200, user)];
    const high = setup(steps(), {
      random: () => 0.999999,
      retry: { retries: 5, baseDelayMs: 100, maxDelayMs: 300 },
    });
    await high.client.getUser('u1');
    assert.deepEqual(high.delays, [99, 199, 299, 299, 299]);

    const low = setup(steps(), { random: () => 0, retry: { retries: 5, baseDelayMs: 100, maxDelayMs: 300 } });
    await low.client.getUser('u1');
    assert.deepEqual(low.delays, [0, 0, 0, 0, 0]);
    assert.equal(low.requests.length, 6);
  });

  it('retries a network error, and reports it when retries run out', async () => {
    const { client, requests, delays } = setup(
      [new TypeError('fetch failed'), new TypeError('fetch failed')],
      {
        retry: { retries: 1, baseDelayMs: 100, unreachableWindowMs: 0 },
      },
    );
    const error = await rejection(client.getUser('u1'));
    assert.ok(error instanceof ApiError);
    assert.equal(error.kind, 'network');
    assert.equal(requests.length, 2);
    assert.deepEqual(delays, [50]);
  });

  it('waits out an unreachable service (a restart) beyond its retries, for a safe call', async () => {
    // Waits of 125, 250, 500, 1000 and 2000 ms (half-way jitter): the sixth try finds it back.
    const down = Array.from({ length: 5 }, () => new TypeError('connect ECONNREFUSED'));
    const { client, requests, delays } = setup([...down, json(200, user)], {
      retry: { retries: 2, baseDelayMs: 250, maxDelayMs: 8000, unreachableWindowMs: 3000 },
    });
    assert.deepEqual(await client.getUser('u1'), user);
    assert.equal(requests.length, 6);
    const waited = delays.reduce((sum, d) => sum + d, 0);
    assert.ok(waited >= 2500, `waited ${waited} ms in all, longer than a restart`);
  });

  it('gives up on an unreachable service once its window is spent', async () => {
    const down = Array.from({ length: 30 }, () => new TypeError('connect ECONNREFUSED'));
    const { client, requests, delays } = setup(down, {
      retry: { retries: 2, baseDelayMs: 250, maxDelayMs: 8000, unreachableWindowMs: 3000 },
    });
    const error = await rejection(client.getUser('u1'));
    assert.ok(error instanceof ApiError);
    assert.equal(error.kind, 'network');
    const waited = delays.reduce((sum, d) => sum + d, 0);
    assert.ok(waited >= 3000 && waited < 3000 + 8000, `waited ${waited} ms`);
    assert.ok(requests.length < 30, 'it stopped');
  });

  it('retries a timeout with a fresh timer for each attempt', async () => {
    const { client, requests, delays } = setup(['hang', 'hang', json(200, user)], { timeoutMs: 20 });
    assert.deepEqual(await client.getUser('u1'), user);
    assert.equal(requests.length, 3);
    assert.deepEqual(delays, [50, 100]);
    assert.ok(requests.slice(0, 2).every((r) => r.signal?.aborted));
  });

  it('honours Retry-After in seconds instead of the backoff', async () => {
    const { client, requests, delays } = setup([
      problem(429, {}, { 'retry-after': '3' }),
      problem(503, {}, { 'retry-after': '0' }),
      json(200, user),
    ]);
    await client.getUser('u1');
    assert.equal(requests.length, 3);
    assert.deepEqual(delays, [3000, 0]);
  });

  it('honours Retry-After as an HTTP date, measured on the injected clock', async () => {
    const in5s = new Date(NOW + 5000).toUTCString();
    const past = new Date(NOW - 60_000).toUTCString();
    const { client, delays } = setup([
      problem(503, {}, { 'retry-after': in5s }),
      problem(503, {}, { 'retry-after': past }),
      problem(503, {}, { 'retry-after': 'soon, maybe' }),
      json(200, user),
    ]);
    await client.getUser('u1');
    // An unreadable header falls back to the backoff of that retry (the third: 200 ms).
    assert.deepEqual(delays, [5000, 0, 200]);
  });

  it('throws at once, without waiting, when Retry-After asks for more than maxRetryAfterMs', async () => {
    const { client, requests, delays } = setup([
      problem(429, { code: 'rate_limited' }, { 'retry-after': '60' }),
    ]);
    const error = await rejection(client.getUser('u1'));
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 429);
    assert.equal(error.code, 'rate_limited');
    assert.equal(error.retryAfterMs, 60_000);
    assert.equal(requests.length, 1);
    assert.deepEqual(delays, []);
  });

  for (const status of [400, 403, 404, 409, 413, 422, 500]) {
    it(`never retries a ${status}`, async () => {
      const { client, requests, delays } = setup([problem(status), json(200, user)]);
      const error = await rejection(client.getUser('u1'));
      assert.ok(error instanceof ApiError);
      assert.equal(error.status, status);
      assert.equal(requests.length, 1);
      assert.deepEqual(delays, []);
    });
  }

  it('retries PUT, DELETE, the read-only POSTs and the token operation', async () => {
    const { client, requests, delays } = setup([
      problem(503),
      json(200, user),
      problem(503),
      new Response(null, { status: 204 }),
      problem(503),
      json(200, []),
      problem(503),
      json(200, {}),
      problem(503),
      json(200, { accessToken: 'a', tokenType: 'Bearer', expiresIn: 60 }),
    ]);
    await client.updateUser('u1', { language: 'de' });
    await client.deleteWebhook('w1');
    await client.searchUsersByBody({ uniqueId: 'm' });
    await client.formatWebhookEvent({ x: 1 });
    await client.createAccessToken({ apiKey: 'k' });
    assert.deepEqual(
      requests.map((r) => `${r.method} ${r.url.pathname}`),
      [
        'PUT /user/u1',
        'PUT /user/u1',
        'DELETE /webhook/w1',
        'DELETE /webhook/w1',
        'POST /user/search',
        'POST /user/search',
        'POST /webhook/format-event',
        'POST /webhook/format-event',
        'POST /partner/authorization/token',
        'POST /partner/authorization/token',
      ],
    );
    assert.deepEqual(delays, [50, 50, 50, 50, 50]);
  });
});

describe('idempotency keys on retries', () => {
  it('sends the same generated key on every attempt of one create', async () => {
    const { client, requests, delays } = setup(
      [problem(503), new TypeError('reset'), 'hang', json(200, {})],
      {
        timeoutMs: 20,
      },
    );
    await client.createConsultation({ userId: 'u1', questions: ['q'] });
    const keys = requests.map((r) => r.headers.get('idempotency-key'));
    assert.equal(keys.length, 4);
    assert.match(keys[0] ?? '', /^[0-9a-f-]{36}$/);
    assert.ok(keys.every((k) => k === keys[0]));
    assert.deepEqual(delays, [50, 100, 200]);
  });

  it('sends the caller’s key on every attempt', async () => {
    const { client, requests } = setup([problem(502), json(200, {})]);
    await client.sendNavigatorMessage({ conversationId: 'n', message: 'm' }, { idempotencyKey: 'k-1' });
    assert.deepEqual(
      requests.map((r) => r.headers.get('idempotency-key')),
      ['k-1', 'k-1'],
    );
  });

  it('does not retry a create on a 500, whose outcome is unknown', async () => {
    const { client, requests } = setup([problem(500), json(200, {})]);
    await rejection(client.createPrescriptionRequest({ userId: 'u1' }));
    assert.equal(requests.length, 1);
  });

  it('canRetry: reads always, creates only with a key', () => {
    for (const op of OPERATIONS) {
      assert.equal(canRetry(op), !op.creates, op.name);
      assert.equal(canRetry(op, 'key'), true, op.name);
      assert.equal(canRetry(op, ''), !op.creates, op.name);
    }
  });
});

describe('aborting', () => {
  it('rejects at once with the AbortError when already aborted, and sends nothing', async () => {
    const { client, requests } = setup([json(200, user)]);
    const error = await rejection(client.getUser('u1', { signal: AbortSignal.abort() }));
    assert.ok(error instanceof DOMException);
    assert.equal(error.name, 'AbortError');
    assert.equal(requests.length, 0);
  });

  it('rejects with the caller’s own reason', async () => {
    const { client } = setup([json(200, user)]);
    const reason = new Error('user left the page');
    const error = await rejection(client.getUser('u1', { signal: AbortSignal.abort(reason) }));
    assert.equal(error, reason);
  });

  it('aborts a call in flight promptly and does not retry it', async () => {
    const { client, requests, delays } = setup(['hang', json(200, user)]);
    const controller = new AbortController();
    // The response never comes: only the abort can end this call.
    const pending = rejection(client.getUser('u1', { signal: controller.signal }));
    setTimeout(() => controller.abort(), 10);
    const error = await pending;
    assert.ok(error instanceof DOMException);
    assert.equal(error.name, 'AbortError');
    assert.equal(requests.length, 1);
    assert.equal(requests[0]!.signal?.aborted, true);
    assert.deepEqual(delays, []);
  });

  it('aborts promptly even when the fetch ignores its signal', async () => {
    const { client } = setup([() => new Promise<Response>(() => undefined)]);
    const controller = new AbortController();
    const pending = rejection(client.getUser('u1', { signal: controller.signal }));
    setTimeout(() => controller.abort(), 10);
    const error = await pending;
    assert.ok(error instanceof DOMException);
    assert.equal(error.name, 'AbortError');
  });

  it('leaves the limits to a fetch that enforcesLimits: the caller’s signal and timeoutMs, passed straight on', async () => {
    const seen: { signal?: AbortSignal | null; timeoutMs?: number }[] = [];
    // Keeps both limits itself, as pooledFetch does.
    const fetch = Object.assign(
      (_input: string, init: FetchInit) =>
        new Promise<Response>((_, reject) => {
          seen.push({ signal: init.signal, timeoutMs: init.timeoutMs });
          const timer = setTimeout(
            () => reject(new DOMException('The request timed out.', 'TimeoutError')),
            init.timeoutMs,
          );
          init.signal?.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(init.signal?.reason);
          });
        }),
      { enforcesLimits: true },
    );
    const client = new ConsultClient({ baseUrl: BASE, fetch, timeoutMs: 20, retry: { retries: 0 } });
    const timedOut = await rejection(client.getUser('u1'));
    assert.ok(timedOut instanceof ApiError);
    assert.equal(timedOut.kind, 'timeout');
    const controller = new AbortController();
    const pending = rejection(client.getUser('u1', { signal: controller.signal }));
    setTimeout(() => controller.abort(), 5);
    const aborted = await pending;
    assert.ok(aborted instanceof DOMException);
    assert.equal(aborted.name, 'AbortError');
    assert.deepEqual(seen, [
      { signal: undefined, timeoutMs: 20 },
      { signal: controller.signal, timeoutMs: 20 },
    ]);
  });

  it('aborts during the backoff wait (real timers) without another attempt', async () => {
    const { fetch, requests } = scriptedFetch([problem(503), json(200, user)]);
    const client = new ConsultClient({
      baseUrl: BASE,
      fetch,
      random: () => 1,
      retry: { retries: 2, baseDelayMs: 60_000, maxDelayMs: 60_000 },
    });
    const controller = new AbortController();
    // The response never comes: only the abort can end this call.
    const pending = rejection(client.getUser('u1', { signal: controller.signal }));
    setTimeout(() => controller.abort(), 30);
    const error = await pending;
    assert.ok(error instanceof DOMException);
    assert.equal(error.name, 'AbortError');
    assert.equal(requests.length, 1);
  });

  it('aborts during a Retry-After wait with an injected sleep that ignores the signal', async () => {
    const { fetch, requests } = scriptedFetch([problem(429, {}, { 'retry-after': '5' }), json(200, user)]);
    const client = new ConsultClient({
      baseUrl: BASE,
      fetch,
      sleep: () => new Promise<void>(() => undefined),
    });
    const controller = new AbortController();
    const pending = rejection(client.getUser('u1', { signal: controller.signal }));
    setTimeout(() => controller.abort(), 10);
    assert.equal(((await pending) as DOMException).name, 'AbortError');
    assert.equal(requests.length, 1);
  });

  it('reports the last timeout as kind timeout when retries run out', async () => {
    const { client, requests } = setup(['hang', 'hang', 'hang', 'hang'], {
      timeoutMs: 15,
      retry: { retries: 1 },
    });
    const error = await rejection(client.getUser('u1'));
    assert.ok(error instanceof ApiError);
    assert.equal(error.kind, 'timeout');
    assert.equal(requests.length, 2);
  });
});

describe('a server that restarts', () => {
  it('a read started while the service is down succeeds once it is back, 1.5 s later', async () => {
    const { startSandboxServer } = await import('../../src/sandbox/node.js');
    const first = await startSandboxServer({ port: 0, professionals: { mode: 'manual' } });
    const port = first.port;
    const reader = new ConsultClient({ baseUrl: first.url, apiKey: 'sandbox-api-key' });
    await reader.getUser('usr_demo_alex');
    await first.close();
    const started = Date.now();
    const reading = reader.getUser('usr_demo_alex');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const second = await startSandboxServer({ port, professionals: { mode: 'manual' } });
    try {
      const alex = await reading;
      assert.equal(alex.id, 'usr_demo_alex');
      assert.ok(Date.now() - started >= 1500, 'it waited for the restart');
    } finally {
      await second.close();
    }
  });
});
