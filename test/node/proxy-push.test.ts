/**
 * S28–S30: Web Push from the proxy. A push service stand-in on loopback receives what the proxy
 * sends with web-push and decrypts it with the subscription's own keys: the encryption, the VAPID
 * header, TTL and urgency are checked, and the payload is proven to hold no health text. Also:
 * who may subscribe whom, sign-out and member switch, a subscription the push service says is
 * gone, and bad input (a clear 400, nothing stored).
 */
import assert from 'node:assert/strict';
import { DEMO_USER_IDS } from '../../src/sandbox/seed.js';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import webPush from 'web-push';
import { MemoryStore } from '../../src/proxy/store.js';
import { webPushSender } from '../../src/proxy/push/web-push-sender.node.js';
import { startTestProxy, eventually, type TestProxy } from './support/proxy.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';
import { signedDelivery } from './support/webhooks.js';
import {
  decryptPush,
  fakeSubscription,
  startPushService,
  verifyVapid,
  type FakeSubscription,
  type PushServiceStandIn,
} from './support/push-service.js';

const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const VAPID = { ...webPush.generateVAPIDKeys(), subject: 'mailto:push-test@portal.example' };
const ANSWER = 'Rest, drink plenty of water, and see a doctor if the rash spreads.';
const PROFESSIONAL = 'Dr Imogen Pushwell';

let sandbox: TestSandbox;
let pushService: PushServiceStandIn;
let proxy: TestProxy;
const store = new MemoryStore();

const subscriptionsIn = async (userId: string) =>
  JSON.parse((await store.get(`push-subscriptions:${userId}`)) ?? '[]') as { endpoint: string }[];

const subscribe = (token: string, subscription: FakeSubscription, lang = 'en') =>
  proxy.call('PUT', '/push/subscription', { token, body: { ...subscription.json, lang } });

const deliver = (payload: unknown) =>
  proxy.call('POST', '/webhooks', signedDelivery(payload, WEBHOOK_SECRET));

/** Asks a new question as the member, and has a professional answer it in the sandbox. */
async function answeredConsultation(
  token: string,
  question: string,
): Promise<{ id: string; userId: string }> {
  const created = await proxy.call('POST', '/consultation', { token, body: { questions: [question] } });
  assert.equal(created.status, 201, created.text);
  const stored = sandbox.sandbox.state.consultations.get(created.body.consultationId)!;
  stored.status = 'resolved';
  stored.questions[0]!.answer = ANSWER;
  stored.questions[0]!.professional = {
    name: PROFESSIONAL,
    title: 'General practitioner',
    specialties: ['General practice'],
    licenses: [],
  };
  return { id: stored.consultationId, userId: stored.userId };
}

const messagesTo = (subscription: FakeSubscription) =>
  pushService.received.filter((r) => r.path === subscription.path);

before(async () => {
  sandbox = await startTestSandbox({ professionals: { mode: 'manual' } });
  pushService = await startPushService();
  proxy = await startTestProxy({
    sandbox,
    store,
    webhookSecret: WEBHOOK_SECRET,
    push: {
      vapid: VAPID,
      allowLoopbackEndpoints: true,
      send: webPushSender({ agent: pushService.agent }),
    },
  });
});

after(async () => {
  await proxy?.close();
  await pushService?.close();
  await sandbox?.close();
});

describe('S28: a push says only that there is news', () => {
  it('an answer reaches the device encrypted for it, VAPID-signed, with TTL and urgency, and no health text', async () => {
    const token = await proxy.session('alex');
    const device = fakeSubscription(pushService.origin, 'alex-phone');
    assert.equal((await subscribe(token, device, 'de')).status, 204);
    const question = 'My left knee has been swollen since Tuesday; should I worry?';
    const { id, userId } = await answeredConsultation(token, question);
    assert.equal((await deliver({ type: 'questionResolved', caseId: id, userId })).status, 200);

    const [message] = await eventually('the push', () => messagesTo(device).length > 0 && messagesTo(device));
    assert.equal(message!.headers['content-encoding'], 'aes128gcm');
    assert.equal(message!.headers['ttl'], String(2 * 24 * 60 * 60));
    assert.equal(message!.headers['urgency'], 'normal');
    const claims = verifyVapid(String(message!.headers['authorization']), VAPID.publicKey);
    assert.equal(claims.aud, pushService.origin, 'the audience is the push service’s origin');
    assert.equal(claims.sub, VAPID.subject);
    assert.ok(
      Number(claims.exp) * 1000 > Date.now() && Number(claims.exp) * 1000 <= Date.now() + 24 * 3600_000,
    );

    const plaintext = decryptPush(device, message!.body);
    assert.deepEqual(JSON.parse(plaintext), { kind: 'answer', consultationId: id, lang: 'de' });
    const user = sandbox.sandbox.state.users.get(userId)!;
    for (const healthText of [
      question,
      ANSWER,
      PROFESSIONAL,
      'Pushwell',
      'knee',
      user.firstName!,
      user.lastName!,
    ]) {
      assert.ok(!plaintext.includes(healthText), `the push holds no "${healthText}"`);
      assert.ok(!message!.body.includes(Buffer.from(healthText)), `nor does its body on the wire`);
    }
  });

  it('each change is told once, however many times the service delivers it', async () => {
    const token = await proxy.session('noor');
    const device = fakeSubscription(pushService.origin, 'noor-laptop');
    await subscribe(token, device);
    const { id, userId } = await answeredConsultation(token, 'Is a daily headache after screens normal?');
    for (let i = 0; i < 3; i++) await deliver({ type: 'questionResolved', caseId: id, userId });
    await eventually('the push', () => messagesTo(device).length > 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(messagesTo(device).length, 1);
    // Closed later by the service: that is news of its own.
    sandbox.sandbox.state.consultations.get(id)!.status = 'closed';
    await deliver({ type: 'consultationClosed', caseId: id, userId });
    await eventually('the second push', () => messagesTo(device).length === 2);
    const closed = JSON.parse(decryptPush(device, messagesTo(device)[1]!.body));
    assert.deepEqual(closed, { kind: 'closed', consultationId: id, lang: 'en' });
    assert.equal(messagesTo(device)[1]!.headers['urgency'], 'low');
  });

  it('a consultation that is only claimed sends nothing', async () => {
    const token = await proxy.session('noor');
    const device = fakeSubscription(pushService.origin, 'noor-tablet');
    await subscribe(token, device);
    const created = await proxy.call('POST', '/consultation', {
      token,
      body: { questions: ['A claim only?'] },
    });
    const stored = sandbox.sandbox.state.consultations.get(created.body.consultationId)!;
    stored.status = 'claimed';
    await deliver({ type: 'consultationClaimed', caseId: stored.consultationId, userId: stored.userId });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(messagesTo(device).length, 0);
  });
  it('the claim of a follow-up, after an answer told before the device subscribed, is no "new answer"', async () => {
    const token = await proxy.session('noor');
    const { id, userId } = await answeredConsultation(token, 'Answered before notifications were on?');
    await deliver({ type: 'questionResolved', caseId: id, userId });
    // Notifications turned on afterwards, then a follow-up is asked and claimed.
    const device = fakeSubscription(pushService.origin, 'noor-after');
    await subscribe(token, device);
    const stored = sandbox.sandbox.state.consultations.get(id)!;
    stored.questions.push({ question: 'And a follow-up?' });
    stored.status = 'claimed';
    await deliver({ type: 'consultationClaimed', caseId: id, userId });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(messagesTo(device).length, 0, 'nothing was answered');
    // Its answer is news.
    stored.questions[1]!.answer = 'Yes.';
    stored.status = 'resolved';
    await deliver({ type: 'questionResolved', caseId: id, userId });
    await eventually('the push of the answer', () => messagesTo(device).length === 1);
    assert.equal(JSON.parse(decryptPush(device, messagesTo(device)[0]!.body)).kind, 'answer');
  });
});

describe('S30: a subscription dies with its member’s sign-in, or its push service', () => {
  for (const status of [404, 410]) {
    it(`a subscription the push service says is gone (${status}) is forgotten`, async () => {
      const token = await proxy.session('alex');
      const gone = fakeSubscription(pushService.origin, `alex-old-phone-${status}`);
      const kept = fakeSubscription(pushService.origin, `alex-new-phone-${status}`);
      pushService.answer(gone.path, status);
      await subscribe(token, gone);
      await subscribe(token, kept);
      const { id, userId } = await answeredConsultation(token, `Gone subscription question (${status})?`);
      await deliver({ type: 'questionResolved', caseId: id, userId });
      await eventually('the gone subscription forgotten', async () =>
        (await subscriptionsIn(userId)).every((s) => s.endpoint !== gone.endpoint),
      );
      assert.ok((await subscriptionsIn(userId)).some((s) => s.endpoint === kept.endpoint));
      assert.equal(messagesTo(kept).length, 1);
      assert.ok(proxy.logs.some((l) => l.message === 'push subscription gone' && l.status === status));
    });
  }

  it('a push service that refuses or cannot be reached keeps the subscription, logged without its address', async () => {
    const token = await proxy.session('alex');
    const refusing = fakeSubscription(pushService.origin, 'alex-refused');
    pushService.answer(refusing.path, 500);
    // A browser push service's address, on a port where nothing listens.
    const unreachable = { ...fakeSubscription('https://127.0.0.1:9', 'alex-unreachable') };
    await subscribe(token, refusing);
    await subscribe(token, unreachable);
    const { id, userId } = await answeredConsultation(token, 'Refused push question?');
    const logged = proxy.logs.length;
    await deliver({ type: 'questionResolved', caseId: id, userId });
    await eventually('both sends logged', () => {
      const entries = proxy.logs.slice(logged);
      return (
        entries.some((l) => l.message === 'push refused' && l.status === 500) &&
        entries.some((l) => l.message === 'push failed')
      );
    });
    const kept = (await subscriptionsIn(userId)).map((s) => s.endpoint);
    for (const subscription of [refusing, unreachable])
      assert.ok(kept.includes(subscription.endpoint), 'a refusal or an outage is not a subscription gone');
    const written = JSON.stringify(proxy.logs.slice(logged));
    for (const subscription of [refusing, unreachable]) {
      assert.ok(!written.includes(subscription.path), `no log names ${subscription.path}`);
      assert.ok(!written.includes(subscription.json.keys.p256dh));
      // Alex's other tests find only the devices they gave.
      const removed = await proxy.call('DELETE', '/push/subscription', {
        token,
        body: { endpoint: subscription.endpoint },
      });
      assert.equal(removed.status, 204, removed.text);
    }
  });

  it(
    'a slow push service never holds up the answer to the service’s webhook',
    { timeout: 10_000 },
    async () => {
      const token = await proxy.session('noor');
      const slow = fakeSubscription(pushService.origin, 'noor-slow');
      const release = pushService.hold(slow.path);
      try {
        await subscribe(token, slow);
        const { id, userId } = await answeredConsultation(token, 'Slow push question?');
        // The push stays unanswered until released: a webhook that waited on it would not be answered.
        const delivery = await deliver({ type: 'questionResolved', caseId: id, userId });
        assert.equal(delivery.status, 200, delivery.text);
        await eventually('the push on its way', () => messagesTo(slow).length === 1);
      } finally {
        release();
      }
    },
  );

  it('signing out deletes this device’s subscription, and nothing more is sent to it', async () => {
    const token = await proxy.session('noor');
    const device = fakeSubscription(pushService.origin, 'noor-signout');
    const other = fakeSubscription(pushService.origin, 'noor-other-device');
    await subscribe(token, device);
    await subscribe(token, other);
    const deleted = await proxy.call('DELETE', '/push/subscription', {
      token,
      body: { endpoint: device.endpoint },
    });
    assert.equal(deleted.status, 204);
    assert.equal((await proxy.call('DELETE', '/session', { token })).status, 204);
    const again = await proxy.session('noor');
    const { id, userId } = await answeredConsultation(again, 'After sign-out?');
    await deliver({ type: 'questionResolved', caseId: id, userId });
    await eventually('the other device told', () => messagesTo(other).length === 1);
    assert.equal(messagesTo(device).length, 0, 'the signed-out device hears nothing');
  });

  it('signing out names the device’s subscription in DELETE /session: the proxy forgets it with the session', async () => {
    const token = await proxy.session('noor');
    const device = fakeSubscription(pushService.origin, 'noor-one-request');
    const other = fakeSubscription(pushService.origin, 'noor-still-subscribed');
    await subscribe(token, device);
    await subscribe(token, other);
    const ended = await proxy.call('DELETE', '/session', { token, body: { pushEndpoint: device.endpoint } });
    assert.equal(ended.status, 204);
    assert.equal(
      (await proxy.call('GET', '/push', { token })).status,
      401,
      'the token is refused from then on',
    );
    const userId = DEMO_USER_IDS.noor;
    assert.deepEqual(
      (await subscriptionsIn(userId))
        .map((s) => s.endpoint)
        .filter((e) => [device.endpoint, other.endpoint].includes(e)),
      [other.endpoint],
    );
    // A body that is not JSON, or names no endpoint, still ends the session: sign-out never fails on it.
    for (const body of ['not json', JSON.stringify({ pushEndpoint: 42 }), 'null']) {
      const next = await proxy.session('noor');
      const response = await proxy.call('DELETE', '/session', {
        token: next,
        headers: { 'content-type': 'application/json' },
        rawBody: body,
      });
      assert.equal(response.status, 204, body);
      assert.equal((await proxy.call('GET', '/push', { token: next })).status, 401, body);
    }
    assert.deepEqual(
      (await subscriptionsIn(userId)).map((s) => s.endpoint).filter((e) => e === other.endpoint),
      [other.endpoint],
      'the other device keeps its subscription',
    );
  });

  it('another member subscribing on the device takes the subscription from the one before', async () => {
    const alex = await proxy.session('alex');
    const noor = await proxy.session('noor');
    const shared = fakeSubscription(pushService.origin, 'shared-desktop');
    await subscribe(alex, shared);
    await subscribe(noor, shared);
    const alexId =
      (await proxy.call('GET', '/push', { token: alex })).status === 200 && (await subscriptionsFor('alex'));
    assert.ok(
      alexId !== false && alexId.every((s) => s.endpoint !== shared.endpoint),
      'alex no longer has it',
    );
    const { id, userId } = await answeredConsultation(alex, 'Alex asks on a shared desktop?');
    await deliver({ type: 'questionResolved', caseId: id, userId });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(messagesTo(shared).length, 0, 'no notification of the previous member shows');
  });

  it('the member who signs in next on the device ends the one before’s subscription with their own token', async () => {
    const alex = await proxy.session('alex');
    const sam = await proxy.session('sam');
    const laptop = fakeSubscription(pushService.origin, 'family-laptop');
    const alexsPhone = fakeSubscription(pushService.origin, 'alex-phone');
    await subscribe(alex, laptop);
    await subscribe(alex, alexsPhone);
    const released = await proxy.call('DELETE', '/push/subscription', {
      token: sam,
      body: { endpoint: laptop.endpoint },
    });
    assert.equal(released.status, 204);
    const alexs = (await subscriptionsFor('alex')).map((s) => s.endpoint);
    assert.ok(!alexs.includes(laptop.endpoint), 'alex no longer has the laptop');
    assert.ok(alexs.includes(alexsPhone.endpoint), 'alex keeps his phone');
    const { id, userId } = await answeredConsultation(alex, 'Alex asks before Sam signs in?');
    await deliver({ type: 'questionResolved', caseId: id, userId });
    await eventually('alex’s phone told', () => messagesTo(alexsPhone).length === 1);
    assert.equal(messagesTo(laptop).length, 0, 'no notification of the previous member shows');
  });

  it('the portal signing a member out everywhere forgets every device of theirs', async () => {
    const token = await proxy.session('alex');
    await subscribe(token, fakeSubscription(pushService.origin, 'alex-everywhere'));
    assert.ok((await subscriptionsFor('alex')).length > 0);
    assert.equal(await proxy.server.proxy.endMemberSessions('alex'), true);
    assert.deepEqual(await subscriptionsFor('alex'), []);
  });
});

describe('S29, S30: at most ten devices a member, each for 60 days after its page last gave it', () => {
  const DAY = 24 * 60 * 60_000;
  let now = Date.now();
  const timedStore = new MemoryStore({ now: () => now });
  let timed: TestProxy;

  before(async () => {
    timed = await startTestProxy({
      sandbox,
      store: timedStore,
      webhookSecret: WEBHOOK_SECRET,
      push: { vapid: VAPID, allowLoopbackEndpoints: true, send: webPushSender({ agent: pushService.agent }) },
    });
  });
  after(() => timed?.close());

  const give = async (token: string, device: FakeSubscription) =>
    assert.equal(
      (await timed.call('PUT', '/push/subscription', { token, body: { ...device.json, lang: 'en' } })).status,
      204,
    );
  const endpointsOf = async (userId: string) =>
    (
      JSON.parse((await timedStore.get(`push-subscriptions:${userId}`)) ?? '[]') as { endpoint: string }[]
    ).map((s) => s.endpoint);

  it('an eleventh device pushes out the one given longest ago', async () => {
    const token = await timed.session('alex');
    const userId = (await timedStore.get('user:alex'))!;
    const devices = Array.from({ length: 11 }, (_, i) =>
      fakeSubscription(pushService.origin, `alex-device-${i}`),
    );
    for (const device of devices) {
      await give(token, device);
      // Each given later than the one before.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const kept = await endpointsOf(userId);
    assert.equal(kept.length, 10);
    assert.ok(!kept.includes(devices[0]!.endpoint), 'the first device given is gone');
    assert.deepEqual(
      kept.sort(),
      devices
        .slice(1)
        .map((d) => d.endpoint)
        .sort(),
    );
  });

  it('a subscription lives 60 days after its page last gave it, and each visit starts them again', async () => {
    const token = await timed.session('noor');
    const userId = (await timedStore.get('user:noor'))!;
    const device = fakeSubscription(pushService.origin, 'noor-sixty-days');
    await give(token, device);
    now += 59 * DAY;
    assert.deepEqual(await endpointsOf(userId), [device.endpoint], 'kept after 59 days');
    // The member's next visit gives it again.
    await give(token, device);
    now += 59 * DAY;
    assert.deepEqual(await endpointsOf(userId), [device.endpoint], '118 days after it was first given');
    now += 2 * DAY;
    assert.deepEqual(await endpointsOf(userId), [], 'gone 61 days after it was last given');
  });

  it('each device’s 60 days are its own: one not given again goes, though another of the member’s was', async () => {
    const token = await timed.session('sam');
    const userId = (await timedStore.get('user:sam'))!;
    const left = fakeSubscription(pushService.origin, 'sam-old-tablet');
    const used = fakeSubscription(pushService.origin, 'sam-phone');
    await give(token, left);
    await give(token, used);
    // The tablet was last given 61 days ago; the phone is given again today.
    const stored = JSON.parse((await timedStore.get(`push-subscriptions:${userId}`))!) as {
      endpoint: string;
      at: number;
    }[];
    for (const entry of stored) if (entry.endpoint === left.endpoint) entry.at = Date.now() - 61 * DAY;
    await timedStore.set(`push-subscriptions:${userId}`, JSON.stringify(stored), 60 * DAY);
    await give(token, used);
    assert.deepEqual(await endpointsOf(userId), [used.endpoint]);
  });
});

/** The subscriptions the store holds for a demo member. */
async function subscriptionsFor(uniqueId: string) {
  const userId = await store.get(`user:${uniqueId}`);
  assert.ok(userId);
  return subscriptionsIn(userId);
}

describe('S29: only a well-formed subscription to a browser’s push service, for the member themselves', () => {
  const valid = () => fakeSubscription(pushService.origin, 'valid').json;
  const cases: [string, (body: ReturnType<typeof valid>) => unknown, string][] = [
    ['no keys', ({ keys: _keys, ...rest }) => rest, 'keys'],
    [
      'a p256dh of the wrong length',
      (b) => ({ ...b, keys: { ...b.keys, p256dh: b.keys.p256dh.slice(4) } }),
      'keys.p256dh',
    ],
    [
      'an auth that is not base64url',
      (b) => ({ ...b, keys: { ...b.keys, auth: '!!!!!!!!!!!!!!!!!!!!!!' } }),
      'keys.auth',
    ],
    ['an unknown field', (b) => ({ ...b, userId: 'usr_someone_else' }), 'userId'],
    ['an http endpoint', (b) => ({ ...b, endpoint: b.endpoint.replace('https:', 'http:') }), 'endpoint'],
    ['a foreign endpoint', (b) => ({ ...b, endpoint: 'https://internal.portal.example/admin' }), 'endpoint'],
    [
      'a push service on another port',
      (b) => ({ ...b, endpoint: 'https://fcm.googleapis.com:8443/fcm/send/x' }),
      'endpoint',
    ],
    [
      'an endpoint with credentials',
      (b) => ({ ...b, endpoint: 'https://user:pw@fcm.googleapis.com/fcm/send/x' }),
      'endpoint',
    ],
    ['a language the elements do not speak', (b) => ({ ...b, lang: 'xx' }), 'lang'],
  ];
  for (const [name, change, field] of cases) {
    it(`${name} → 400 naming ${field}, nothing stored`, async () => {
      const token = await proxy.session('noor');
      const before = await subscriptionsFor('noor');
      const response = await proxy.call('PUT', '/push/subscription', { token, body: change(valid()) });
      assert.equal(response.status, 400, response.text);
      assert.match(response.headers.get('content-type') ?? '', /application\/problem\+json/);
      assert.ok(
        response.body.errors.some((e: { field: string }) => e.field === field),
        response.text,
      );
      assert.deepEqual(await subscriptionsFor('noor'), before);
    });
  }

  it('an oversize body → 400 body_too_large, nothing stored', async () => {
    const token = await proxy.session('noor');
    const before = await subscriptionsFor('noor');
    const body = { ...valid(), endpoint: `${pushService.origin}/push/${'x'.repeat(3000)}` };
    const response = await proxy.call('PUT', '/push/subscription', { token, body });
    assert.equal(response.status, 400);
    assert.equal(response.body.code, 'body_too_large');
    assert.deepEqual(await subscriptionsFor('noor'), before);
  });

  it('not JSON → 400, nothing stored', async () => {
    const token = await proxy.session('noor');
    const response = await proxy.call('PUT', '/push/subscription', {
      token,
      rawBody: '{"endpoint":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(response.status, 400);
    assert.equal(response.body.code, 'invalid_json');
  });

  it('the browser’s own push services are accepted without the loopback allowance', async () => {
    const { endpointRefusal } = await import('../../src/proxy/push/subscriptions.js');
    const push = { vapid: VAPID };
    assert.equal(endpointRefusal('https://fcm.googleapis.com/fcm/send/abc', push), undefined);
    assert.equal(endpointRefusal('https://updates.push.services.mozilla.com/wpush/v2/abc', push), undefined);
    assert.equal(endpointRefusal('https://wns2-par02p.notify.windows.com/w/?token=abc', push), undefined);
    assert.equal(endpointRefusal('https://web.push.apple.com/abc', push), undefined);
    assert.equal(
      endpointRefusal('https://127.0.0.1:4443/push/abc', push),
      "must be on the push service's default port",
    );
    assert.equal(
      endpointRefusal('https://evilnotify.windows.com/abc', push),
      "must be a browser's push service",
    );
  });

  it('without a widget token → 401; without push configured → 404', async () => {
    const anonymous = await proxy.call('PUT', '/push/subscription', { body: valid() });
    assert.equal(anonymous.status, 401);
    const plain = await startTestProxy({ sandbox, webhookSecret: WEBHOOK_SECRET });
    try {
      const token = await plain.session('noor');
      assert.equal((await plain.call('GET', '/push', { token })).status, 404);
      assert.equal((await plain.call('PUT', '/push/subscription', { token, body: valid() })).status, 404);
    } finally {
      await plain.close();
    }
  });

  it('GET /push gives the key to subscribe with', async () => {
    const token = await proxy.session('noor');
    const response = await proxy.call('GET', '/push', { token });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { publicKey: VAPID.publicKey });
  });

  it('GET /push/sw.js serves the service worker, with no token, and may control the portal’s pages', async () => {
    const serving = await startTestProxy({
      sandbox,
      webhookSecret: WEBHOOK_SECRET,
      push: { vapid: VAPID, serviceWorker: '/* the worker */' },
    });
    try {
      const response = await serving.call('GET', '/push/sw.js');
      assert.equal(response.status, 200);
      assert.equal(response.text, '/* the worker */');
      assert.match(response.headers.get('content-type') ?? '', /^text\/javascript/);
      assert.equal(response.headers.get('service-worker-allowed'), '/');
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    } finally {
      await serving.close();
    }
  });
});

describe('S29: the service’s own notifications, only shouldNotify of the member’s own record', () => {
  it('turned off and on by the member: one PUT of that field alone, nothing else of the record changed', async () => {
    const allowing = await startTestProxy({
      sandbox,
      webhookSecret: WEBHOOK_SECRET,
      serviceNotifications: true,
    });
    try {
      const token = await allowing.session('alex');
      const userId = (await store.get('user:alex')) ?? 'usr_demo_alex';
      const before = structuredClone(sandbox.sandbox.state.users.get(userId)!);
      assert.deepEqual((await allowing.call('GET', '/service-notifications', { token })).body, {
        shouldNotify: null,
      });
      const mark = allowing.mark();
      const off = await allowing.call('PUT', '/service-notifications', {
        token,
        body: { shouldNotify: false },
      });
      assert.equal(off.status, 200, off.text);
      assert.deepEqual(off.body, { shouldNotify: false });
      assert.deepEqual(
        allowing.upstreamCalls(mark).map((call) => `${call.method} ${call.path}`),
        [`PUT /user/${userId}`],
      );
      const after = sandbox.sandbox.state.users.get(userId)!;
      assert.equal(after.shouldNotify, false);
      assert.deepEqual(
        { ...after, shouldNotify: before.shouldNotify },
        before,
        'nothing else of the record changed',
      );
      assert.deepEqual((await allowing.call('GET', '/service-notifications', { token })).body, {
        shouldNotify: false,
      });
      await allowing.call('PUT', '/service-notifications', { token, body: { shouldNotify: true } });
      assert.equal(sandbox.sandbox.state.users.get(userId)!.shouldNotify, true);
    } finally {
      await allowing.close();
    }
  });

  it('any other field is a 400 with no upstream call; a proxy that does not allow it answers 404', async () => {
    const allowing = await startTestProxy({
      sandbox,
      webhookSecret: WEBHOOK_SECRET,
      serviceNotifications: true,
    });
    try {
      const token = await allowing.session('noor');
      const mark = allowing.mark();
      for (const body of [
        { shouldNotify: false, email: 'someone@else.example' },
        { shouldNotify: 'no' },
        {},
      ]) {
        const response = await allowing.call('PUT', '/service-notifications', { token, body });
        assert.equal(response.status, 400, JSON.stringify(body));
      }
      assert.deepEqual(allowing.upstreamCalls(mark), []);
    } finally {
      await allowing.close();
    }
    const token = await proxy.session('noor');
    const refused = await proxy.call('PUT', '/service-notifications', {
      token,
      body: { shouldNotify: false },
    });
    assert.equal(refused.status, 404);
  });
});
