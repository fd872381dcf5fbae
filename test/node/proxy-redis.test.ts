/**
 * Two proxies, one Redis, as a partner deploys them behind a load balancer: a widget token minted
 * by one works on the other; one Idempotency-Key used on both makes one consultation; a webhook
 * delivered to one reaches a member's stream open on the other; the per-member rate limit counts
 * across both; and when one instance stops mid-flow, the member carries on with the other, nothing
 * lost or duplicated.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { RedisProxyStore } from '../../src/proxy/redis-store.js';
import { openEventStream, startTestProxy, type TestProxy } from './support/proxy.js';
import { startRedis, type TestRedis } from '../../scripts/redis-server.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';
import { signedDelivery } from './support/webhooks.js';

const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;

let redis: TestRedis;
let sandbox: TestSandbox;
let a: TestProxy;
let b: TestProxy;
const stores: RedisProxyStore[] = [];

function instance(perMemberPerMinute = 120): Promise<TestProxy> {
  const store = new RedisProxyStore({ url: redis.url, prefix: 'two-proxies:' });
  stores.push(store);
  return startTestProxy({
    sandbox,
    store,
    webhookSecret: WEBHOOK_SECRET,
    heartbeatMs: 200,
    limits: { perMemberPerMinute },
  });
}

const signed = (payload: unknown) => signedDelivery(payload, WEBHOOK_SECRET);

describe('two proxies sharing one Redis', () => {
  before(async () => {
    redis = await startRedis();
    sandbox = await startTestSandbox({ professionals: { mode: 'manual' } });
    a = await instance(30);
    b = await instance(30);
  });
  after(async () => {
    await a?.close().catch(() => undefined);
    await b?.close();
    for (const store of stores) await store.close();
    await sandbox?.close();
    await redis?.stop();
  });

  it('a widget token minted by one works on the other', async () => {
    const token = await a.session('alex');
    const read = await b.call('GET', '/consultation/cns_demo_alex_rash', { token });
    assert.equal(read.status, 200);
  });

  it('one Idempotency-Key on both makes one consultation', async () => {
    const token = await a.session('noor');
    const before = sandbox.sandbox.state.consultations.size;
    const send = (proxy: TestProxy) =>
      proxy.call('POST', '/consultation', {
        token,
        headers: { 'idempotency-key': 'both-instances-0001' },
        body: { questions: ['Sent to both instances at once?'] },
      });
    const [first, second] = await Promise.all([send(a), send(b)]);
    assert.equal(first.status, 201, first.text);
    assert.equal(second.status, 201, second.text);
    assert.equal(first.body.consultationId, second.body.consultationId);
    assert.equal(sandbox.sandbox.state.consultations.size, before + 1);
  });

  it('a webhook delivered to one reaches the member’s stream open on the other', async () => {
    const token = await a.session('alex');
    const stream = await openEventStream(`${b.url}/events`, token);
    try {
      await stream.next((item) => item.event === 'ready');
      const delivered = await a.call(
        'POST',
        '/webhooks',
        signed({ type: 'questionResolved', caseId: 'cns_demo_alex_rash', userId: 'usr_demo_alex' }),
      );
      assert.equal(delivered.status, 200, delivered.text);
      const event = await stream.next((item) => item.event === 'consultation', 3000);
      assert.equal(JSON.parse(event.data ?? '{}').consultationId, 'cns_demo_alex_rash');
    } finally {
      stream.close();
    }
  });

  it('the per-member rate limit counts across both', async () => {
    const token = await a.session('sam');
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      statuses.push((await a.call('GET', '/user/usr_demo_sam', { token })).status);
      statuses.push((await b.call('GET', '/user/usr_demo_sam', { token })).status);
    }
    assert.equal(statuses.filter((s) => s === 200).length, 30, 'thirty a minute in all, not thirty each');
    assert.ok(statuses.includes(429));
  });

  it('when one instance stops mid-flow, the member carries on with the other: nothing lost, nothing twice', async () => {
    const token = await b.session('noor');
    const created = await b.call('POST', '/consultation', {
      token,
      headers: { 'idempotency-key': 'mid-flow-create-01' },
      body: { questions: ['Will this survive a deploy?'] },
    });
    assert.equal(created.status, 201);
    const id = created.body.consultationId as string;
    // A follow-up sent through a, whose answer the member never saw: a stops (a deploy).
    const followUp = () =>
      (a.server ? a : b).call('POST', `/consultation/${id}`, {
        token,
        headers: { 'idempotency-key': 'mid-flow-follow-01' },
        body: { question: 'And one more thing?' },
      });
    assert.equal((await followUp()).status, 200);
    const stream = await openEventStream(`${a.url}/events`, token);
    await stream.next((item) => item.event === 'ready');
    await a.close();
    stream.close();

    // While the member's stream is away, the case is answered; the upstream delivers to b.
    await sandbox.control(`/consultations/${id}/answer`, { answer: 'Yes, it will.' });
    const delivered = await b.call(
      'POST',
      '/webhooks',
      signed({ type: 'questionResolved', caseId: id, userId: 'usr_demo_noor' }),
    );
    assert.equal(delivered.status, 200);

    // The browser retries its follow-up on b with the same key: the recorded answer, no second question.
    const retried = await b.call('POST', `/consultation/${id}`, {
      token,
      headers: { 'idempotency-key': 'mid-flow-follow-01' },
      body: { question: 'And one more thing?' },
    });
    assert.equal(retried.status, 200);
    assert.equal(sandbox.sandbox.state.consultations.get(id)?.questions.length, 2, 'asked once');

    // Its stream comes back on b and gets the answer it missed.
    const back = await openEventStream(`${b.url}/events`, token, { 'last-event-id': '0' });
    try {
      const event = await back.next(
        (item) => item.event === 'consultation' && item.data?.includes(id) === true,
        3000,
      );
      assert.equal(JSON.parse(event.data ?? '{}').status, 'resolved');
    } finally {
      back.close();
    }
  });
});
