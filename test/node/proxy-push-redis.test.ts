/**
 * S30 with two proxies sharing one Redis, as behind a load balancer: a device subscribed through
 * one instance is told of an answer whose webhook reached the other, and a sign-out through either
 * ends it for both.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import webPush from 'web-push';
import { RedisProxyStore } from '../../src/proxy/redis-store.js';
import { webPushSender } from '../../src/proxy/push/web-push-sender.node.js';
import { startRedis, type TestRedis } from '../../scripts/redis-server.js';
import { eventually, startTestProxy, type TestProxy } from './support/proxy.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';
import { signedDelivery } from './support/webhooks.js';
import {
  decryptPush,
  fakeSubscription,
  startPushService,
  type PushServiceStandIn,
} from './support/push-service.js';

const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const VAPID = { ...webPush.generateVAPIDKeys(), subject: 'mailto:push-test@portal.example' };

let redis: TestRedis;
let sandbox: TestSandbox;
let pushService: PushServiceStandIn;
let a: TestProxy;
let b: TestProxy;
const stores: RedisProxyStore[] = [];

function instance(): Promise<TestProxy> {
  const store = new RedisProxyStore({ url: redis.url, prefix: 'push-two:' });
  stores.push(store);
  return startTestProxy({
    sandbox,
    store,
    webhookSecret: WEBHOOK_SECRET,
    push: { vapid: VAPID, allowLoopbackEndpoints: true, send: webPushSender({ agent: pushService.agent }) },
  });
}

/** A consultation of the member's, answered in the sandbox. */
async function answered(proxy: TestProxy, token: string): Promise<{ caseId: string; userId: string }> {
  const created = await proxy.call('POST', '/consultation', {
    token,
    body: { questions: ['Two instances?'] },
  });
  assert.equal(created.status, 201, created.text);
  const stored = sandbox.sandbox.state.consultations.get(created.body.consultationId)!;
  stored.status = 'resolved';
  stored.questions[0]!.answer = 'Yes, both of them.';
  return { caseId: stored.consultationId, userId: stored.userId };
}

const deliver = (proxy: TestProxy, event: { caseId: string; userId: string }) =>
  proxy.call('POST', '/webhooks', signedDelivery({ type: 'questionResolved', ...event }, WEBHOOK_SECRET));

describe('push with two proxies sharing one Redis', () => {
  before(async () => {
    redis = await startRedis();
    sandbox = await startTestSandbox({ professionals: { mode: 'manual' } });
    pushService = await startPushService();
    a = await instance();
    b = await instance();
  });
  after(async () => {
    await a?.close().catch(() => undefined);
    await b?.close().catch(() => undefined);
    for (const store of stores) await store.close();
    await pushService?.close();
    await sandbox?.close();
    await redis?.stop();
  });

  it('subscribed through one, told through the other; unsubscribed through the other, told nothing', async () => {
    const token = await a.session('alex');
    const device = fakeSubscription(pushService.origin, 'two-instances');
    const sent = () => pushService.received.filter((r) => r.path === device.path);
    assert.equal((await a.call('PUT', '/push/subscription', { token, body: device.json })).status, 204);

    const first = await answered(a, token);
    assert.equal((await deliver(b, first)).status, 200);
    await eventually('the push through instance b', () => sent().length === 1);
    assert.equal(JSON.parse(decryptPush(device, sent()[0]!.body)).consultationId, first.caseId);

    const deleted = await b.call('DELETE', '/push/subscription', {
      token,
      body: { endpoint: device.endpoint },
    });
    assert.equal(deleted.status, 204);
    const second = await answered(b, token);
    assert.equal((await deliver(a, second)).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(sent().length, 1, 'nothing after the sign-out, whichever instance has the webhook');
  });
});
