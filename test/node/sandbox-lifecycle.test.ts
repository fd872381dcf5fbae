/**
 * The consultation lifecycle driven through the `/_sandbox` controls, the automatic professionals,
 * the clock, idempotency, injected faults, reset and the request log, over real HTTP.
 */
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Professional } from '../../src/client/types.js';
import type { RequestLogEntry } from '../../src/sandbox/middleware.js';
import { AccessTokenSchema, ConsultationSchema, UserSchema } from '../../src/server/schemas.js';
import { DEMO_USER_IDS } from '../../src/sandbox/seed.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';
import { assertProblem, waitFor } from './sandbox-fixtures.js';

const { alex, sam, noor } = DEMO_USER_IDS;

const DR_HALE: Professional = {
  name: 'Dr. Imogen Hale',
  title: 'General Practitioner',
  specialties: ['General practice', 'Sports medicine'],
  licenses: [
    { licenseNumber: 'GMC 1234567', countries: ['GB'] },
    { licenseNumber: 'IMC 445566', countries: ['IE'] },
  ],
  profileUrl: 'https://professionals.example.test/imogen-hale',
};
const DR_OSEI: Professional = {
  name: 'Dr. Kwame Osei',
  title: 'Specialist in Internal Medicine',
  specialties: ['Internal medicine'],
  licenses: [{ licenseNumber: 'LÄK 99881', countries: ['DE'] }],
  profileUrl: 'https://professionals.example.test/kwame-osei',
};
const MARKDOWN = `**Rest** and drink plenty of fluids.

1. Take paracetamol if needed.
2. See a doctor if it lasts more than a week.

More: [NHS](https://www.nhs.uk/)`;

/** Helpers bound to one sandbox. */
function helpers(get: () => TestSandbox) {
  const consultation = async (id: string) => {
    const res = await get().call('GET', `/consultation/${id}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return ConsultationSchema.parse(res.body);
  };
  const create = async (
    userId: string = alex,
    questions = ['My knee hurts after running. What can I do?'],
  ) => {
    const res = await get().call('POST', '/consultation', { body: { userId, questions } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return ConsultationSchema.parse(res.body);
  };
  const followUp = (id: string, question: string) =>
    get().call('POST', `/consultation/${id}`, { body: { question } });
  const act = async (id: string, action: 'claim' | 'answer' | 'cancel' | 'close', body?: unknown) => {
    const res = await get().call('POST', `/_sandbox/consultations/${id}/${action}`, {
      token: null,
      ...(body === undefined ? {} : { body }),
    });
    return res;
  };
  const actOk = async (id: string, action: 'claim' | 'answer' | 'cancel' | 'close', body?: unknown) => {
    const res = await act(id, action, body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return ConsultationSchema.parse(res.body);
  };
  const requests = async (): Promise<RequestLogEntry[]> =>
    (await get().call('GET', '/_sandbox/requests', { token: null })).body;
  const subscribedUser = async (): Promise<string> => {
    const user = UserSchema.parse((await get().call('POST', '/user', { body: {} })).body);
    assert.equal((await get().call('POST', `/user/${user.id}/subscription`, { body: {} })).status, 201);
    return user.id;
  };
  return { consultation, create, followUp, act, actOk, requests, subscribedUser };
}

describe('consultation lifecycle (manual professionals)', () => {
  let sb: TestSandbox;
  const h = helpers(() => sb);
  before(async () => {
    sb = await startTestSandbox();
  });
  after(async () => {
    await sb.close();
  });

  it('open → claimed → resolved → follow-up reopens → resolved → third question → a 4th is 409', async () => {
    const created = await h.create();
    assert.equal(created.status, 'open');
    const id = created.consultationId;

    const claimed = await h.actOk(id, 'claim', { professional: DR_HALE });
    assert.equal(claimed.status, 'claimed');
    assert.equal(claimed.questions[0]?.answer, undefined, 'claiming answers nothing');
    assert.equal('claimedBy' in claimed, false, 'the claim is internal');
    assert.equal((await h.consultation(id)).status, 'claimed');

    const resolved = await h.actOk(id, 'answer', { answer: MARKDOWN, professional: DR_OSEI });
    assert.equal(resolved.status, 'resolved');
    assert.deepEqual(resolved.questions, [
      { question: created.questions[0]!.question, answer: MARKDOWN, professional: DR_OSEI },
    ]);
    assert.deepEqual(await h.consultation(id), resolved);

    const reopened = await h.followUp(id, 'Should I ice it as well?');
    assert.equal(reopened.status, 200);
    const second = ConsultationSchema.parse(reopened.body);
    assert.equal(second.status, 'open', 'a follow-up on a resolved case reopens it');
    assert.equal(second.questions.length, 2);
    assert.deepEqual(second.questions[0], resolved.questions[0], 'the first answer stays');
    assert.deepEqual(second.questions[1], { question: 'Should I ice it as well?' });

    const answered = await h.actOk(id, 'answer', { answer: 'Yes, 15 minutes at a time.' });
    assert.equal(answered.status, 'resolved');
    assert.equal(answered.questions[0]?.answer, MARKDOWN, 'only unanswered questions get the new answer');
    assert.equal(answered.questions[1]?.answer, 'Yes, 15 minutes at a time.');
    assert.ok(answered.questions[1]?.professional, 'the answer comes with a professional');

    const third = ConsultationSchema.parse((await h.followUp(id, 'And when can I run again?')).body);
    assert.equal(third.status, 'open');
    assert.equal(third.questions.length, 3);

    // The 4th question is refused in any state, and refused without changing anything.
    assertProblem(await h.followUp(id, 'One more?'), 409, 'question_limit_reached');
    const final = await h.actOk(id, 'answer');
    assert.equal(final.status, 'resolved');
    assert.equal(final.questions.length, 3);
    for (const q of final.questions) {
      assert.ok(q.answer && q.answer.length > 0);
      const professional = q.professional!;
      assert.ok(professional.name && professional.title);
      assert.ok(professional.specialties.length > 0);
      assert.ok(
        professional.licenses.length > 0 &&
          professional.licenses.every((l) => l.licenseNumber && l.countries.length > 0),
      );
      assert.match(professional.profileUrl ?? '', /^https:\/\//);
    }
    assertProblem(await h.followUp(id, 'One more?'), 409, 'question_limit_reached');
    assert.equal((await h.consultation(id)).questions.length, 3);
  });

  it('a consultation created with 3 questions takes no follow-up', async () => {
    const { consultationId } = await h.create(alex, ['One?', 'Two?', 'Three?']);
    assertProblem(await h.followUp(consultationId, 'Four?'), 409, 'question_limit_reached');
  });

  it('answering without an answer uses the claiming professional and their own words', async () => {
    const { consultationId } = await h.create(noor, ['I have a dry cough at night.']);
    await h.actOk(consultationId, 'claim', { professional: DR_HALE });
    const resolved = await h.actOk(consultationId, 'answer');
    assert.equal(resolved.status, 'resolved');
    assert.deepEqual(resolved.questions[0]?.professional, DR_HALE);
    assert.ok((resolved.questions[0]?.answer ?? '').length > 20);
  });

  it('answering an open consultation claims it on the way; the seeded professionals have full records', async () => {
    const { consultationId } = await h.create(noor, ['My child has a rash.']);
    const resolved = await h.actOk(consultationId, 'answer', { answer: 'Keep an eye on it.' });
    assert.equal(resolved.status, 'resolved');
    const professional = resolved.questions[0]?.professional;
    assert.ok(professional && professional.licenses.length > 0 && professional.specialties.length > 0);
  });

  it('a follow-up on open or claimed keeps the status; answering answers every open question', async () => {
    const { consultationId: id } = await h.create();
    const onOpen = ConsultationSchema.parse((await h.followUp(id, 'Second?')).body);
    assert.equal(onOpen.status, 'open');
    await h.actOk(id, 'claim');
    const onClaimed = ConsultationSchema.parse((await h.followUp(id, 'Third?')).body);
    assert.equal(onClaimed.status, 'claimed');
    assert.equal(onClaimed.questions.length, 3);
    const resolved = await h.actOk(id, 'answer', { answer: 'All three, answered.' });
    assert.deepEqual(
      resolved.questions.map((q) => q.answer),
      ['All three, answered.', 'All three, answered.', 'All three, answered.'],
    );
  });

  it('claim only an open consultation; answer only one with an unanswered question', async () => {
    const { consultationId: id } = await h.create();
    await h.actOk(id, 'claim');
    assertProblem(await h.act(id, 'claim'), 409, 'invalid_transition');
    await h.actOk(id, 'answer');
    assertProblem(await h.act(id, 'claim'), 409, 'invalid_transition');
    assertProblem(await h.act(id, 'answer'), 409, 'nothing_to_answer');
  });

  for (const [action, status] of [
    ['cancel', 'canceled'],
    ['close', 'closed'],
  ] as const) {
    for (const from of ['open', 'claimed', 'resolved'] as const) {
      it(`${action} from ${from} is final: ${status}, no follow-up, claim, answer, cancel or close`, async () => {
        const { consultationId: id } = await h.create();
        if (from !== 'open') await h.actOk(id, 'claim');
        if (from === 'resolved') await h.actOk(id, 'answer');
        const finished = await h.actOk(id, action);
        assert.equal(finished.status, status);
        assertProblem(await h.followUp(id, 'Are you there?'), 409, 'consultation_closed');
        assertProblem(await h.act(id, 'claim'), 409, 'invalid_transition');
        assertProblem(await h.act(id, 'answer'), 409, 'consultation_closed');
        assertProblem(await h.act(id, 'cancel'), 409, 'consultation_closed');
        assertProblem(await h.act(id, 'close'), 409, 'consultation_closed');
        const after = await h.consultation(id);
        assert.equal(after.status, status);
        assert.equal(after.questions.length, 1);
      });
    }
  }

  it('the controls answer 404 for an unknown consultation and 400 for bad bodies', async () => {
    for (const action of ['claim', 'answer', 'cancel', 'close'] as const) {
      assertProblem(await h.act('cns_nothing', action), 404, 'not_found');
    }
    const { consultationId: id } = await h.create();
    const bad: { path: string; body: unknown; fields: string[] }[] = [
      {
        path: `/consultations/${id}/claim`,
        body: { professional: { name: 'Dr. X' } },
        fields: ['professional.title'],
      },
      { path: `/consultations/${id}/answer`, body: { answer: '' }, fields: ['answer'] },
      { path: `/consultations/${id}/answer`, body: { answer: 'ok', by: 'me' }, fields: ['by'] },
      { path: '/professionals', body: { mode: 'sometimes' }, fields: ['mode'] },
      { path: '/professionals', body: { claimAfterMs: -1 }, fields: ['claimAfterMs'] },
      { path: '/clock', body: { advanceMs: -5 }, fields: ['advanceMs'] },
      { path: '/clock', body: {}, fields: ['advanceMs'] },
      { path: '/faults', body: { errorRate: 2 }, fields: ['errorRate'] },
      { path: '/faults', body: { latencyMs: 'slow' }, fields: ['latencyMs'] },
    ];
    for (const { path, body, fields } of bad) {
      const res = await sb.call('POST', `/_sandbox${path}`, { body, token: null });
      assertProblem(res, 400, 'invalid_request', fields);
    }
    assertProblem(
      await sb.call('POST', `/_sandbox/consultations/${id}/answer`, { rawBody: '{', token: null }),
      400,
      'invalid_json',
    );
    assert.equal((await h.consultation(id)).status, 'open', 'no bad control changed it');
  });

  it('case history lists a user’s consultations newest first, each once', async () => {
    const userId = await h.subscribedUser();
    const ids: string[] = [];
    for (const q of ['First?', 'Second?', 'Third?', 'Fourth?'])
      ids.push((await h.create(userId, [q])).consultationId);
    await h.followUp(ids[0]!, 'A follow-up does not move it up?');
    const res = await sb.call('GET', `/user/${userId}/case-history`);
    assert.equal(res.status, 200);
    const history = ConsultationSchema.array().parse(res.body);
    assert.deepEqual(
      history.map((c) => c.consultationId),
      [...ids].reverse(),
    );
    assert.deepEqual(
      (
        await sb
          .call('GET', `/user/${sam}/case-history`)
          .then((r) => ConsultationSchema.array().parse(r.body))
      ).map((c) => c.consultationId),
      [],
    );
  });
});

describe('automatic professionals and the clock', () => {
  let sb: TestSandbox;
  const h = helpers(() => sb);
  before(async () => {
    sb = await startTestSandbox();
  });
  beforeEach(async () => {
    await sb.control('/reset');
    await sb.control('/professionals', { mode: 'manual' });
  });
  after(async () => {
    await sb.close();
  });

  it('in auto mode a new consultation becomes claimed, then resolved, on its own', async () => {
    // Claimed for half a second: long enough to be seen by a poll on a loaded machine.
    const config = await sb.control('/professionals', { mode: 'auto', claimAfterMs: 50, answerAfterMs: 500 });
    assert.deepEqual(config, { mode: 'auto', claimAfterMs: 50, answerAfterMs: 500 });
    assert.deepEqual((await sb.call('GET', '/_sandbox/professionals', { token: null })).body, config);
    const { consultationId: id } = await h.create(noor, ['I feel dizzy when I stand up.']);
    const seen = new Set<string>();
    const resolved = await waitFor(
      'the consultation to be resolved',
      async () => {
        const c = await h.consultation(id);
        seen.add(c.status);
        return c.status === 'resolved' ? c : undefined;
      },
      3000,
      5,
    );
    assert.ok(seen.has('claimed'), `seen: ${[...seen].join(', ')}`);
    assert.ok(resolved.questions[0]?.answer && resolved.questions[0].professional);

    // A follow-up in auto mode is answered on its own too.
    await h.followUp(id, 'Is it worse in the morning?');
    const again = await waitFor('the follow-up to be answered', async () => {
      const c = await h.consultation(id);
      return c.status === 'resolved' && c.questions[1]?.answer ? c : undefined;
    });
    assert.equal(again.questions.length, 2);
  });

  it('advancing the clock runs due professional work', async () => {
    await sb.control('/professionals', { mode: 'auto', claimAfterMs: 60_000, answerAfterMs: 120_000 });
    const { consultationId: id } = await h.create();
    assert.equal((await h.consultation(id)).status, 'open');
    await sb.control('/clock', { advanceMs: 30_000 });
    assert.equal((await h.consultation(id)).status, 'open', 'not due yet');
    await sb.control('/clock', { advanceMs: 30_000 });
    assert.equal((await h.consultation(id)).status, 'claimed');
    await sb.control('/clock', { advanceMs: 120_000 });
    const resolved = await h.consultation(id);
    assert.equal(resolved.status, 'resolved');
    assert.ok(resolved.questions[0]?.answer);
  });

  it('switching to auto picks up the questions already waiting (the seeded open one)', async () => {
    assert.equal((await h.consultation('cns_demo_alex_vitamin')).status, 'open');
    await sb.control('/professionals', { mode: 'auto', claimAfterMs: 1_000, answerAfterMs: 1_000 });
    await sb.control('/clock', { advanceMs: 2_000 });
    assert.equal((await h.consultation('cns_demo_alex_vitamin')).status, 'resolved');
  });

  it('in auto mode the seeded waiting question waits until the member opens it, then is worked on', async () => {
    await sb.control('/professionals', { mode: 'auto', claimAfterMs: 1_000, answerAfterMs: 1_000 });
    await sb.control('/reset');
    // Time passes while nobody looks: the case list does not count as opening it.
    await sb.control('/clock', { advanceMs: 10_000 });
    const listed = await sb.call('GET', `/user/${alex}/case-history`);
    const vitamin = ConsultationSchema.array()
      .parse(listed.body)
      .find((c) => c.consultationId === 'cns_demo_alex_vitamin');
    assert.equal(vitamin?.status, 'open', 'still waiting for the member to watch');
    // The member opens it: a professional claims it, then answers.
    assert.equal((await h.consultation('cns_demo_alex_vitamin')).status, 'open');
    await sb.control('/clock', { advanceMs: 1_000 });
    const claimed = await h.consultation('cns_demo_alex_vitamin');
    assert.equal(claimed.status, 'claimed');
    assert.ok(claimed.questions[0]?.professional, 'the professional on the case is named');
    await sb.control('/clock', { advanceMs: 1_000 });
    const answered = await h.consultation('cns_demo_alex_vitamin');
    assert.equal(answered.status, 'resolved');
    assert.match(answered.questions[0]?.answer ?? '', /Vitamin D/, 'an answer on the topic asked');
  });

  it('auto mode leaves canceled and closed consultations alone', async () => {
    await sb.control('/professionals', { mode: 'auto', claimAfterMs: 1_000, answerAfterMs: 1_000 });
    const { consultationId: canceled } = await h.create();
    const { consultationId: closed } = await h.create();
    await h.actOk(canceled, 'cancel');
    await h.actOk(closed, 'close');
    await sb.control('/clock', { advanceMs: 5_000 });
    assert.equal((await h.consultation(canceled)).status, 'canceled');
    assert.equal((await h.consultation(closed)).status, 'closed');
    assert.equal((await h.consultation(closed)).questions[0]?.answer, undefined);
  });

  it('switching back to manual stops pending work', async () => {
    await sb.control('/professionals', { mode: 'auto', claimAfterMs: 60_000, answerAfterMs: 60_000 });
    const { consultationId: id } = await h.create();
    const config = await sb.control('/professionals', { mode: 'manual' });
    assert.equal(config.mode, 'manual');
    assert.equal(sb.sandbox.clock.pendingTasks, 0, 'nothing scheduled');
    await sb.control('/clock', { advanceMs: 10 * 60_000 });
    assert.equal((await h.consultation(id)).status, 'open');
    assert.equal((await h.consultation('cns_demo_alex_vitamin')).status, 'open');
  });

  it('GET and POST /_sandbox/clock report the sandbox time', async () => {
    const before = Date.parse((await sb.call('GET', '/_sandbox/clock', { token: null })).body.now);
    const advanced = Date.parse((await sb.control('/clock', { advanceMs: 3_600_000 - 60_000 })).now);
    assert.ok(advanced - before >= 3_600_000 - 60_000 && advanced - before < 3_600_000);
    // Back to real time, so that the cached access token stays valid for the next tests.
    const reset = await sb.control('/reset');
    assert.ok(Math.abs(Date.parse(reset.now) - Date.now()) < 2_000);
  });
});

describe('idempotency', () => {
  let sb: TestSandbox;
  const h = helpers(() => sb);
  before(async () => {
    sb = await startTestSandbox();
  });
  beforeEach(async () => {
    await sb.control('/reset');
  });
  after(async () => {
    await sb.close();
  });
  const historyCount = async (userId: string) =>
    (await sb.call('GET', `/user/${userId}/case-history`)).body.length;
  const post = (body: unknown, key: string, token?: string) =>
    sb.call('POST', '/consultation', {
      body,
      headers: { 'idempotency-key': key },
      ...(token ? { token } : {}),
    });

  it('the same key and body answers the same consultation, created once', async () => {
    const before = await historyCount(noor);
    const body = { userId: noor, questions: ['Is this mole normal?'] };
    const first = await post(body, 'key-same-1');
    assert.equal(first.status, 201);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const second = await post({ questions: ['Is this mole normal?'], userId: noor }, 'key-same-1');
    assert.equal(second.status, 201);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(second.body, first.body, 'key order does not matter');
    assert.equal(await historyCount(noor), before + 1);

    const log = (await h.requests()).filter((r) => r.method === 'POST' && r.path === '/consultation');
    assert.equal(log.length, 2);
    for (const entry of log) {
      assert.equal(entry.status, 201);
      assert.equal(entry.idempotencyKey, 'key-same-1');
      assert.equal(entry.userId, noor, 'a replay concerns the same user');
    }
  });

  it('the same key with another body is 422 idempotency_key_reused, nothing created', async () => {
    const first = await post({ userId: noor, questions: ['First?'] }, 'key-reused');
    assert.equal(first.status, 201);
    const before = await historyCount(noor);
    assertProblem(
      await post({ userId: noor, questions: ['Other?'] }, 'key-reused'),
      422,
      'idempotency_key_reused',
    );
    assertProblem(
      await sb.call('POST', `/consultation/${first.body.consultationId}`, {
        body: { question: 'First?' },
        headers: { 'idempotency-key': 'key-reused' },
      }),
      422,
      'idempotency_key_reused',
    );
    assert.equal(await historyCount(noor), before);
  });

  it('5 concurrent duplicates make one consultation', async () => {
    const before = await historyCount(alex);
    const body = { userId: alex, questions: ['Concurrent?'] };
    const results = await Promise.all(Array.from({ length: 5 }, () => post(body, 'key-concurrent')));
    assert.deepEqual(
      results.map((r) => r.status),
      [201, 201, 201, 201, 201],
    );
    assert.equal(new Set(results.map((r) => r.body.consultationId)).size, 1);
    assert.equal(results.filter((r) => r.headers.get('idempotent-replayed') === 'true').length, 4);
    assert.equal(await historyCount(alex), before + 1);
  });

  it('a failure is not recorded: the key can be used again', async () => {
    assertProblem(
      await post({ userId: sam, questions: ['Refused?'] }, 'key-after-failure'),
      403,
      'subscription_required',
    );
    const ok = await post({ userId: noor, questions: ['Accepted?'] }, 'key-after-failure');
    assert.equal(ok.status, 201);
    assert.equal(ok.headers.get('idempotent-replayed'), null);
  });

  it('keys belong to the sub-partner of the token', async () => {
    const other = AccessTokenSchema.parse(
      (
        await sb.call('POST', '/partner/authorization/token', {
          body: { apiKey: sb.sandbox.apiKeys[0], subPartnerName: 'Clinic South' },
          token: null,
        })
      ).body,
    ).accessToken;
    const body = { userId: noor, questions: ['Scoped?'] };
    const a = await post(body, 'key-scoped');
    const b = await post(body, 'key-scoped', other);
    assert.equal(a.status, 201);
    assert.equal(b.status, 201);
    assert.notEqual(a.body.consultationId, b.body.consultationId);
  });

  it('other creates honour the key too (user, subscription, follow-up, webhook)', async () => {
    const u1 = await sb.call('POST', '/user', {
      body: { uniqueId: 'idem-user' },
      headers: { 'idempotency-key': 'k-user' },
    });
    const u2 = await sb.call('POST', '/user', {
      body: { uniqueId: 'idem-user' },
      headers: { 'idempotency-key': 'k-user' },
    });
    assert.equal(u1.status, 201);
    assert.equal(u2.status, 201, 'a replay, not a 409');
    assert.equal(u2.body.id, u1.body.id);
    const userId: string = u1.body.id;

    const s1 = await sb.call('POST', `/user/${userId}/subscription`, {
      body: {},
      headers: { 'idempotency-key': 'k-sub' },
    });
    const s2 = await sb.call('POST', `/user/${userId}/subscription`, {
      body: {},
      headers: { 'idempotency-key': 'k-sub' },
    });
    assert.equal(s2.body.subscriptionId, s1.body.subscriptionId);
    assert.equal((await sb.call('GET', `/user/${userId}/subscriptions`)).body.length, 1);

    const { consultationId } = await h.create(userId);
    for (let i = 0; i < 2; i++) {
      const res = await sb.call('POST', `/consultation/${consultationId}`, {
        body: { question: 'Only once?' },
        headers: { 'idempotency-key': 'k-follow' },
      });
      assert.equal(res.status, 200);
    }
    assert.equal((await h.consultation(consultationId)).questions.length, 2);

    const w1 = await sb.call('POST', '/webhook', {
      body: { url: 'https://a.test/h' },
      headers: { 'idempotency-key': 'k-wh' },
    });
    const w2 = await sb.call('POST', '/webhook', {
      body: { url: 'https://a.test/h' },
      headers: { 'idempotency-key': 'k-wh' },
    });
    assert.equal(w2.body.webhookId, w1.body.webhookId);
    assert.equal(sb.sandbox.state.webhooks.size, 1);
    await sb.call('DELETE', `/webhook/${w1.body.webhookId}`);
  });

  it('400 for an Idempotency-Key longer than 255 characters', async () => {
    const res = await post({ userId: noor, questions: ['Long key?'] }, 'k'.repeat(256));
    assertProblem(res, 400, 'invalid_request', ['Idempotency-Key']);
  });
});

describe('faults, reset and the request log', () => {
  let sb: TestSandbox;
  const h = helpers(() => sb);
  before(async () => {
    sb = await startTestSandbox();
    await sb.token();
  });
  beforeEach(async () => {
    await sb.control('/reset');
  });
  after(async () => {
    await sb.close();
  });

  it('errorRate 1: every operation answers 503 sandbox_fault and nothing is created', async () => {
    const before = sb.sandbox.state.consultations.size;
    const faults = await sb.control('/faults', { errorRate: 1 });
    assert.deepEqual(faults, { latencyMs: 0, errorRate: 1, rateLimitRate: 0 });
    assertProblem(
      await sb.call('POST', '/consultation', { body: { userId: noor, questions: ['Fault?'] } }),
      503,
      'sandbox_fault',
    );
    assertProblem(
      await sb.call('POST', '/user', { body: { uniqueId: 'during-fault' } }),
      503,
      'sandbox_fault',
    );
    assertProblem(
      await sb.call('POST', '/partner/authorization/token', {
        body: { apiKey: sb.sandbox.apiKeys[0] },
        token: null,
      }),
      503,
      'sandbox_fault',
    );
    // The controls are not faulted.
    assert.equal((await sb.call('GET', '/_sandbox/faults', { token: null })).body.errorRate, 1);
    await sb.control('/faults', { errorRate: 0 });
    assert.equal(sb.sandbox.state.consultations.size, before);
    assert.deepEqual((await sb.call('GET', '/user/search?uniqueId=during-fault')).body, []);
    const log = await h.requests();
    assert.ok(log.some((r) => r.path === '/consultation' && r.status === 503));
  });

  it('rateLimitRate 1: 429 rate_limited with Retry-After', async () => {
    await sb.control('/faults', { rateLimitRate: 1 });
    const res = await sb.call('GET', `/user/${alex}`);
    assertProblem(res, 429, 'rate_limited');
    assert.equal(res.headers.get('retry-after'), '1');
    await sb.control('/faults', { rateLimitRate: 0 });
    assert.equal((await sb.call('GET', `/user/${alex}`)).status, 200);
  });

  it('latencyMs delays every answer', async () => {
    await sb.control('/faults', { latencyMs: 200 });
    const started = performance.now();
    const res = await sb.call('GET', `/user/${alex}`);
    const elapsed = performance.now() - started;
    assert.equal(res.status, 200);
    assert.ok(elapsed >= 195, `took ${elapsed} ms`);
    const log = (await h.requests()).filter((r) => r.path === `/user/${alex}`);
    assert.ok(log.at(-1)!.durationMs >= 195);
  });

  it('reset turns faults off, restores the demo data and empties the log', async () => {
    const user = UserSchema.parse((await sb.call('POST', '/user', { body: { uniqueId: 'temporary' } })).body);
    await h.followUp('cns_demo_alex_vitamin', 'And in summer?');
    await h.actOk('cns_demo_alex_rash', 'close');
    await sb.control('/clock', { advanceMs: 60_000 });
    await sb.control('/faults', { latencyMs: 50, errorRate: 1, rateLimitRate: 1 });

    const reset = await sb.control('/reset');
    assert.equal(reset.ok, true);
    assert.deepEqual((await sb.call('GET', '/_sandbox/faults', { token: null })).body, {
      latencyMs: 0,
      errorRate: 0,
      rateLimitRate: 0,
    });
    assertProblem(await sb.call('GET', `/user/${user.id}`), 404, 'not_found');
    assert.equal((await h.consultation('cns_demo_alex_vitamin')).questions.length, 1);
    assert.equal((await h.consultation('cns_demo_alex_rash')).status, 'resolved');
    assert.equal(
      UserSchema.array().parse((await sb.call('GET', '/user/search?uniqueId=sam')).body)[0]?.id,
      sam,
    );
    const log = await h.requests();
    assert.ok(
      log.every((r) => r.path !== '/user'),
      'the log starts again',
    );
  });

  it('the request log records method, path, query, status, time and the user concerned', async () => {
    const started = Date.now();
    const { consultationId } = await h.create(noor, ['Logged?']);
    await sb.call('GET', `/user/${alex}`);
    await sb.call('GET', '/user/usr_nobody');
    await sb.call('GET', `/consultation/${consultationId}`);
    await h.followUp(consultationId, 'Logged too?');
    await sb.call('GET', '/user/search?uniqueId=sam');
    await sb.call('GET', `/user/${sam}/subscriptions`);
    const conversation = await sb.call('POST', `/v2/health-navigator/users/${alex}/conversations`, {
      body: {},
    });
    await sb.call('POST', '/v2/health-navigator/messages', {
      body: { conversationId: conversation.body.conversationId, message: 'Hello' },
    });
    await sb.call('POST', '/prescription', { body: { userId: noor } });
    await sb.call('GET', `/user/${alex}`, { token: null });

    const log = await h.requests();
    const rows = log
      .filter((r) => !r.path.startsWith('/_sandbox') && r.path !== '/partner/authorization/token')
      .map((r) => [r.method, r.path, r.query, r.status, r.userId]);
    assert.deepEqual(rows, [
      ['POST', '/consultation', undefined, 201, noor],
      ['GET', `/user/${alex}`, undefined, 200, alex],
      ['GET', '/user/usr_nobody', undefined, 404, 'usr_nobody'],
      ['GET', `/consultation/${consultationId}`, undefined, 200, noor],
      ['POST', `/consultation/${consultationId}`, undefined, 200, noor],
      ['GET', '/user/search', '?uniqueId=sam', 200, undefined],
      ['GET', `/user/${sam}/subscriptions`, undefined, 200, sam],
      ['POST', `/v2/health-navigator/users/${alex}/conversations`, undefined, 201, alex],
      ['POST', '/v2/health-navigator/messages', undefined, 200, alex],
      ['POST', '/prescription', undefined, 201, noor],
      ['GET', `/user/${alex}`, undefined, 401, undefined],
    ]);
    for (const entry of log) {
      const at = Date.parse(entry.at);
      assert.ok(at >= started - 1000 && at <= Date.now() + 1000, entry.at);
      assert.ok(entry.durationMs >= 0);
    }
    assert.ok(!log.some((r) => r.path === '/_sandbox/requests'), 'reading the log is not logged');
  });
});

describe("controls that change a member's world", () => {
  let sb: TestSandbox;
  before(async () => {
    sb = await startTestSandbox();
  });
  beforeEach(async () => {
    await sb.control('/reset');
  });
  after(async () => {
    await sb.close();
  });

  const active = async (userId: string) =>
    (
      (await sb.call('GET', `/user/${userId}/subscriptions`)).body as {
        subscriptionId: string;
        active: number;
      }[]
    )
      .filter((s) => s.active === 1)
      .map((s) => s.subscriptionId);

  it('cancels a subscription now: no longer active, with canceledAt', async () => {
    assert.deepEqual(await active(alex), ['sub_demo_alex_2026']);
    const canceled = await sb.control('/subscriptions/sub_demo_alex_2026/cancel');
    assert.equal(canceled.active, 0);
    assert.ok(canceled.canceledAt);
    assert.deepEqual(await active(alex), []);
    // And the member may no longer ask.
    const refused = await sb.call('POST', '/consultation', {
      body: { userId: alex, questions: ['Still covered?'] },
    });
    assert.equal(refused.status, 403);
  });

  it('expires a subscription now, without canceledAt', async () => {
    const expired = await sb.control('/subscriptions/sub_demo_noor_2026/expire');
    assert.equal(expired.active, 0);
    assert.equal(expired.canceledAt, undefined);
    assert.deepEqual(await active(noor), []);
  });

  it('sets a user’s status, which the service then enforces', async () => {
    const user = await sb.control(`/users/${alex}/status`, { status: 'deactivatedUser' });
    assert.equal(user.userStatus, 'deactivatedUser');
    const refused = await sb.call('POST', '/consultation', { body: { userId: alex, questions: ['Hello?'] } });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'user_inactive');
    await sb.control(`/users/${alex}/status`, { status: 'activeUser' });
    const allowed = await sb.call('POST', '/consultation', { body: { userId: alex, questions: ['Hello?'] } });
    assert.equal(allowed.status, 201);
  });

  it('queues the navigator’s next replies, then its own rules answer again', async () => {
    await sb.control('/navigator/replies', { text: 'Injected **reply**.', suggestsDoctor: true });
    const conversation = (
      await sb.call('POST', `/v2/health-navigator/users/${alex}/conversations`, { body: {} })
    ).body as { conversationId: string };
    const send = async (message: string) =>
      (
        (
          await sb.call('POST', '/v2/health-navigator/messages', {
            body: { conversationId: conversation.conversationId, message },
          })
        ).body as { messages: { role: string; text: string; suggestsDoctor?: boolean }[] }
      ).messages[1]!;
    const injected = await send('How much exercise should I get?');
    assert.equal(injected.text, 'Injected **reply**.');
    assert.equal(injected.suggestsDoctor, true);
    const own = await send('How much exercise should I get?');
    assert.match(own.text, /150 minutes/);
  });

  it('offers a written question to a doctor only to a member whose plan includes it', async () => {
    const reply = async (userId: string) => {
      const { conversationId } = (
        await sb.call('POST', `/v2/health-navigator/users/${userId}/conversations`, { body: {} })
      ).body as { conversationId: string };
      const answer = await sb.call('POST', '/v2/health-navigator/messages', {
        body: { conversationId, message: 'I have had a headache and a fever since yesterday' },
      });
      return (answer.body as { messages: { text: string }[] }).messages[1]!.text;
    };
    // Alex has a plan; Sam has none (the demo's seed).
    assert.match(await reply(alex), /You can ask a doctor in writing here/);
    const sams = await reply(sam);
    assert.doesNotMatch(sams, /ask a doctor in writing here/);
    assert.match(sams, /Your plan does not include written questions to a doctor/);
    assert.match(sams, /In the meantime/, 'the advice for the meantime stays');
  });

  // Per language: `offer` is how the navigator offers a written question to a doctor in that
  // language, `ownDoctor` where it points a member without a plan instead.
  const planAware = {
    en: {
      emergency: 'I have chest pain',
      howItWorks: 'How does this work?',
      askForDoctor: 'Can I talk to a doctor?',
      symptom: 'I have a fever',
      offer: /\bcan (?:ask|write to) a (?:licensed )?doctor/i,
      ownDoctor: /your own doctor/,
    },
    de: {
      emergency: 'Mein Vater hat Brustschmerzen',
      howItWorks: 'Wie funktioniert das?',
      askForDoctor: 'Kann ich mit einer Ärztin oder einem Arzt sprechen?',
      symptom: 'Ich habe Fieber',
      offer: /(?:können Sie|Sie können)[^.]*schriftlich/,
      ownDoctor: /Hausarztpraxis/,
    },
    fr: {
      emergency: 'Mon père a une douleur à la poitrine',
      howItWorks: 'Comment ça fonctionne ?',
      askForDoctor: 'Puis-je parler à un médecin ?',
      symptom: 'J’ai de la fièvre',
      offer: /(?:pouvez|pourrez) (?:lui )?écrire/,
      ownDoctor: /médecin traitant/,
    },
    es: {
      emergency: 'Mi padre tiene dolor en el pecho',
      howItWorks: '¿Cómo funciona esto?',
      askForDoctor: '¿Puedo hablar con un médico?',
      symptom: 'Tengo fiebre',
      offer: /puede (?:escribir a un médico|preguntarle)/i,
      ownDoctor: /su médico/,
    },
    nl: {
      emergency: 'Mijn vader heeft pijn op de borst',
      howItWorks: 'Hoe werkt dit?',
      askForDoctor: 'Kan ik met een arts praten?',
      symptom: 'Ik heb koorts',
      offer: /(?:kunt u|u kunt)(?: hier)? schriftelijk/i,
      ownDoctor: /huisarts/,
    },
    ar: {
      emergency: 'والدي يشعر بألم في الصدر',
      howItWorks: 'كيف يعمل هذا؟',
      askForDoctor: 'هل يمكنني التحدث إلى طبيب؟',
      symptom: 'عندي حمى',
      offer: /تسأل طبيب/,
      ownDoctor: /طبيبك/,
    },
  } as const;
  for (const [language, { emergency, howItWorks, askForDoctor, symptom, offer, ownDoctor }] of Object.entries(
    planAware,
  )) {
    it(`in ${language}, no reply offers a doctor to a member without a plan (an emergency, how this works, asking for one), and one with a plan is still offered one`, async () => {
      const member = async (plan: boolean) => {
        const created = await sb.call('POST', '/user', {
          body: { uniqueId: `navigator-${plan ? 'plan' : 'no-plan'}-${language}`, language },
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        const userId = UserSchema.parse(created.body).id;
        if (plan) {
          const subscribed = await sb.call('POST', `/user/${userId}/subscription`, { body: {} });
          assert.equal(subscribed.status, 201, JSON.stringify(subscribed.body));
        }
        const { conversationId } = (
          await sb.call('POST', `/v2/health-navigator/users/${userId}/conversations`, { body: {} })
        ).body as { conversationId: string };
        return async (message: string) => {
          const answer = await sb.call('POST', '/v2/health-navigator/messages', {
            body: { conversationId, message },
          });
          assert.equal(answer.status, 200, JSON.stringify(answer.body));
          return (answer.body as { messages: { text: string; urgent?: boolean }[] }).messages[1]!;
        };
      };
      const messages: string[] = [emergency, howItWorks, askForDoctor, symptom];

      const withoutPlan = await member(false);
      const urgent = await withoutPlan(emergency);
      assert.equal(urgent.urgent, true, emergency);
      assert.match(urgent.text, /112/, 'the emergency number still comes first');
      for (const message of messages) {
        const { text } = message === emergency ? urgent : await withoutPlan(message);
        assert.doesNotMatch(text, offer, `"${message}" without a plan: ${text}`);
        assert.match(text, ownDoctor, `"${message}" without a plan points to their own doctor: ${text}`);
      }

      const withPlan = await member(true);
      for (const message of messages) {
        const { text } = await withPlan(message);
        assert.match(text, offer, `"${message}" with a plan: ${text}`);
      }
    });
  }

  it('refuses controls with bad input or unknown records, naming what is wrong', async () => {
    const badStatus = await sb.call('POST', `/_sandbox/users/${alex}/status`, {
      body: { status: 'asleep' },
      token: null,
    });
    assertProblem(badStatus, 400, 'invalid_request', ['status']);
    const unknownUser = await sb.call('POST', '/_sandbox/users/usr_nobody/status', {
      body: { status: 'activeUser' },
      token: null,
    });
    assert.equal(unknownUser.status, 404);
    const unknownSubscription = await sb.call('POST', '/_sandbox/subscriptions/sub_nothing/cancel', {
      token: null,
    });
    assert.equal(unknownSubscription.status, 404);
    const emptyReply = await sb.call('POST', '/_sandbox/navigator/replies', {
      body: { text: '' },
      token: null,
    });
    assertProblem(emptyReply, 400, 'invalid_request', ['text']);
  });
});
