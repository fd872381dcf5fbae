/**
 * What the proxy remembers for a member beyond one tab (docs/security.md S27), on the memory
 * store and on Redis shared by two instances: when each question went out and each answer's event
 * arrived, how many answers were seen (`PUT /consultations/:id/seen`, its bad inputs refused with
 * nothing changed, other tabs told live), and the prescription requests the service took. Ids,
 * times and counts only: the test records every value written under `memory:` and finds no text.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startRedis, type TestRedis } from '../../scripts/redis-server.js';
import { RedisProxyStore } from '../../src/proxy/redis-store.js';
import { MemberMemory } from '../../src/proxy/member-memory.js';
import { MemoryStore, type ProxyStore } from '../../src/proxy/store.js';
import { DEMO_USER_IDS } from '../../src/sandbox/seed.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';
import { signedDelivery } from './support/webhooks.js';
import { openEventStream, sleep, startTestProxy, type SseStream, type TestProxy } from './support/proxy.js';

const ALEX = DEMO_USER_IDS.alex;
const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const QUESTION = 'Remembered? My knee clicks on the stairs.';
const FOLLOW_UP = 'Remembered? It also swells after running.';
const ANSWER = 'Rest it for a week, then see a physiotherapist.';
const SURVEY_TEXT = 'ibuprofen for my knee';

/** Every value written under a `memory:` key, to prove none is text of the member's. */
function recording(store: ProxyStore, written: string[]): ProxyStore {
  return new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name, target) as unknown;
      if (typeof value !== 'function') return value;
      if (name === 'set' || name === 'setIfAbsent')
        return (key: string, data: string, ttl: number) => {
          if (key.startsWith('memory:')) written.push(`${key} = ${data}`);
          return (value as (...args: unknown[]) => unknown).call(target, key, data, ttl);
        };
      return (value as (...args: unknown[]) => unknown).bind(target);
    },
  });
}

interface Setup {
  name: string;
  /** For idempotency keys. */
  key: string;
  /** Proxies sharing one store: requests alternate between them. */
  start(sandbox: TestSandbox, written: string[]): Promise<TestProxy[]>;
  stop?(): Promise<void>;
}

let redis: TestRedis | undefined;
const redisStores: RedisProxyStore[] = [];

const SETUPS: Setup[] = [
  {
    name: 'memory store',
    key: 'memory',
    start: async (sandbox, written) => [
      await startTestProxy({
        sandbox,
        webhookSecret: WEBHOOK_SECRET,
        heartbeatMs: 100,
        store: recording(new MemoryStore(), written),
      }),
    ],
  },
  {
    name: 'Redis shared by two proxies',
    key: 'redis',
    start: async (sandbox, written) => {
      redis = await startRedis();
      const proxies: TestProxy[] = [];
      for (let i = 0; i < 2; i++) {
        const store = new RedisProxyStore({ url: redis.url, prefix: 'memory-test:' });
        redisStores.push(store);
        proxies.push(
          await startTestProxy({
            sandbox,
            webhookSecret: WEBHOOK_SECRET,
            heartbeatMs: 100,
            store: recording(store, written),
          }),
        );
      }
      return proxies;
    },
    stop: async () => {
      for (const store of redisStores.splice(0)) await store.close();
      await redis?.stop();
    },
  },
];

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

interface Times {
  questions: (string | null)[];
  answers: (string | null)[];
}
interface Consultation {
  consultationId: string;
  questions: { question: string; answer?: string }[];
  times?: Times;
  seenAnswers?: number;
}

for (const setup of SETUPS) {
  describe(`the proxy remembers for the member (${setup.name})`, () => {
    let sandbox: TestSandbox;
    let proxies: TestProxy[];
    const written: string[] = [];
    const streams: SseStream[] = [];
    let alex: string;
    let sam: string;
    let id: string;
    /** The first proxy, and the last: on Redis, two instances. */
    const first = () => proxies[0] as TestProxy;
    const last = () => proxies.at(-1) as TestProxy;

    const read = async (via: TestProxy, token = alex): Promise<Consultation> => {
      const response = await via.call('GET', `/consultation/${id}`, { token });
      assert.equal(response.status, 200, response.text);
      return response.body as Consultation;
    };
    const answer = async (text: string) => {
      await sandbox.control(`/consultations/${id}/answer`, { answer: text });
      const delivery = signedDelivery(
        { type: 'questionResolved', caseId: id, userId: ALEX },
        WEBHOOK_SECRET,
        {
          id: `msg_${randomBytes(6).toString('hex')}`,
        },
      );
      const response = await last().call('POST', '/webhooks', delivery);
      assert.equal(response.status, 200, response.text);
    };
    const seen = (body: unknown, token = alex, via = first(), consultationId = id) =>
      via.call('PUT', `/consultations/${consultationId}/seen`, { token, body });

    before(async () => {
      sandbox = await startTestSandbox({ professionals: { mode: 'manual' } });
      proxies = await setup.start(sandbox, written);
      alex = await first().session('alex');
      sam = await first().session('sam');
    });
    after(async () => {
      for (const stream of streams) stream.close();
      for (const proxy of proxies ?? []) await proxy.close();
      await setup.stop?.();
      await sandbox?.close();
    });

    it('a question sent through it has its time; an answer, the time its event arrived', async () => {
      const before = Date.now();
      const created = await first().call('POST', '/consultation', {
        token: alex,
        headers: { 'idempotency-key': `memory-create-${setup.key}` },
        body: { questions: [QUESTION] },
      });
      assert.equal(created.status, 201, created.text);
      const record = created.body as Consultation;
      id = record.consultationId;
      assert.match(record.times?.questions[0] ?? '', ISO);
      assert.ok(Date.parse(record.times?.questions[0] ?? '') >= before - 5);
      assert.deepEqual(record.times?.answers, [null, null, null], 'no answer, no time');
      assert.equal(record.seenAnswers, 0, 'nothing seen yet');

      await answer(ANSWER);
      const answered = await read(last());
      assert.equal(answered.questions[0]?.answer, ANSWER);
      assert.match(answered.times?.answers[0] ?? '', ISO);
      assert.ok(answered.times!.answers[0]! >= answered.times!.questions[0]!);

      const followUp = await last().call('POST', `/consultation/${id}`, {
        token: alex,
        headers: { 'idempotency-key': `memory-follow-${setup.key}` },
        body: { question: FOLLOW_UP },
      });
      assert.equal(followUp.status, 200, followUp.text);
      const times = (followUp.body as Consultation).times!;
      assert.match(times.questions[1] ?? '', ISO);
      assert.equal(times.answers[1], null);
      // The list carries the same, on the other instance.
      const list = await first().call('GET', `/user/${ALEX}/case-history`, { token: alex });
      const inList = (list.body as Consultation[]).find((c) => c.consultationId === id);
      assert.deepEqual(inList?.times, times);
    });

    it('a consultation it never saw (from before) gets no invented time or read state', async () => {
      const seeded = await first().call('GET', '/consultation/cns_demo_alex_rash', { token: alex });
      assert.equal(seeded.status, 200, seeded.text);
      assert.equal((seeded.body as Consultation).times, undefined);
      assert.equal((seeded.body as Consultation).seenAnswers, undefined);
    });

    it('a redelivered answer event keeps the first arrival time', async () => {
      const before = (await read(first())).times!.answers[0];
      await sleep(5);
      const delivery = signedDelivery(
        { type: 'questionResolved', caseId: id, userId: ALEX },
        WEBHOOK_SECRET,
        {
          id: `msg_${randomBytes(6).toString('hex')}`,
        },
      );
      await first().call('POST', '/webhooks', delivery);
      assert.equal((await read(last())).times!.answers[0], before);
    });

    it('reading an answer anywhere marks it seen for every tab, and tells the open ones', async () => {
      const stream = await openEventStream(`${last().url}/events`, alex);
      streams.push(stream);
      await stream.next((item) => item.event === 'ready');
      const response = await seen({ answers: 1 });
      assert.equal(response.status, 200, response.text);
      assert.deepEqual(response.body, { consultationId: id, answers: 1 });
      const event = await stream.next(
        (item) => item.event === 'consultation' && JSON.parse(item.data ?? '{}').type === 'consultationSeen',
        2000,
      );
      assert.deepEqual(JSON.parse(event.data ?? ''), {
        type: 'consultationSeen',
        consultationId: id,
        status: 'open',
        answers: 1,
      });
      assert.equal((await read(last())).seenAnswers, 1);
      const list = await last().call('GET', `/user/${ALEX}/case-history`, { token: alex });
      assert.equal((list.body as Consultation[]).find((c) => c.consultationId === id)?.seenAnswers, 1);
    });

    it('a count below what was seen is a 409 saying how many were seen, and changes nothing and tells no one', async () => {
      const stream = await openEventStream(`${first().url}/events`, alex);
      streams.push(stream);
      await stream.next((item) => item.event === 'ready');
      const response = await seen({ answers: 0 }, alex, last());
      assert.equal(response.status, 409, response.text);
      assert.equal(response.body.code, 'answers_seen_already');
      assert.match(response.body.detail, /1 answer of the consultation seen already/);
      assert.deepEqual(response.body.errors, [{ field: 'answers', message: 'must be at least 1' }]);
      assert.equal(response.headers.get('content-type'), 'application/problem+json');
      const same = await seen({ answers: 1 }, alex, last());
      assert.equal(same.status, 200, 'the same count again is no error');
      assert.deepEqual(same.body, { consultationId: id, answers: 1 });
      await sleep(300);
      assert.deepEqual(stream.events('consultation'), []);
      assert.equal((await read(first())).seenAnswers, 1);
    });

    it('refuses bad input with a clear 4xx problem, and changes nothing', async () => {
      const cases: {
        name: string;
        send: () => Promise<{ status: number; body: any; headers: Headers }>;
        status: number;
        code: string;
      }[] = [
        {
          name: 'more answers than exist',
          send: () => seen({ answers: 2 }),
          status: 409,
          code: 'answers_not_available',
        },
        {
          name: 'above the question limit',
          send: () => seen({ answers: 4 }),
          status: 400,
          code: 'invalid_request',
        },
        { name: 'a negative count', send: () => seen({ answers: -1 }), status: 400, code: 'invalid_request' },
        { name: 'a fraction', send: () => seen({ answers: 0.5 }), status: 400, code: 'invalid_request' },
        { name: 'a string', send: () => seen({ answers: '1' }), status: 400, code: 'invalid_request' },
        { name: 'no count', send: () => seen({}), status: 400, code: 'invalid_request' },
        {
          name: 'an unknown field',
          send: () => seen({ answers: 1, text: 'hi' }),
          status: 400,
          code: 'invalid_request',
        },
        {
          name: 'not JSON',
          send: () =>
            first().call('PUT', `/consultations/${id}/seen`, {
              token: alex,
              rawBody: '{answers:',
              headers: { 'content-type': 'application/json' },
            }),
          status: 400,
          code: 'invalid_json',
        },
        {
          name: 'another member’s consultation',
          send: () => seen({ answers: 1 }, sam),
          status: 404,
          code: 'not_found',
        },
        {
          name: 'an unknown id',
          send: () => seen({ answers: 0 }, alex, first(), 'cns_unknown_0'),
          status: 404,
          code: 'not_found',
        },
        {
          name: 'a malformed id',
          send: () => seen({ answers: 0 }, alex, first(), 'a.b'),
          status: 404,
          code: 'not_found',
        },
      ];
      for (const { name, send, status, code } of cases) {
        const before = written.length;
        const response = await send();
        assert.equal(response.status, status, `${name}: ${JSON.stringify(response.body)}`);
        assert.match(response.headers.get('content-type') ?? '', /application\/problem\+json/, name);
        assert.equal(response.body.code, code, `${name}: ${JSON.stringify(response.body)}`);
        assert.ok(response.body.detail, `${name}: says what is wrong`);
        assert.equal(written.length, before, `${name}: nothing written`);
      }
      assert.equal((await read(last())).seenAnswers, 1);
      const samRead = await first().call('GET', `/consultation/${id}`, { token: sam });
      assert.equal(samRead.status, 404);
    });

    it('keeps the prescription requests the service took: id and times, never the survey', async () => {
      const sent = await first().call('POST', '/prescription', {
        token: alex,
        headers: { 'idempotency-key': `memory-rx-${setup.key}` },
        body: { indicationSurvey: { reason: SURVEY_TEXT } },
      });
      assert.equal(sent.status, 201, sent.text);
      // A keyed repeat is the same request.
      await last().call('POST', '/prescription', {
        token: alex,
        headers: { 'idempotency-key': `memory-rx-${setup.key}` },
        body: { indicationSurvey: { reason: SURVEY_TEXT } },
      });
      const kept = await last().call('GET', '/prescriptions', { token: alex });
      assert.equal(kept.status, 200, kept.text);
      assert.equal(kept.body.length, 1);
      assert.deepEqual(Object.keys(kept.body[0]).sort(), ['createdAt', 'prescriptionId', 'sentAt']);
      assert.equal(kept.body[0].prescriptionId, sent.body.prescriptionId);
      assert.match(kept.body[0].sentAt, ISO);
      const samList = await first().call('GET', '/prescriptions', { token: sam });
      assert.deepEqual(samList.body, [], 'another member’s list is their own');
      const anonymous = await first().call('GET', '/prescriptions');
      assert.equal(anonymous.status, 401);
    });

    it('writes ids, times and counts only (S27)', () => {
      assert.ok(written.length > 0);
      for (const entry of written) {
        for (const text of [QUESTION, FOLLOW_UP, ANSWER, SURVEY_TEXT, 'knee', 'ibuprofen'])
          assert.ok(!entry.includes(text), `health text in the store: ${entry}`);
        const value = entry.split(' = ')[1] ?? '';
        assert.ok(ISO.test(value) || value === '1' || /^\{"prescriptionId":/.test(value), entry);
      }
    });
  });
}

describe('what the proxy reads of its memory for a list', () => {
  it('reads the facts of the questions each consultation holds, and no more', async () => {
    const store = new MemoryStore();
    const asked: string[][] = [];
    const getMany = store.getMany.bind(store);
    store.getMany = async (keys) => {
      asked.push([...keys]);
      return getMany(keys);
    };
    const memory = new MemberMemory(store);
    await memory.questionSent('usr_a', 'cns_one', 0);
    await memory.questionSent('usr_a', 'cns_two', 1);
    await memory.answerArrived('usr_a', 'cns_two', 1);
    await memory.seen('usr_a', 'cns_two', 2);
    asked.length = 0;
    const facts = await memory.of('usr_a', [
      { consultationId: 'cns_one', questions: [{}] },
      { consultationId: 'cns_two', questions: [{}, {}] },
      { consultationId: 'cns_none', questions: [{}] },
    ]);
    // A long history costs three keys per question asked, not nine per consultation.
    assert.equal(asked.length, 1);
    assert.equal(asked[0]?.length, 3 + 6 + 3);
    const one = facts.get('cns_one')?.times;
    assert.ok(one?.questions[0]);
    assert.deepEqual(one.questions.slice(1), [null, null]);
    const two = facts.get('cns_two')?.times;
    assert.equal(two?.questions[0], null);
    assert.ok(two.questions[1]);
    assert.ok(two.answers[1]);
    assert.equal(two.answers.length, 3);
    assert.equal(two.answers[0], null);
    // Each consultation's read mark from its own keys, wherever it stands in the list.
    assert.equal(facts.get('cns_two')?.seenAnswers, 2);
    assert.equal(facts.get('cns_one')?.seenAnswers, 0);
    assert.equal(facts.has('cns_none'), false);
    // Without its questions, a consultation's every slot is read.
    asked.length = 0;
    await memory.of('usr_a', [{ consultationId: 'cns_two' }]);
    assert.equal(asked[0]?.length, 9);
  });
});
