/**
 * Webhook delivery to a real receiver on loopback: Standard Webhooks signatures, event filtering,
 * retries with backoff, deletion; and `POST /webhook/format-event` on odd inputs.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { DeliveryAttempt } from '../../src/sandbox/webhook-delivery.js';
import { ConsultationSchema, WebhookEventSchema, WebhookSchema } from '../../src/server/schemas.js';
import { DEMO_USER_IDS } from '../../src/sandbox/seed.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';
import { assertProblem, waitFor } from './sandbox-fixtures.js';

const { noor } = DEMO_USER_IDS;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  at: number;
}

interface Receiver {
  url: string;
  received: Received[];
  /** What the receiver saw on `path`. */
  on(path: string): Received[];
  /** Answers for `path`, in order; after the last one, the last one again. Default: 200. */
  script(path: string, statuses: number[], options?: { delayMs?: number[] }): void;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const scripts = new Map<string, { statuses: number[]; delays: number[] }>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const index = received.filter((r) => r.path === path).length;
      received.push({
        path,
        headers: req.headers,
        rawBody: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const script = scripts.get(path);
      const status = script?.statuses[Math.min(index, script.statuses.length - 1)] ?? 200;
      const delay = script?.delays[index] ?? 0;
      const answer = () => {
        if (!res.writableEnded)
          res.writeHead(status, { 'content-type': 'text/plain' }).end(`status ${status}`);
      };
      if (delay > 0) setTimeout(answer, delay).unref();
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    on: (path) => received.filter((r) => r.path === path),
    script: (path, statuses, options = {}) => scripts.set(path, { statuses, delays: options.delayMs ?? [] }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The headers `standardwebhooks` wants, from a Node request's headers. */
function signatureHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return {
    'webhook-id': String(headers['webhook-id']),
    'webhook-timestamp': String(headers['webhook-timestamp']),
    'webhook-signature': String(headers['webhook-signature']),
  };
}

function helpers(get: () => TestSandbox) {
  const register = async (url: string, events?: string[]) => {
    const res = await get().call('POST', '/webhook', { body: events ? { url, events } : { url } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const webhook = WebhookSchema.parse(res.body);
    assert.match(webhook.secret ?? '', /^whsec_/);
    return webhook as typeof webhook & { secret: string };
  };
  const unregister = async (webhookId: string) => {
    assert.equal((await get().call('DELETE', `/webhook/${webhookId}`)).status, 204);
  };
  const consultation = async () => {
    const res = await get().call('POST', '/consultation', {
      body: { userId: noor, questions: ['Webhook test?'] },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return ConsultationSchema.parse(res.body);
  };
  const act = async (id: string, action: 'claim' | 'answer' | 'cancel' | 'close') => {
    const res = await get().call('POST', `/_sandbox/consultations/${id}/${action}`, { token: null });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };
  const deliveries = async (webhookId?: string): Promise<DeliveryAttempt[]> => {
    const res = await get().call('GET', '/_sandbox/webhook-deliveries', { token: null });
    assert.equal(res.status, 200);
    const all = res.body as DeliveryAttempt[];
    return webhookId ? all.filter((d) => d.webhookId === webhookId) : all;
  };
  return { register, unregister, consultation, act, deliveries };
}

describe('webhook delivery', () => {
  let sb: TestSandbox;
  let rx: Receiver;
  const h = helpers(() => sb);
  before(async () => {
    rx = await startReceiver();
    sb = await startTestSandbox({ webhookRetryDelaysMs: [50, 100, 200] });
  });
  after(async () => {
    await sb.close();
    await rx.close();
  });

  it('delivers questionResolved, signed the Standard Webhooks way', async () => {
    const webhook = await h.register(`${rx.url}/signed`, ['questionResolved']);
    const { consultationId } = await h.consultation();
    await h.act(consultationId, 'answer');
    const [delivery] = await waitFor('the delivery', () => rx.on('/signed').length >= 1 && rx.on('/signed'));
    assert.ok(delivery);

    const payload = new Webhook(webhook.secret).verify(delivery.rawBody, signatureHeaders(delivery.headers));
    const expected = { type: 'questionResolved', caseId: consultationId, userId: noor };
    assert.deepEqual(payload, expected);
    assert.deepEqual(JSON.parse(delivery.rawBody), expected, 'the body is exactly the event');
    assert.deepEqual(WebhookEventSchema.strict().parse(JSON.parse(delivery.rawBody)), expected);
    assert.match(String(delivery.headers['content-type']), /^application\/json/);
    assert.match(String(delivery.headers['webhook-id']), /^msg_/);
    const timestamp = Number(delivery.headers['webhook-timestamp']);
    assert.ok(Math.abs(timestamp - Date.now() / 1000) < 60, 'real time, in seconds');
    assert.match(String(delivery.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]+=*$/);

    // A tampered body, another secret or an old timestamp do not verify.
    assert.throws(() =>
      new Webhook(webhook.secret).verify(
        delivery.rawBody.replace(noor, 'usr_other'),
        signatureHeaders(delivery.headers),
      ),
    );
    const other = await h.register(`${rx.url}/unused`, ['consultationClosed']);
    assert.throws(() =>
      new Webhook(other.secret).verify(delivery.rawBody, signatureHeaders(delivery.headers)),
    );
    assert.throws(() =>
      new Webhook(webhook.secret).verify(delivery.rawBody, {
        ...signatureHeaders(delivery.headers),
        'webhook-timestamp': String(timestamp - 3600),
      }),
    );

    const [attempt, ...more] = await waitFor('the delivery record', async () => {
      const list = await h.deliveries(webhook.webhookId);
      return list.length > 0 && list;
    });
    assert.equal(more.length, 0);
    assert.deepEqual(
      {
        messageId: attempt!.messageId,
        url: attempt!.url,
        event: attempt!.event,
        attempt: attempt!.attempt,
        status: attempt!.status,
        ok: attempt!.ok,
        nextAttemptAt: attempt!.nextAttemptAt,
      },
      {
        messageId: delivery.headers['webhook-id'],
        url: `${rx.url}/signed`,
        event: expected,
        attempt: 1,
        status: 200,
        ok: true,
        nextAttemptAt: undefined,
      },
    );
    await h.unregister(webhook.webhookId);
    await h.unregister(other.webhookId);
  });

  it('a webhook for every event hears claim, resolve, cancel and close, each signed with a key imported once', async (t) => {
    const webhook = await h.register(`${rx.url}/all`);
    // Every import of this webhook's secret as a key, counted.
    const secretBytes = Buffer.from(webhook.secret.replace(/^whsec_/, ''), 'base64');
    const importKey = t.mock.method(crypto.subtle, 'importKey');
    const importsOfSecret = () =>
      importKey.mock.calls.filter(
        ({ arguments: [format, bytes] }) =>
          format === 'raw' && Buffer.from(bytes as Uint8Array).equals(secretBytes),
      ).length;
    const first = await h.consultation();
    await h.act(first.consultationId, 'claim');
    await h.act(first.consultationId, 'answer');
    await h.act(first.consultationId, 'close');
    const second = await h.consultation();
    await h.act(second.consultationId, 'cancel');
    const received = await waitFor('four events', () => rx.on('/all').length >= 4 && rx.on('/all'));
    const events = received.map((r) =>
      new Webhook(webhook.secret).verify(r.rawBody, signatureHeaders(r.headers)),
    );
    const key = (e: unknown) => JSON.stringify(e);
    assert.deepEqual(
      events.map(key).sort(),
      [
        { type: 'consultationClaimed', caseId: first.consultationId, userId: noor },
        { type: 'questionResolved', caseId: first.consultationId, userId: noor },
        { type: 'consultationClosed', caseId: first.consultationId, userId: noor },
        { type: 'consultationCanceled', caseId: second.consultationId, userId: noor },
      ]
        .map(key)
        .sort(),
    );
    assert.equal(new Set(received.map((r) => r.headers['webhook-id'])).size, 4, 'one message id per event');
    assert.equal(importsOfSecret(), 1, 'four deliveries, one import of their key');
    await h.unregister(webhook.webhookId);
  });

  it('events filtering: a webhook for consultationClosed only hears nothing on resolve', async () => {
    const witness = await h.register(`${rx.url}/witness-filter`, ['questionResolved']);
    const closedOnly = await h.register(`${rx.url}/closed-only`, ['consultationClosed']);
    const { consultationId } = await h.consultation();
    await h.act(consultationId, 'claim');
    await h.act(consultationId, 'answer');
    await waitFor(
      'the witness delivery to be recorded',
      async () => (await h.deliveries(witness.webhookId)).length === 1,
    );
    assert.equal(rx.on('/closed-only').length, 0);
    assert.deepEqual(await h.deliveries(closedOnly.webhookId), []);

    await h.act(consultationId, 'close');
    const [closed] = await waitFor(
      'the close event',
      () => rx.on('/closed-only').length >= 1 && rx.on('/closed-only'),
    );
    assert.deepEqual(
      new Webhook(closedOnly.secret).verify(closed!.rawBody, signatureHeaders(closed!.headers)),
      {
        type: 'consultationClosed',
        caseId: consultationId,
        userId: noor,
      },
    );
    assert.equal(rx.on('/witness-filter').length, 1, 'the witness does not hear the close');
    await h.unregister(witness.webhookId);
    await h.unregister(closedOnly.webhookId);
  });

  it('a receiver answering 500 twice then 200 is retried with backoff, with the same webhook-id', async () => {
    rx.script('/flaky', [500, 500, 200]);
    const webhook = await h.register(`${rx.url}/flaky`, ['questionResolved']);
    const { consultationId } = await h.consultation();
    await h.act(consultationId, 'answer');
    const attempts = await waitFor('three recorded attempts', async () => {
      const list = await h.deliveries(webhook.webhookId);
      return list.length >= 3 && list;
    });
    const received = rx.on('/flaky');
    assert.equal(received.length, 3);
    assert.deepEqual(
      attempts.map((a) => [a.attempt, a.status, a.ok]),
      [
        [1, 500, false],
        [2, 500, false],
        [3, 200, true],
      ],
    );
    assert.ok(attempts[0]!.nextAttemptAt && attempts[1]!.nextAttemptAt);
    assert.equal(attempts[2]!.nextAttemptAt, undefined);
    assert.match(attempts[0]!.error ?? '', /500/);
    const ids = new Set([
      ...attempts.map((a) => a.messageId),
      ...received.map((r) => String(r.headers['webhook-id'])),
    ]);
    assert.equal(ids.size, 1, 'the same webhook-id on every attempt');
    for (const r of received) {
      assert.deepEqual(new Webhook(webhook.secret).verify(r.rawBody, signatureHeaders(r.headers)), {
        type: 'questionResolved',
        caseId: consultationId,
        userId: noor,
      });
    }
    // Backoff: 50 ms then 100 ms (±10% jitter).
    const gap1 = received[1]!.at - received[0]!.at;
    const gap2 = received[2]!.at - received[1]!.at;
    assert.ok(gap1 >= 40, `first retry after ${gap1} ms`);
    assert.ok(gap2 >= 85, `second retry after ${gap2} ms`);
    // No fourth attempt is scheduled once it succeeded.
    await sb.control('/clock', { advanceMs: 60_000 });
    assert.equal((await h.deliveries(webhook.webhookId)).length, 3);
    await h.unregister(webhook.webhookId);
  });

  it('a receiver that never succeeds stops after the configured attempts', async () => {
    rx.script('/down', [503]);
    const webhook = await h.register(`${rx.url}/down`, ['questionResolved']);
    const { consultationId } = await h.consultation();
    await h.act(consultationId, 'answer');
    const attempts = await waitFor('four recorded attempts', async () => {
      const list = await h.deliveries(webhook.webhookId);
      return list.length >= 4 && list;
    });
    assert.deepEqual(
      attempts.map((a) => [a.attempt, a.status, a.ok, a.nextAttemptAt !== undefined]),
      [
        [1, 503, false, true],
        [2, 503, false, true],
        [3, 503, false, true],
        [4, 503, false, false],
      ],
    );
    // Nothing more is scheduled: even half an hour later there is no fifth attempt.
    await sb.control('/clock', { advanceMs: 1_800_000 });
    await sb.control('/reset'); // back to real time; webhooks stay, the delivery log empties
    assert.equal(rx.on('/down').length, 4);
    assert.deepEqual(await h.deliveries(webhook.webhookId), []);
    await h.unregister(webhook.webhookId);
  });

  it('an unreachable receiver is recorded with an error and no status, and retried', async () => {
    const closed = await startReceiver();
    const url = `${closed.url}/gone`;
    await closed.close();
    const webhook = await h.register(url, ['questionResolved']);
    const { consultationId } = await h.consultation();
    await h.act(consultationId, 'answer');
    const attempts = await waitFor('four failed attempts', async () => {
      const list = await h.deliveries(webhook.webhookId);
      return list.length >= 4 && list;
    });
    for (const a of attempts) {
      assert.equal(a.ok, false);
      assert.equal(a.status, undefined);
      assert.ok((a.error ?? '').length > 0);
    }
    await h.unregister(webhook.webhookId);
  });

  it('a deleted webhook receives nothing more', async () => {
    const witness = await h.register(`${rx.url}/witness-delete`, ['questionResolved']);
    const doomed = await h.register(`${rx.url}/deleted`, ['questionResolved']);
    const first = await h.consultation();
    await h.act(first.consultationId, 'answer');
    await waitFor(
      'both first deliveries',
      () => rx.on('/witness-delete').length === 1 && rx.on('/deleted').length === 1,
    );

    await h.unregister(doomed.webhookId);
    const second = await h.consultation();
    await h.act(second.consultationId, 'answer');
    await waitFor(
      'the witness delivery to be recorded',
      async () => (await h.deliveries(witness.webhookId)).length === 2,
    );
    assert.equal(rx.on('/deleted').length, 1);
    assert.equal((await h.deliveries(doomed.webhookId)).length, 1);
    await h.unregister(witness.webhookId);
  });
});

describe('webhook delivery: retries after deletion, and timeouts', () => {
  let sb: TestSandbox;
  let rx: Receiver;
  const h = helpers(() => sb);
  before(async () => {
    rx = await startReceiver();
    // Long enough that a loaded machine's prompt answer is not a timeout; the slow receiver is far past it.
    sb = await startTestSandbox({ webhookRetryDelaysMs: [60_000, 60_000], webhookTimeoutMs: 750 });
  });
  after(async () => {
    await sb.close();
    await rx.close();
  });

  it('pending retries stop once the webhook is deleted', async () => {
    rx.script('/failing-witness', [500]);
    rx.script('/failing-deleted', [500]);
    const witness = await h.register(`${rx.url}/failing-witness`, ['questionResolved']);
    const doomed = await h.register(`${rx.url}/failing-deleted`, ['questionResolved']);
    const { consultationId } = await h.consultation();
    await h.act(consultationId, 'answer');
    await waitFor('both first attempts', async () => (await h.deliveries()).length === 2);
    await h.unregister(doomed.webhookId);
    await sb.control('/clock', { advanceMs: 70_000 }); // both retries come due
    await waitFor('the witness retry', async () => (await h.deliveries(witness.webhookId)).length === 2);
    assert.equal(rx.on('/failing-deleted').length, 1);
    assert.equal((await h.deliveries(doomed.webhookId)).length, 1);
    await h.unregister(witness.webhookId);
  });

  it('a receiver slower than webhookTimeoutMs counts as a failure and is retried', async () => {
    rx.script('/slow', [200], { delayMs: [3_000] });
    const webhook = await h.register(`${rx.url}/slow`, ['questionResolved']);
    const { consultationId } = await h.consultation();
    await h.act(consultationId, 'answer');
    const [first] = await waitFor('the timed-out attempt', async () => {
      const list = await h.deliveries(webhook.webhookId);
      return list.length >= 1 && list;
    });
    assert.equal(first!.ok, false);
    assert.equal(first!.status, undefined);
    assert.match(first!.error ?? '', /timeout|abort/i);
    await sb.control('/clock', { advanceMs: 70_000 });
    const attempts = await waitFor('the retry', async () => {
      const list = await h.deliveries(webhook.webhookId);
      return list.length >= 2 && list;
    });
    assert.deepEqual(
      attempts.map((a) => [a.attempt, a.ok]),
      [
        [1, false],
        [2, true],
      ],
    );
    await h.unregister(webhook.webhookId);
  });
});

describe('POST /webhook/format-event', () => {
  let sb: TestSandbox;
  before(async () => {
    sb = await startTestSandbox();
  });
  after(async () => {
    await sb.close();
  });
  const format = (options: { body?: unknown; rawBody?: string }) =>
    sb.call('POST', '/webhook/format-event', {
      ...options,
      ...(options.rawBody !== undefined ? { headers: { 'content-type': 'application/json' } } : {}),
    });
  const deep = (levels: number, leaf: unknown = 'x'): unknown => {
    let value = leaf;
    for (let i = 0; i < levels; i++) value = { next: value };
    return value;
  };
  const huge = 'h'.repeat(60_000);

  const cases: {
    name: string;
    body?: unknown;
    rawBody?: string;
    expected: { type: string; caseId: string; userId: string };
  }[] = [
    {
      name: 'the canonical form',
      body: { type: 'questionResolved', caseId: 'c1', userId: 'u1' },
      expected: { type: 'questionResolved', caseId: 'c1', userId: 'u1' },
    },
    {
      name: 'snake_case and event',
      body: { event: 'questionResolved', case_id: 'c2', user_id: 'u2' },
      expected: { type: 'questionResolved', caseId: 'c2', userId: 'u2' },
    },
    {
      name: 'eventType and consultationId',
      body: { eventType: 'consultationClosed', consultationId: 'c3', userId: 'u3' },
      expected: { type: 'consultationClosed', caseId: 'c3', userId: 'u3' },
    },
    {
      name: 'consultation_id',
      body: { consultation_id: 'c4' },
      expected: { type: 'unknown', caseId: 'c4', userId: '' },
    },
    {
      name: 'header-style keys',
      body: { 'Case-ID': 'c5', 'User-Id': 'u5', 'Event-Type': 'questionResolved' },
      expected: { type: 'questionResolved', caseId: 'c5', userId: 'u5' },
    },
    {
      name: 'numbers become strings',
      body: { type: 7, caseId: 12345, userId: 4.5 },
      expected: { type: '7', caseId: '12345', userId: '4.5' },
    },
    {
      name: 'a number too large to be finite is ignored',
      rawBody: '{"caseId": 1e400, "userId": -1e400}',
      expected: { type: 'unknown', caseId: '', userId: '' },
    },
    {
      name: 'a nested { data: {...} }',
      body: { id: 'evt_1', data: { type: 'questionResolved', caseId: 'c6', userId: 'u6' } },
      expected: { type: 'questionResolved', caseId: 'c6', userId: 'u6' },
    },
    {
      name: 'a nested { payload: {...} }',
      body: { payload: { event_type: 'consultationClaimed', case_id: 'c7', user_id: 'u7' } },
      expected: { type: 'consultationClaimed', caseId: 'c7', userId: 'u7' },
    },
    {
      name: 'a nested { event: {...} }',
      body: { event: { type: 'consultationCanceled', consultationId: 'c8', userId: 'u8' } },
      expected: { type: 'consultationCanceled', caseId: 'c8', userId: 'u8' },
    },
    {
      name: '{ consultation: { id } } and { user: { id } }',
      body: { type: 'questionResolved', consultation: { id: 'c9' }, user: { id: 99 } },
      expected: { type: 'questionResolved', caseId: 'c9', userId: '99' },
    },
    {
      name: 'top-level fields win over an envelope',
      body: { caseId: 'top', data: { caseId: 'inner', userId: 'u10' } },
      expected: { type: 'unknown', caseId: 'top', userId: 'u10' },
    },
    {
      name: 'type wins over name',
      body: { name: 'n', type: 't' },
      expected: { type: 't', caseId: '', userId: '' },
    },
    { name: 'an empty object', body: {}, expected: { type: 'unknown', caseId: '', userId: '' } },
    {
      name: 'null values',
      body: { type: null, caseId: null, userId: null, data: null },
      expected: { type: 'unknown', caseId: '', userId: '' },
    },
    {
      name: 'arrays as values',
      body: { type: ['questionResolved'], caseId: ['c'], userId: [1, 2], data: [{ caseId: 'x' }] },
      expected: { type: 'unknown', caseId: '', userId: '' },
    },
    {
      name: 'booleans as values',
      body: { type: true, caseId: false, userId: true },
      expected: { type: 'unknown', caseId: '', userId: '' },
    },
    {
      name: 'objects without an id as values',
      body: { caseId: { value: 'c' }, userId: { id: null } },
      expected: { type: 'unknown', caseId: '', userId: '' },
    },
    {
      name: 'deeply nested objects (40 levels) beside the fields',
      body: { caseId: 'c11', userId: 'u11', extra: deep(40), data: deep(40, { caseId: 'deep' }) },
      expected: { type: 'unknown', caseId: 'c11', userId: 'u11' },
    },
    {
      name: 'a huge string (60,000 characters) as a value',
      body: { type: 'questionResolved', caseId: huge, userId: 'u12' },
      expected: { type: 'questionResolved', caseId: huge, userId: 'u12' },
    },
    {
      name: 'a __proto__ key does not pollute',
      rawBody: '{"__proto__": {"caseId": "polluted", "userId": "polluted"}, "type": "t"}',
      expected: { type: 't', caseId: '', userId: '' },
    },
    {
      name: 'unicode values, and a key with an em dash as separator',
      body: { typ: 'x', 'case—id': 'حالة', userId: '用户' },
      expected: { type: 'unknown', caseId: 'حالة', userId: '用户' },
    },
  ];
  for (const { name, body, rawBody, expected } of cases) {
    it(`formats ${name}`, async () => {
      const res = await format(rawBody !== undefined ? { rawBody } : { body });
      assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
      assert.deepEqual(WebhookEventSchema.strict().parse(res.body), expected);
    });
  }

  const refused: { name: string; rawBody: string; status: number; code: string }[] = [
    { name: 'an array body', rawBody: '[{"caseId":"c"}]', status: 400, code: 'invalid_request' },
    { name: 'a string body', rawBody: '"questionResolved"', status: 400, code: 'invalid_request' },
    { name: 'a null body', rawBody: 'null', status: 400, code: 'invalid_request' },
    { name: 'a number body', rawBody: '42', status: 400, code: 'invalid_request' },
    { name: 'a boolean body', rawBody: 'true', status: 400, code: 'invalid_request' },
    { name: 'malformed JSON', rawBody: '{"caseId": "c",}', status: 400, code: 'invalid_json' },
    { name: 'an empty body', rawBody: '', status: 400, code: 'invalid_json' },
    {
      name: 'nesting 5,000 levels deep',
      rawBody: `${'{"next":'.repeat(5_000)}"x"${'}'.repeat(5_000)}`,
      status: 400,
      code: 'invalid_json',
    },
    {
      name: 'a body over 64 KiB',
      rawBody: JSON.stringify({ caseId: 'h'.repeat(70_000) }),
      status: 413,
      code: 'payload_too_large',
    },
  ];
  for (const { name, rawBody, status, code } of refused) {
    it(`answers ${status} ${code} (never 500) for ${name}`, async () => {
      assertProblem(
        await format({ rawBody }),
        status,
        code,
        status === 400 && code === 'invalid_request' ? [''] : [],
      );
    });
  }

  it('needs a token like the other operations', async () => {
    assertProblem(
      await sb.call('POST', '/webhook/format-event', { body: {}, token: null }),
      401,
      'missing_token',
    );
  });

  it('nothing in this file answered 500', async () => {
    const log = (await sb.call('GET', '/_sandbox/requests', { token: null })).body as {
      status: number;
      path: string;
    }[];
    assert.ok(log.filter((r) => r.path === '/webhook/format-event').length >= cases.length + refused.length);
    assert.deepEqual(
      log.filter((r) => r.status >= 500),
      [],
    );
  });
});
