/**
 * The sandbox's 20 operations over real HTTP: each success (validated with the resource schemas)
 * and its bad inputs, auth, search, subscriptions, navigator, prescriptions and the OpenAPI document.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OPERATION_TABLE } from '../../src/sandbox/openapi.js';
import {
  AccessTokenSchema,
  ConsultationSchema,
  NavigatorConversationSchema,
  NavigatorReplySchema,
  PrescriptionRequestSchema,
  SubscriptionSchema,
  UserSchema,
  WebhookEventSchema,
  WebhookSchema,
} from '../../src/server/schemas.js';
import { createSandbox } from '../../src/sandbox/sandbox.js';
import { DEMO_USER_IDS } from '../../src/sandbox/seed.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';
import { assertProblem, DAY_MS } from './sandbox-fixtures.js';

const { alex, sam, noor } = DEMO_USER_IDS;
const JSON_HEADERS = { 'content-type': 'application/json' };
const iso = (ms: number): string => new Date(ms).toISOString();

describe('sandbox operations', () => {
  let sb: TestSandbox;
  /** The sandbox's own "now" (its clock can be advanced). */
  const sandboxNow = async (): Promise<number> => {
    const res = await sb.call('GET', '/_sandbox/clock', { token: null });
    return Date.parse(res.body.now);
  };
  const newUser = async (body: Record<string, unknown> = {}): Promise<string> => {
    const res = await sb.call('POST', '/user', { body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return UserSchema.parse(res.body).id;
  };
  /** A fresh user with an active subscription, who may ask questions. */
  const subscribedUser = async (): Promise<string> => {
    const id = await newUser();
    const res = await sb.call('POST', `/user/${id}/subscription`, { body: {} });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return id;
  };
  const newConsultation = async (userId: string = alex, questions = ['Is it safe to run with a cold?']) => {
    const res = await sb.call('POST', '/consultation', { body: { userId, questions } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return ConsultationSchema.parse(res.body);
  };

  before(async () => {
    sb = await startTestSandbox();
  });
  after(async () => {
    await sb.close();
  });

  describe('1 createAccessToken', () => {
    it('exchanges the API key for a bearer token that opens the other operations', async () => {
      const res = await sb.call('POST', '/partner/authorization/token', {
        body: { apiKey: sb.sandbox.apiKeys[0] },
        token: null,
      });
      assert.equal(res.status, 200);
      const token = AccessTokenSchema.parse(res.body);
      assert.equal(token.tokenType, 'Bearer');
      assert.equal(token.expiresIn, 3600);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      const me = await sb.call('GET', `/user/${alex}`, { token: token.accessToken });
      assert.equal(me.status, 200);
    });

    it('accepts an optional subPartnerName and records it as partnerName of users it creates', async () => {
      const res = await sb.call('POST', '/partner/authorization/token', {
        body: { apiKey: sb.sandbox.apiKeys[0], subPartnerName: 'Clinic North' },
        token: null,
      });
      assert.equal(res.status, 200);
      const { accessToken } = AccessTokenSchema.parse(res.body);
      const created = await sb.call('POST', '/user', { body: {}, token: accessToken });
      assert.equal(created.status, 201);
      assert.equal(UserSchema.parse(created.body).partnerName, 'Clinic North');
    });

    it('refuses a wrong API key with 401 invalid_api_key', async () => {
      const res = await sb.call('POST', '/partner/authorization/token', {
        body: { apiKey: 'not-the-key' },
        token: null,
      });
      assertProblem(res, 401, 'invalid_api_key');
    });

    const badBodies: { name: string; body: unknown; fields: string[] }[] = [
      { name: 'missing apiKey', body: {}, fields: ['apiKey'] },
      { name: 'apiKey not a string', body: { apiKey: 42 }, fields: ['apiKey'] },
      { name: 'empty apiKey', body: { apiKey: '' }, fields: ['apiKey'] },
      {
        name: 'subPartnerName not a string',
        body: { apiKey: 'k', subPartnerName: 7 },
        fields: ['subPartnerName'],
      },
      { name: 'unknown field', body: { apiKey: 'k', scope: 'all' }, fields: ['scope'] },
    ];
    for (const { name, body, fields } of badBodies) {
      it(`400 for ${name}`, async () => {
        const res = await sb.call('POST', '/partner/authorization/token', { body, token: null });
        assertProblem(res, 400, 'invalid_request', fields, { exactFields: true });
      });
    }
  });

  describe('2 createUser', () => {
    it('creates a user with the given fields and defaults for the rest', async () => {
      const res = await sb.call('POST', '/user', {
        body: {
          uniqueId: 'member-2001',
          language: 'pt-BR',
          physicianCountry: 'PT',
          phone: '+351912345678',
          email: 'ana@example.test',
          shouldNotify: false,
        },
      });
      assert.equal(res.status, 201);
      const user = UserSchema.parse(res.body);
      assert.match(user.id, /^usr_/);
      assert.equal(user.uniqueId, 'member-2001');
      assert.equal(user.language, 'pt-BR');
      assert.equal(user.physicianCountry, 'PT');
      assert.equal(user.phone, '+351912345678');
      assert.equal(user.email, 'ana@example.test');
      assert.equal(user.partnerName, 'Sandbox Health Partner');
      assert.equal(user.userStatus, 'activeUser');
      assert.equal('shouldNotify' in res.body, false, 'shouldNotify is internal');
    });

    it('needs no field at all (the spec marks none required)', async () => {
      const res = await sb.call('POST', '/user', { body: {} });
      assert.equal(res.status, 201);
      const user = UserSchema.parse(res.body);
      assert.equal(user.language, 'en');
      assert.equal(user.physicianCountry, 'GB');
    });

    it('409 unique_id_taken for a uniqueId already in use', async () => {
      const res = await sb.call('POST', '/user', { body: { uniqueId: 'alex' } });
      assertProblem(res, 409, 'unique_id_taken');
    });

    const badBodies: { name: string; body: unknown; fields: string[] }[] = [
      { name: 'a bad email', body: { email: 'not-an-email' }, fields: ['email'] },
      { name: 'an email without a domain', body: { email: 'ana@' }, fields: ['email'] },
      { name: 'a phone without +', body: { phone: '07700900123' }, fields: ['phone'] },
      { name: 'a phone with spaces', body: { phone: '+44 7700 900123' }, fields: ['phone'] },
      { name: 'a phone starting +0', body: { phone: '+0447700900123' }, fields: ['phone'] },
      { name: 'a phone too long', body: { phone: '+4477009001234567' }, fields: ['phone'] },
      { name: 'language of the wrong type', body: { language: 5 }, fields: ['language'] },
      { name: 'a bad language tag', body: { language: 'English' }, fields: ['language'] },
      { name: 'a bad country code', body: { physicianCountry: 'gbr' }, fields: ['physicianCountry'] },
      { name: 'shouldNotify not a boolean', body: { shouldNotify: 'yes' }, fields: ['shouldNotify'] },
      { name: 'an empty uniqueId', body: { uniqueId: '' }, fields: ['uniqueId'] },
      { name: 'uniqueId of the wrong type', body: { uniqueId: 12 }, fields: ['uniqueId'] },
      { name: 'an unknown field', body: { firstName: 'Ana' }, fields: ['firstName'] },
      {
        name: 'several bad fields at once',
        body: { email: 'x', phone: '1', language: 5, userStatus: 'activeUser' },
        fields: ['email', 'phone', 'language', 'userStatus'],
      },
      { name: 'an array body', body: [], fields: [''] },
    ];
    for (const { name, body, fields } of badBodies) {
      it(`400 for ${name}, naming each bad field`, async () => {
        const res = await sb.call('POST', '/user', { body });
        assertProblem(res, 400, 'invalid_request', fields, { exactFields: true });
      });
    }
  });

  describe('3 getUser', () => {
    it('answers a seeded user in full', async () => {
      const res = await sb.call('GET', `/user/${alex}`);
      assert.equal(res.status, 200);
      const user = UserSchema.parse(res.body);
      assert.equal(user.id, alex);
      assert.equal(user.uniqueId, 'alex');
      assert.equal(user.firstName, 'Alex');
      assert.equal(user.gender, 'other');
      assert.equal(user.associatedAccounts, 2);
    });

    it('404 for an unknown user', async () => {
      assertProblem(await sb.call('GET', '/user/usr_nobody'), 404, 'not_found');
    });
  });

  describe('4 updateUser', () => {
    it('updates the given fields and keeps the others', async () => {
      const id = await newUser({ uniqueId: 'to-update', email: 'old@example.test' });
      const res = await sb.call('PUT', `/user/${id}`, {
        body: { email: 'new@example.test', phone: '+14155550100', language: 'fr', shouldNotify: true },
      });
      assert.equal(res.status, 200);
      const user = UserSchema.parse(res.body);
      assert.equal(user.email, 'new@example.test');
      assert.equal(user.phone, '+14155550100');
      assert.equal(user.language, 'fr');
      assert.equal(user.uniqueId, 'to-update');
      const again = UserSchema.parse((await sb.call('GET', `/user/${id}`)).body);
      assert.deepEqual(again, user);
    });

    it('accepts an empty object', async () => {
      const res = await sb.call('PUT', `/user/${noor}`, { body: {} });
      assert.equal(res.status, 200);
      assert.equal(UserSchema.parse(res.body).id, noor);
    });

    it('404 for an unknown user', async () => {
      assertProblem(await sb.call('PUT', '/user/usr_nobody', { body: { language: 'en' } }), 404, 'not_found');
    });

    const badBodies: { name: string; body: unknown; fields: string[] }[] = [
      { name: 'a bad email', body: { email: 'nope' }, fields: ['email'] },
      { name: 'a bad phone', body: { phone: '+44-7700-900123' }, fields: ['phone'] },
      {
        name: 'physicianCountry of the wrong type',
        body: { physicianCountry: 44 },
        fields: ['physicianCountry'],
      },
      { name: 'uniqueId (not updatable)', body: { uniqueId: 'other' }, fields: ['uniqueId'] },
      { name: 'userStatus (not updatable)', body: { userStatus: 'deactivatedUser' }, fields: ['userStatus'] },
    ];
    for (const { name, body, fields } of badBodies) {
      it(`400 for ${name}`, async () => {
        const res = await sb.call('PUT', `/user/${noor}`, { body });
        assertProblem(res, 400, 'invalid_request', fields, { exactFields: true });
      });
    }
  });

  describe('5 searchUsersByQuery', () => {
    it('finds a user by uniqueId', async () => {
      const res = await sb.call('GET', '/user/search?uniqueId=alex');
      assert.equal(res.status, 200);
      const users = UserSchema.array().parse(res.body);
      assert.deepEqual(
        users.map((u) => u.id),
        [alex],
      );
    });

    it('encodes the query: a uniqueId with spaces and & is found', async () => {
      const id = await newUser({ uniqueId: 'm 1&x=2' });
      const res = await sb.call('GET', `/user/search?uniqueId=${encodeURIComponent('m 1&x=2')}`);
      assert.deepEqual(
        UserSchema.array()
          .parse(res.body)
          .map((u) => u.id),
        [id],
      );
    });

    it('answers an empty array when nobody matches', async () => {
      const res = await sb.call('GET', '/user/search?uniqueId=nobody-has-this');
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, []);
    });

    for (const query of ['', '?uniqueId=', '?email=alex.morgan@example.com']) {
      it(`400 naming uniqueId without it (${query || 'no query'})`, async () => {
        assertProblem(await sb.call('GET', `/user/search${query}`), 400, 'invalid_request', ['uniqueId']);
      });
    }
  });

  describe('6 searchUsersByBody', () => {
    const cases: { name: string; body: Record<string, string>; expected: string[] }[] = [
      { name: 'by uniqueId', body: { uniqueId: 'sam' }, expected: [sam] },
      { name: 'by email', body: { email: 'noor.haddad@example.com' }, expected: [noor] },
      { name: 'by email, case-insensitively', body: { email: 'ALEX.Morgan@Example.COM' }, expected: [alex] },
      {
        name: 'by both, matching',
        body: { uniqueId: 'alex', email: 'alex.morgan@example.com' },
        expected: [alex],
      },
      {
        name: 'by both, not matching together',
        body: { uniqueId: 'alex', email: 'sam.rivera@example.com' },
        expected: [],
      },
      { name: 'nobody', body: { email: 'nobody@example.com' }, expected: [] },
    ];
    for (const { name, body, expected } of cases) {
      it(`finds users ${name}`, async () => {
        const res = await sb.call('POST', '/user/search', { body });
        assert.equal(res.status, 200);
        assert.deepEqual(
          UserSchema.array()
            .parse(res.body)
            .map((u) => u.id),
          expected,
        );
      });
    }

    const badBodies: { name: string; body: unknown; fields: string[] }[] = [
      { name: 'neither uniqueId nor email', body: {}, fields: ['uniqueId'] },
      { name: 'a bad email', body: { email: 'alex' }, fields: ['email'] },
      { name: 'uniqueId of the wrong type', body: { uniqueId: ['alex'] }, fields: ['uniqueId'] },
      { name: 'an unknown field', body: { uniqueId: 'alex', phone: '+447700900123' }, fields: ['phone'] },
    ];
    for (const { name, body, fields } of badBodies) {
      it(`400 for ${name}`, async () => {
        const res = await sb.call('POST', '/user/search', { body });
        assertProblem(res, 400, 'invalid_request', fields, { exactFields: true });
      });
    }
  });

  describe('7–10 subscriptions', () => {
    it('the seeded members: alex renewed (active), sam canceled (inactive), noor active', async () => {
      const alexSubs = SubscriptionSchema.array().parse(
        (await sb.call('GET', `/user/${alex}/subscriptions`)).body,
      );
      assert.deepEqual(
        alexSubs.map((s) => [s.subscriptionId, s.active, s.renewFrom]),
        [
          ['sub_demo_alex_2026', 1, 'sub_demo_alex_2025'],
          ['sub_demo_alex_2025', 0, undefined],
        ],
      );
      const [samSub, ...otherSam] = SubscriptionSchema.array().parse(
        (await sb.call('GET', `/user/${sam}/subscriptions`)).body,
      );
      assert.equal(otherSam.length, 0);
      assert.equal(samSub?.active, 0, 'canceled, though its dates still cover now');
      assert.ok(samSub?.canceledAt);
      assert.ok(Date.parse(samSub.endSubscription) > Date.now());
      const noorSub = SubscriptionSchema.parse(
        (await sb.call('GET', `/user/${noor}/subscription/sub_demo_noor_2026`)).body,
      );
      assert.equal(noorSub.active, 1);
      assert.equal(noorSub.userId, noor);
    });

    it('history is the renewal chain, newest first', async () => {
      const res = await sb.call('GET', `/user/${alex}/subscription/sub_demo_alex_2026/history`);
      assert.equal(res.status, 200);
      assert.deepEqual(
        SubscriptionSchema.array()
          .parse(res.body)
          .map((s) => s.subscriptionId),
        ['sub_demo_alex_2026', 'sub_demo_alex_2025'],
      );
      const first = await sb.call('GET', `/user/${alex}/subscription/sub_demo_alex_2025/history`);
      assert.deepEqual(
        SubscriptionSchema.array()
          .parse(first.body)
          .map((s) => s.subscriptionId),
        ['sub_demo_alex_2025'],
      );
    });

    it('creates a subscription from now for a year by default, active', async () => {
      const id = await newUser();
      const before = await sandboxNow();
      const res = await sb.call('POST', `/user/${id}/subscription`, { body: {} });
      assert.equal(res.status, 201);
      const sub = SubscriptionSchema.parse(res.body);
      assert.match(sub.subscriptionId, /^sub_/);
      assert.equal(sub.userId, id);
      assert.equal(sub.active, 1);
      assert.equal(sub.renewFrom, undefined);
      const start = Date.parse(sub.startSubscription);
      assert.ok(start >= before - 1000 && start <= before + 5000);
      assert.equal(Date.parse(sub.endSubscription) - start, 365 * DAY_MS);
      const got = await sb.call('GET', `/user/${id}/subscription/${sub.subscriptionId}`);
      assert.deepEqual(SubscriptionSchema.parse(got.body), sub);
    });

    it('active is 0 for a subscription that starts in the future, and for one that has ended', async () => {
      const id = await newUser();
      const now = await sandboxNow();
      const future = SubscriptionSchema.parse(
        (
          await sb.call('POST', `/user/${id}/subscription`, {
            body: {
              subscriptionStartDate: iso(now + 10 * DAY_MS),
              subscriptionEndDate: iso(now + 20 * DAY_MS),
            },
          })
        ).body,
      );
      assert.equal(future.active, 0);
      const other = await newUser();
      const past = SubscriptionSchema.parse(
        (
          await sb.call('POST', `/user/${other}/subscription`, {
            body: {
              subscriptionStartDate: iso(now - 20 * DAY_MS),
              subscriptionEndDate: iso(now - 10 * DAY_MS),
            },
          })
        ).body,
      );
      assert.equal(past.active, 0);
    });

    it('a subscription that follows an expired one carries renewFrom; history is the chain', async () => {
      const id = await newUser();
      const now = await sandboxNow();
      const expired = SubscriptionSchema.parse(
        (
          await sb.call('POST', `/user/${id}/subscription`, {
            body: {
              subscriptionStartDate: iso(now - 40 * DAY_MS),
              subscriptionEndDate: iso(now - 5 * DAY_MS),
            },
          })
        ).body,
      );
      assert.equal(expired.active, 0);
      const renewal = SubscriptionSchema.parse(
        (await sb.call('POST', `/user/${id}/subscription`, { body: {} })).body,
      );
      assert.equal(renewal.renewFrom, expired.subscriptionId);
      assert.equal(renewal.active, 1);
      const third = SubscriptionSchema.parse(
        (
          await sb.call('POST', `/user/${id}/subscription`, {
            body: {
              subscriptionStartDate: renewal.endSubscription,
              subscriptionEndDate: iso(Date.parse(renewal.endSubscription) + 30 * DAY_MS),
            },
          })
        ).body,
      );
      assert.equal(third.renewFrom, renewal.subscriptionId);
      const history = SubscriptionSchema.array().parse(
        (await sb.call('GET', `/user/${id}/subscription/${third.subscriptionId}/history`)).body,
      );
      assert.deepEqual(
        history.map((s) => s.subscriptionId),
        [third.subscriptionId, renewal.subscriptionId, expired.subscriptionId],
      );
      const all = SubscriptionSchema.array().parse((await sb.call('GET', `/user/${id}/subscriptions`)).body);
      assert.deepEqual(
        all.map((s) => s.subscriptionId),
        [third.subscriptionId, renewal.subscriptionId, expired.subscriptionId],
      );
    });

    it('a subscription after a canceled one is no renewal', async () => {
      // sam's only subscription was canceled; a new user stands in so that sam keeps none active.
      const id = await newUser();
      const now = await sandboxNow();
      await sb.call('POST', `/user/${id}/subscription`, {
        body: { subscriptionStartDate: iso(now - 40 * DAY_MS), subscriptionEndDate: iso(now - 30 * DAY_MS) },
      });
      const overlapping = SubscriptionSchema.parse(
        (
          await sb.call('POST', `/user/${id}/subscription`, {
            body: {
              subscriptionStartDate: iso(now - 35 * DAY_MS),
              subscriptionEndDate: iso(now + 30 * DAY_MS),
            },
          })
        ).body,
      );
      assert.equal(overlapping.renewFrom, undefined, 'it starts before the previous one ends');
    });

    it('advancing the clock past the end makes active 0, and the user may no longer ask', async () => {
      const id = await newUser();
      const now = await sandboxNow();
      const sub = SubscriptionSchema.parse(
        (
          await sb.call('POST', `/user/${id}/subscription`, {
            body: { subscriptionStartDate: iso(now - DAY_MS), subscriptionEndDate: iso(now + 60_000) },
          })
        ).body,
      );
      assert.equal(sub.active, 1);
      await newConsultation(id);
      await sb.control('/clock', { advanceMs: 120_000 });
      const later = SubscriptionSchema.parse(
        (await sb.call('GET', `/user/${id}/subscription/${sub.subscriptionId}`)).body,
      );
      assert.equal(later.active, 0);
      const refused = await sb.call('POST', '/consultation', {
        body: { userId: id, questions: ['Still there?'] },
      });
      assertProblem(refused, 403, 'subscription_required');
    });

    const badBodies: { name: string; body: unknown; fields: string[] }[] = [
      {
        name: 'end before start',
        body: { subscriptionStartDate: '2030-02-01T00:00:00Z', subscriptionEndDate: '2030-01-01T00:00:00Z' },
        fields: ['subscriptionEndDate'],
      },
      {
        name: 'end equal to start',
        body: { subscriptionStartDate: '2030-02-01T00:00:00Z', subscriptionEndDate: '2030-02-01T00:00:00Z' },
        fields: ['subscriptionEndDate'],
      },
      {
        name: 'only an end, before now',
        body: { subscriptionEndDate: '2001-01-01T00:00:00Z' },
        fields: ['subscriptionEndDate'],
      },
      {
        name: 'a date without time',
        body: { subscriptionStartDate: '2030-01-01' },
        fields: ['subscriptionStartDate'],
      },
      {
        name: 'a date that is no date',
        body: { subscriptionEndDate: 'next year' },
        fields: ['subscriptionEndDate'],
      },
      {
        name: 'a date of the wrong type',
        body: { subscriptionStartDate: 1735689600000 },
        fields: ['subscriptionStartDate'],
      },
      { name: 'an unknown field', body: { plan: 'gold' }, fields: ['plan'] },
    ];
    for (const { name, body, fields } of badBodies) {
      it(`create: 400 for ${name}`, async () => {
        const res = await sb.call('POST', `/user/${noor}/subscription`, { body });
        assertProblem(res, 400, 'invalid_request', fields, { exactFields: true });
      });
    }

    const unknown: { name: string; method: string; path: string; body?: unknown }[] = [
      { name: 'create for an unknown user', method: 'POST', path: '/user/usr_nobody/subscription', body: {} },
      { name: 'list of an unknown user', method: 'GET', path: '/user/usr_nobody/subscriptions' },
      { name: 'an unknown subscription', method: 'GET', path: `/user/${alex}/subscription/sub_nothing` },
      {
        name: "another user's subscription",
        method: 'GET',
        path: `/user/${alex}/subscription/sub_demo_noor_2026`,
      },
      {
        name: 'a subscription of an unknown user',
        method: 'GET',
        path: '/user/usr_nobody/subscription/sub_demo_alex_2026',
      },
      {
        name: 'history of an unknown subscription',
        method: 'GET',
        path: `/user/${alex}/subscription/sub_nothing/history`,
      },
      {
        name: "history of another user's subscription",
        method: 'GET',
        path: `/user/${noor}/subscription/sub_demo_alex_2026/history`,
      },
    ];
    for (const { name, method, path, body } of unknown) {
      it(`404 for ${name}`, async () => {
        assertProblem(await sb.call(method, path, body === undefined ? {} : { body }), 404, 'not_found');
      });
    }
  });

  describe('11–14 consultations', () => {
    it('11 creates an open consultation with the questions, trimmed', async () => {
      const id = await subscribedUser();
      const res = await sb.call('POST', '/consultation', {
        body: { userId: id, questions: ['  First question?  ', 'Second?', 'Third?'] },
      });
      assert.equal(res.status, 201);
      const consultation = ConsultationSchema.parse(res.body);
      assert.match(consultation.consultationId, /^cns_/);
      assert.equal(consultation.userId, id);
      assert.equal(consultation.status, 'open');
      assert.ok(!Number.isNaN(Date.parse(consultation.createdAt)));
      assert.deepEqual(consultation.questions, [
        { question: 'First question?' },
        { question: 'Second?' },
        { question: 'Third?' },
      ]);
    });

    it('11 accepts a question of exactly 2000 characters', async () => {
      const consultation = await newConsultation(noor, ['q'.repeat(2000)]);
      assert.equal(consultation.questions[0]?.question.length, 2000);
    });

    const badCreates: { name: string; body: unknown; fields: string[] }[] = [
      { name: 'missing userId and questions', body: {}, fields: ['userId', 'questions'] },
      { name: 'missing questions', body: { userId: alex }, fields: ['questions'] },
      { name: 'missing userId', body: { questions: ['Hi?'] }, fields: ['userId'] },
      {
        name: 'a 4th question',
        body: { userId: alex, questions: ['a', 'b', 'c', 'd'] },
        fields: ['questions'],
      },
      { name: 'no question', body: { userId: alex, questions: [] }, fields: ['questions'] },
      { name: 'an empty question', body: { userId: alex, questions: [''] }, fields: ['questions.0'] },
      {
        name: 'a whitespace question',
        body: { userId: alex, questions: ['ok?', ' \n\t '] },
        fields: ['questions.1'],
      },
      {
        name: 'a question of 2001 characters',
        body: { userId: alex, questions: ['q'.repeat(2001)] },
        fields: ['questions.0'],
      },
      { name: 'questions as a string', body: { userId: alex, questions: 'Hi?' }, fields: ['questions'] },
      {
        name: 'a question that is a number',
        body: { userId: alex, questions: [42] },
        fields: ['questions.0'],
      },
      { name: 'userId of the wrong type', body: { userId: 17, questions: ['Hi?'] }, fields: ['userId'] },
      { name: 'an empty userId', body: { userId: ' ', questions: ['Hi?'] }, fields: ['userId'] },
      {
        name: 'an unknown field',
        body: { userId: alex, questions: ['Hi?'], priority: 'high' },
        fields: ['priority'],
      },
    ];
    for (const { name, body, fields } of badCreates) {
      it(`11 400 for ${name}`, async () => {
        const before = (await sb.call('GET', `/user/${alex}/case-history`)).body.length;
        const res = await sb.call('POST', '/consultation', { body });
        assertProblem(res, 400, 'invalid_request', fields, { exactFields: true });
        assert.equal(
          (await sb.call('GET', `/user/${alex}/case-history`)).body.length,
          before,
          'nothing created',
        );
      });
    }

    it('11 404 for an unknown user', async () => {
      const res = await sb.call('POST', '/consultation', {
        body: { userId: 'usr_nobody', questions: ['Hi?'] },
      });
      assertProblem(res, 404, 'not_found');
    });

    it('11 403 subscription_required for sam (no active subscription), nothing created', async () => {
      const res = await sb.call('POST', '/consultation', {
        body: { userId: sam, questions: ['Can I ask?'] },
      });
      assertProblem(res, 403, 'subscription_required');
      assert.deepEqual((await sb.call('GET', `/user/${sam}/case-history`)).body, []);
    });

    it('11 403 subscription_required for a user who never subscribed', async () => {
      const id = await newUser();
      assertProblem(
        await sb.call('POST', '/consultation', { body: { userId: id, questions: ['Hi?'] } }),
        403,
        'subscription_required',
      );
    });

    it('12 reads a consultation; 404 for an unknown one', async () => {
      const created = await newConsultation();
      const res = await sb.call('GET', `/consultation/${created.consultationId}`);
      assert.equal(res.status, 200);
      assert.deepEqual(ConsultationSchema.parse(res.body), created);
      const seeded = ConsultationSchema.parse(
        (await sb.call('GET', '/consultation/cns_demo_alex_rash')).body,
      );
      assert.equal(seeded.status, 'resolved');
      assert.equal(seeded.questions.length, 2);
      assert.ok(seeded.questions.every((q) => q.answer && q.professional));
      assertProblem(await sb.call('GET', '/consultation/cns_nothing'), 404, 'not_found');
    });

    it('13 adds a follow-up question', async () => {
      const created = await newConsultation();
      const res = await sb.call('POST', `/consultation/${created.consultationId}`, {
        body: { question: ' And with a fever? ' },
      });
      assert.equal(res.status, 200);
      const consultation = ConsultationSchema.parse(res.body);
      assert.deepEqual(
        consultation.questions.map((q) => q.question),
        ['Is it safe to run with a cold?', 'And with a fever?'],
      );
      assert.equal(consultation.status, 'open');
    });

    const badFollowUps: { name: string; body: unknown; fields: string[] }[] = [
      { name: 'missing question', body: {}, fields: ['question'] },
      { name: 'an empty question', body: { question: '' }, fields: ['question'] },
      { name: 'a whitespace question', body: { question: '   ' }, fields: ['question'] },
      { name: 'a question of 2001 characters', body: { question: 'x'.repeat(2001) }, fields: ['question'] },
      { name: 'a question that is not a string', body: { question: ['a'] }, fields: ['question'] },
      { name: 'an unknown field', body: { question: 'ok?', questions: ['ok?'] }, fields: ['questions'] },
    ];
    for (const { name, body, fields } of badFollowUps) {
      it(`13 400 for ${name}`, async () => {
        const created = await newConsultation();
        const res = await sb.call('POST', `/consultation/${created.consultationId}`, { body });
        assertProblem(res, 400, 'invalid_request', fields, { exactFields: true });
        const after = ConsultationSchema.parse(
          (await sb.call('GET', `/consultation/${created.consultationId}`)).body,
        );
        assert.equal(after.questions.length, 1);
      });
    }

    it('13 404 for an unknown consultation', async () => {
      const res = await sb.call('POST', '/consultation/cns_nothing', { body: { question: 'Hello?' } });
      assertProblem(res, 404, 'not_found');
    });

    it("14 lists a user's consultations, newest first; 404 for an unknown user", async () => {
      const res = await sb.call('GET', `/user/${noor}/case-history`);
      assert.equal(res.status, 200);
      const history = ConsultationSchema.array().parse(res.body);
      assert.ok(history.length >= 1);
      assert.ok(history.every((c) => c.userId === noor));
      const times = history.map((c) => Date.parse(c.createdAt));
      assert.deepEqual(
        times,
        [...times].sort((a, b) => b - a),
      );
      assertProblem(await sb.call('GET', '/user/usr_nobody/case-history'), 404, 'not_found');
    });
  });

  describe('15–17 webhooks', () => {
    it('15 creates a webhook for every event type by default, with a whsec_ secret', async () => {
      const res = await sb.call('POST', '/webhook', { body: { url: 'https://partner.example.test/hooks' } });
      assert.equal(res.status, 201);
      const webhook = WebhookSchema.parse(res.body);
      assert.match(webhook.webhookId, /^whk_/);
      assert.match(webhook.secret ?? '', /^whsec_[A-Za-z0-9+/]+=*$/);
      assert.deepEqual([...webhook.events].sort(), [
        'consultationCanceled',
        'consultationClaimed',
        'consultationClosed',
        'questionResolved',
      ]);
      await sb.call('DELETE', `/webhook/${webhook.webhookId}`);
    });

    it('15 keeps the chosen events, without duplicates', async () => {
      const res = await sb.call('POST', '/webhook', {
        body: { url: 'http://127.0.0.1:9/x', events: ['questionResolved', 'questionResolved'] },
      });
      assert.equal(res.status, 201);
      const webhook = WebhookSchema.parse(res.body);
      assert.deepEqual(webhook.events, ['questionResolved']);
      await sb.call('DELETE', `/webhook/${webhook.webhookId}`);
    });

    const badWebhooks: { name: string; body: unknown; fields: string[] }[] = [
      { name: 'missing url', body: {}, fields: ['url'] },
      { name: 'a url that is no URL', body: { url: 'not a url' }, fields: ['url'] },
      { name: 'a non-http url', body: { url: 'ftp://partner.example.test/hooks' }, fields: ['url'] },
      { name: 'url of the wrong type', body: { url: 42 }, fields: ['url'] },
      { name: 'an empty events list', body: { url: 'https://a.test/h', events: [] }, fields: ['events'] },
      {
        name: 'an unknown event',
        body: { url: 'https://a.test/h', events: ['somethingElse'] },
        fields: ['events.0'],
      },
      {
        name: 'events not an array',
        body: { url: 'https://a.test/h', events: 'questionResolved' },
        fields: ['events'],
      },
      { name: 'an unknown field', body: { url: 'https://a.test/h', secret: 'mine' }, fields: ['secret'] },
    ];
    for (const { name, body, fields } of badWebhooks) {
      it(`15 400 for ${name}`, async () => {
        assertProblem(await sb.call('POST', '/webhook', { body }), 400, 'invalid_request', fields, {
          exactFields: true,
        });
      });
    }

    it('16 deletes a webhook (204); deleting it again or an unknown one is 404', async () => {
      const webhook = WebhookSchema.parse(
        (await sb.call('POST', '/webhook', { body: { url: 'https://a.test/h' } })).body,
      );
      const res = await sb.call('DELETE', `/webhook/${webhook.webhookId}`);
      assert.equal(res.status, 204);
      assert.equal(res.body, undefined);
      assertProblem(await sb.call('DELETE', `/webhook/${webhook.webhookId}`), 404, 'not_found');
      assertProblem(await sb.call('DELETE', '/webhook/whk_nothing'), 404, 'not_found');
    });

    it('17 formats an event', async () => {
      const res = await sb.call('POST', '/webhook/format-event', {
        body: { type: 'questionResolved', caseId: 'cns_1', userId: 'usr_1', extra: true },
      });
      assert.equal(res.status, 200);
      assert.deepEqual(WebhookEventSchema.parse(res.body), {
        type: 'questionResolved',
        caseId: 'cns_1',
        userId: 'usr_1',
      });
    });
  });

  describe('18–19 health navigator', () => {
    const start = async (userId: string = alex) => {
      const res = await sb.call('POST', `/v2/health-navigator/users/${userId}/conversations`, { body: {} });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return NavigatorConversationSchema.parse(res.body);
    };
    const send = async (conversationId: string, message: string) => {
      const res = await sb.call('POST', '/v2/health-navigator/messages', {
        body: { conversationId, message },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const reply = NavigatorReplySchema.parse(res.body);
      assert.equal(reply.conversationId, conversationId);
      assert.deepEqual(
        reply.messages.map((m) => m.role),
        ['member', 'navigator'],
      );
      assert.equal(reply.messages[0]?.text, message);
      return reply.messages[1]!;
    };

    it('18 starts a conversation with a greeting', async () => {
      const conversation = await start();
      assert.match(conversation.conversationId, /^cnv_/);
      assert.equal(conversation.userId, alex);
      assert.equal(conversation.messages.length, 1);
      assert.equal(conversation.messages[0]?.role, 'navigator');
      assert.match(conversation.messages[0]?.text ?? '', /^Hello/);
    });

    for (const [name, options] of [
      ['an empty body', { rawBody: '' }],
      ['a free-form object', { body: { channel: 'portal', locale: 'en-GB', nested: { a: [1, 2] } } }],
    ] as const) {
      it(`18 accepts ${name}`, async () => {
        const res = await sb.call('POST', `/v2/health-navigator/users/${noor}/conversations`, options);
        assert.equal(res.status, 201);
        assert.equal(NavigatorConversationSchema.parse(res.body).userId, noor);
      });
    }

    it('18 400 for a body that is not an object, 404 for an unknown user', async () => {
      const res = await sb.call('POST', `/v2/health-navigator/users/${alex}/conversations`, { body: ['a'] });
      assertProblem(res, 400, 'invalid_request', ['']);
      assertProblem(
        await sb.call('POST', '/v2/health-navigator/users/usr_nobody/conversations', { body: {} }),
        404,
        'not_found',
      );
    });

    const symptoms = [
      'I have a headache and fever',
      'My throat is sore and I keep coughing',
      'There is a rash on my arm that itches',
      'My ears hurt when I lie down',
      'I have felt ill and dizzy since Monday',
      'My lower back is stiff in the mornings',
      'My heart is racing at night',
    ];
    for (const message of symptoms) {
      it(`19 a symptom suggests a doctor: "${message}"`, async () => {
        const reply = await send((await start()).conversationId, message);
        assert.equal(reply.suggestsDoctor, true);
        assert.equal(reply.urgent, undefined);
      });
    }

    const general = [
      'how much exercise should I do',
      'What should I eat this year?',
      'How do I find a doctor near me?',
      'I will start running soon, how active should I be?',
      'Which vaccines do I need for a trip to Spain?',
      'What number do I call to give feedback on the consultation?',
      'Tips for better sleep please',
    ];
    for (const message of general) {
      it(`19 a general question does not suggest a doctor: "${message}"`, async () => {
        const reply = await send((await start()).conversationId, message);
        assert.equal(reply.suggestsDoctor, undefined, reply.text);
        assert.equal(reply.urgent, undefined);
      });
    }

    const emergencies = [
      'I have chest pain spreading to my arm',
      "My dad can't breathe properly",
      'My friend fainted and is unconscious',
      'My chest hurts and my left arm is numb',
      'Tightness in my chest and I feel sick',
      'Her face is drooping and her speech is slurred',
    ];
    for (const message of emergencies) {
      it(`19 an emergency is urgent: "${message}"`, async () => {
        const reply = await send((await start()).conversationId, message);
        assert.equal(reply.urgent, true);
        assert.equal(reply.suggestsDoctor, true);
        assert.match(reply.text, /emergency/i);
      });
    }

    it('18–19 greets and answers Noor in Arabic, her language, and hands an Arabic symptom to a doctor', async () => {
      const conversation = await start(noor);
      assert.match(conversation.messages[0]?.text ?? '', /^مرحبًا/);
      const symptom = await send(conversation.conversationId, 'عندي صداع وحمى منذ أمس');
      assert.equal(symptom.suggestsDoctor, true);
      assert.match(symptom.text, /طبيب/);
      const general = await send(conversation.conversationId, 'كيف أنام بشكل أفضل؟');
      assert.equal(general.suggestsDoctor, undefined);
      assert.match(general.text, /النوم/);
    });

    // One member per language: the greeting and every reply in it, symptoms and emergencies recognised.
    const inLanguage = {
      de: {
        symptom: 'Ich habe seit gestern Kopfschmerzen und Fieber',
        emergency: 'Mein Vater hat Brustschmerzen',
        general: 'Wie viel Bewegung brauche ich?',
        greeting: /^Hallo/,
        word: /Ärztin|Arzt/,
      },
      fr: {
        symptom: 'J’ai mal à la tête et de la fièvre',
        emergency: 'Mon père a une douleur à la poitrine',
        general: 'Combien d’exercice faut-il faire ?',
        greeting: /^Bonjour/,
        word: /médecin/,
      },
      es: {
        symptom: 'Tengo dolor de cabeza y fiebre',
        emergency: 'Mi padre tiene dolor en el pecho',
        general: '¿Cuánto ejercicio debo hacer?',
        greeting: /^¡Hola/,
        word: /médico/,
      },
      nl: {
        symptom: 'Ik heb hoofdpijn en koorts',
        emergency: 'Mijn vader heeft pijn op de borst',
        general: 'Hoeveel beweging heb ik nodig?',
        greeting: /^Hallo/,
        word: /arts/,
      },
      ar: {
        symptom: 'أشعر بدوخة وغثيان',
        emergency: 'والدي يشعر بألم في الصدر',
        general: 'ما هي التمارين المناسبة؟',
        greeting: /^مرحبًا/,
        word: /طبيب/,
      },
    } as const;
    for (const [language, words] of Object.entries(inLanguage)) {
      it(`18–19 a member whose language is ${language} is answered in it`, async () => {
        const created = await sb.call('POST', '/user', {
          body: { uniqueId: `navigator-${language}`, language, physicianCountry: 'GB' },
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        const userId = (created.body as { id: string }).id;
        const conversation = await start(userId);
        assert.match(conversation.messages[0]?.text ?? '', words.greeting);
        const symptom = await send(conversation.conversationId, words.symptom);
        assert.equal(symptom.suggestsDoctor, true, words.symptom);
        assert.match(symptom.text, words.word);
        const emergency = await send(conversation.conversationId, words.emergency);
        assert.equal(emergency.urgent, true, words.emergency);
        assert.match(emergency.text, /112/);
        const general = await send(conversation.conversationId, words.general);
        assert.equal(general.suggestsDoctor, undefined, words.general);
        assert.notEqual(general.text, symptom.text);
      });
    }

    it('19 a German word that ends like "ache" is no symptom', async () => {
      const reply = await send((await start()).conversationId, 'Eine Sache noch: wie schlafe ich besser?');
      assert.equal(reply.suggestsDoctor, undefined, reply.text);
    });

    it('19 no reply ever names a diagnosis, and the conversation keeps every message', async () => {
      const { conversationId } = await start();
      const messages = [
        ...symptoms,
        ...general,
        ...emergencies,
        'Can you diagnose me?',
        'What is my diagnosis?',
        'I feel stressed and anxious',
        'Is this tablet dose right?',
        'What can you do?',
        'asdf',
      ];
      for (const message of messages) {
        const reply = await send(conversationId, message);
        assert.doesNotMatch(reply.text, /diagnos/i, `reply to "${message}"`);
      }
      const stored = sb.sandbox.state.conversations.get(conversationId);
      assert.equal(stored?.messages.length, 1 + 2 * messages.length);
    });

    const badMessages: { name: string; body: unknown; fields: string[] }[] = [
      { name: 'missing both fields', body: {}, fields: ['conversationId', 'message'] },
      { name: 'an empty message', body: { conversationId: 'cnv_x', message: '' }, fields: ['message'] },
      { name: 'a whitespace message', body: { conversationId: 'cnv_x', message: '  ' }, fields: ['message'] },
      {
        name: 'a message of 4001 characters',
        body: { conversationId: 'cnv_x', message: 'm'.repeat(4001) },
        fields: ['message'],
      },
      {
        name: 'a message of the wrong type',
        body: { conversationId: 'cnv_x', message: { text: 'hi' } },
        fields: ['message'],
      },
      {
        name: 'conversationId of the wrong type',
        body: { conversationId: 1, message: 'hi' },
        fields: ['conversationId'],
      },
      {
        name: 'an unknown field',
        body: { conversationId: 'cnv_x', message: 'hi', userId: alex },
        fields: ['userId'],
      },
    ];
    for (const { name, body, fields } of badMessages) {
      it(`19 400 for ${name}`, async () => {
        const res = await sb.call('POST', '/v2/health-navigator/messages', { body });
        assertProblem(res, 400, 'invalid_request', fields, { exactFields: true });
      });
    }

    it('19 404 for an unknown conversation', async () => {
      const res = await sb.call('POST', '/v2/health-navigator/messages', {
        body: { conversationId: 'cnv_nothing', message: 'hi' },
      });
      assertProblem(res, 404, 'not_found');
    });
  });

  describe('20 prescription', () => {
    it('stores the request with status received and echoes the survey', async () => {
      const indicationSurvey = {
        medication: 'Salbutamol inhaler',
        usedBefore: true,
        answers: [{ q: 'allergies', a: 'none' }],
        dosesPerWeek: 3,
        note: null,
      };
      const res = await sb.call('POST', '/prescription', { body: { userId: alex, indicationSurvey } });
      assert.equal(res.status, 201);
      const request = PrescriptionRequestSchema.parse(res.body);
      assert.match(request.prescriptionId, /^rx_/);
      assert.equal(request.userId, alex);
      assert.equal(request.status, 'received');
      assert.deepEqual(request.indicationSurvey, indicationSurvey);
      assert.deepEqual(sb.sandbox.state.prescriptions.get(request.prescriptionId), request);
    });

    it('needs no survey', async () => {
      const res = await sb.call('POST', '/prescription', { body: { userId: noor } });
      assert.equal(res.status, 201);
      const request = PrescriptionRequestSchema.parse(res.body);
      assert.equal(request.status, 'received');
      assert.equal(request.indicationSurvey, undefined);
    });

    const badBodies: { name: string; body: unknown; fields: string[] }[] = [
      { name: 'missing userId', body: { indicationSurvey: {} }, fields: ['userId'] },
      {
        name: 'a survey that is an array',
        body: { userId: alex, indicationSurvey: [1] },
        fields: ['indicationSurvey'],
      },
      {
        name: 'a survey that is a string',
        body: { userId: alex, indicationSurvey: 'yes' },
        fields: ['indicationSurvey'],
      },
      { name: 'an unknown field', body: { userId: alex, drug: 'x' }, fields: ['drug'] },
    ];
    for (const { name, body, fields } of badBodies) {
      it(`400 for ${name}`, async () => {
        assertProblem(await sb.call('POST', '/prescription', { body }), 400, 'invalid_request', fields, {
          exactFields: true,
        });
      });
    }

    it('404 for an unknown user', async () => {
      assertProblem(
        await sb.call('POST', '/prescription', { body: { userId: 'usr_nobody' } }),
        404,
        'not_found',
      );
    });
  });

  describe('bodies that are not JSON, too large or too deep', () => {
    const targets: { name: string; method: string; path: string }[] = [
      { name: 'token', method: 'POST', path: '/partner/authorization/token' },
      { name: 'createUser', method: 'POST', path: '/user' },
      { name: 'updateUser', method: 'PUT', path: `/user/${noor}` },
      { name: 'searchUsersByBody', method: 'POST', path: '/user/search' },
      { name: 'createSubscription', method: 'POST', path: `/user/${noor}/subscription` },
      { name: 'createConsultation', method: 'POST', path: '/consultation' },
      { name: 'addFollowUp', method: 'POST', path: '/consultation/cns_demo_alex_vitamin' },
      { name: 'createWebhook', method: 'POST', path: '/webhook' },
      { name: 'formatEvent', method: 'POST', path: '/webhook/format-event' },
      { name: 'startConversation', method: 'POST', path: `/v2/health-navigator/users/${alex}/conversations` },
      { name: 'sendMessage', method: 'POST', path: '/v2/health-navigator/messages' },
      { name: 'prescription', method: 'POST', path: '/prescription' },
    ];
    const malformed = ['{', '{"userId": }', "{'a': 1}", 'userId=usr_1', '{"a":1}}', '\u0000'];
    for (const { name, method, path } of targets) {
      it(`${name}: 400 invalid_json for malformed JSON`, async () => {
        for (const rawBody of malformed) {
          const res = await sb.call(method, path, { rawBody, headers: JSON_HEADERS });
          assertProblem(res, 400, 'invalid_json');
        }
      });

      if (name !== 'startConversation') {
        it(`${name}: 400 invalid_json for an empty or blank body`, async () => {
          for (const rawBody of ['', '   \n']) {
            assertProblem(
              await sb.call(method, path, { rawBody, headers: JSON_HEADERS }),
              400,
              'invalid_json',
            );
          }
          assertProblem(await sb.call(method, path), 400, 'invalid_json');
        });
      }

      it(`${name}: 413 for a body over 64 KiB`, async () => {
        const rawBody = JSON.stringify({ userId: alex, questions: ['x'.repeat(65 * 1024)] });
        assertProblem(
          await sb.call(method, path, { rawBody, headers: JSON_HEADERS }),
          413,
          'payload_too_large',
        );
      });
    }

    it('413 also without a content-length (a streamed body)', async () => {
      const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ < 6) controller.enqueue(chunk);
          else controller.close();
        },
      });
      const res = await fetch(`${sb.url}/consultation`, {
        method: 'POST',
        headers: { ...JSON_HEADERS, authorization: `Bearer ${await sb.token()}` },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      assert.equal(res.status, 413);
      assert.match(res.headers.get('content-type') ?? '', /problem\+json/);
      await res.body?.cancel();
    });

    it('a body just under 64 KiB is read', async () => {
      const indicationSurvey = { notes: 'n'.repeat(60 * 1024) };
      const res = await sb.call('POST', '/prescription', { body: { userId: alex, indicationSurvey } });
      assert.equal(res.status, 201);
    });

    const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    const deepCases: { name: string; path: string; rawBody: string; headers?: Record<string, string> }[] = [
      {
        name: 'a prescription survey nested 20,000 levels',
        path: '/prescription',
        rawBody: `{"userId":"${alex}","indicationSurvey":{"a":${deep(20_000)}}}`,
      },
      {
        name: 'the same with an Idempotency-Key',
        path: '/prescription',
        rawBody: `{"userId":"${alex}","indicationSurvey":{"a":${deep(20_000)}}}`,
        headers: { 'idempotency-key': 'deep-1' },
      },
      {
        name: 'a conversation start body nested 20,000 levels, with an Idempotency-Key',
        path: `/v2/health-navigator/users/${alex}/conversations`,
        rawBody: `{"a":${deep(20_000)}}`,
        headers: { 'idempotency-key': 'deep-2' },
      },
    ];
    for (const { name, path, rawBody, headers } of deepCases) {
      it(`400 invalid_json (never 500) for ${name}`, async () => {
        const res = await sb.call('POST', path, { rawBody, headers: { ...JSON_HEADERS, ...headers } });
        assertProblem(res, 400, 'invalid_json');
      });
    }

    it('moderate nesting (30 levels) is fine', async () => {
      const res = await sb.call('POST', '/prescription', {
        rawBody: `{"userId":"${alex}","indicationSurvey":{"a":${deep(30)}}}`,
        headers: { ...JSON_HEADERS, 'idempotency-key': 'deep-ok' },
      });
      assert.equal(res.status, 201);
    });
  });

  describe('GET /openapi.json', () => {
    let doc: {
      openapi: string;
      paths: Record<
        string,
        Record<
          string,
          { operationId: string; requestBody?: { content: Record<string, { schema: { $ref: string } }> } }
        >
      >;
      components: { schemas: Record<string, { properties?: Record<string, { maxItems?: number }> }> };
    };
    before(async () => {
      const res = await fetch(`${sb.url}/openapi.json`);
      assert.equal(res.status, 200);
      doc = JSON.parse(await res.text());
    });

    it('is OpenAPI 3.1.0 with exactly the 20 operations and their operationIds', () => {
      assert.equal(doc.openapi, '3.1.0');
      assert.equal(OPERATION_TABLE.length, 20);
      const listed = Object.entries(doc.paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
      );
      const expected = OPERATION_TABLE.map((op) => `${op.method.toUpperCase()} ${op.path} ${op.operationId}`);
      assert.deepEqual([...listed].sort(), [...expected].sort());
      assert.equal(new Set(OPERATION_TABLE.map((op) => op.operationId)).size, 20);
    });

    it('has a component for every request body', () => {
      const withBodies = OPERATION_TABLE.filter((op) => op.method !== 'get' && op.method !== 'delete');
      assert.equal(withBodies.length, 12);
      for (const op of withBodies) {
        const requestBody = doc.paths[op.path]?.[op.method]?.requestBody;
        assert.ok(requestBody, `${op.operationId} has a request body`);
        const ref = requestBody.content['application/json']?.schema.$ref ?? '';
        const name = ref.replace('#/components/schemas/', '');
        assert.equal(name, op.request);
        assert.ok(doc.components.schemas[name], `component ${name}`);
      }
    });

    it('says CreateConsultationRequest holds at most 3 questions', () => {
      assert.equal(
        doc.components.schemas['CreateConsultationRequest']?.properties?.['questions']?.maxItems,
        3,
      );
    });
  });
});

describe('sandbox auth', () => {
  const API_KEY = 'test-partner-key-7f3a9c';
  let sb: TestSandbox;
  const texts: string[] = [];
  /** Every response of this describe, as text, to look for the API key in. */
  const raw = async (method: string, path: string, init: { body?: string; token?: string } = {}) => {
    const headers: Record<string, string> = { ...JSON_HEADERS };
    if (init.token) headers['authorization'] = `Bearer ${init.token}`;
    const response = await fetch(`${sb.url}${path}`, { method, headers, body: init.body });
    const text = await response.text();
    texts.push(text, JSON.stringify([...response.headers]));
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  };

  before(async () => {
    sb = await startTestSandbox({ apiKeys: [API_KEY], tokenTtlMs: 60_000 });
  });
  after(async () => {
    await sb.close();
  });

  it('missing, unknown and expired tokens are 401 with distinct codes', async () => {
    const missing = await raw('GET', `/user/${alex}`);
    assertProblem(missing, 401, 'missing_token');
    assert.match(missing.headers.get('www-authenticate') ?? '', /^Bearer/);
    const basic = await fetch(`${sb.url}/user/${alex}`, {
      headers: { authorization: `Basic ${btoa('a:b')}` },
    });
    assertProblem(
      { status: basic.status, body: await basic.json(), headers: basic.headers },
      401,
      'missing_token',
    );

    assertProblem(await raw('GET', `/user/${alex}`, { token: 'tok_made_up' }), 401, 'invalid_token');

    const issued = AccessTokenSchema.parse(
      (await raw('POST', '/partner/authorization/token', { body: JSON.stringify({ apiKey: API_KEY }) })).body,
    );
    assert.equal(issued.expiresIn, 60);
    assert.equal((await raw('GET', `/user/${alex}`, { token: issued.accessToken })).status, 200);
    await sb.control('/clock', { advanceMs: 59_000 });
    assert.equal(
      (await raw('GET', `/user/${alex}`, { token: issued.accessToken })).status,
      200,
      'still valid',
    );
    await sb.control('/clock', { advanceMs: 2_000 });
    const expired = await raw('GET', `/user/${alex}`, { token: issued.accessToken });
    assertProblem(expired, 401, 'token_expired');
    assert.match(expired.headers.get('www-authenticate') ?? '', /invalid_token/);

    const fresh = AccessTokenSchema.parse(
      (await raw('POST', '/partner/authorization/token', { body: JSON.stringify({ apiKey: API_KEY }) })).body,
    );
    assert.equal((await raw('GET', `/user/${alex}`, { token: fresh.accessToken })).status, 200);
  });

  it('every operation but the token one asks for a token', async () => {
    for (const op of OPERATION_TABLE) {
      const path = op.path.replace(/\{(\w+)\}/g, 'x');
      const res = await raw(
        op.method.toUpperCase(),
        path,
        op.method === 'get' || op.method === 'delete' ? {} : { body: '{}' },
      );
      if (op.noAuth) assert.notEqual(res.status, 401, op.operationId);
      else assertProblem(res, 401, 'missing_token');
    }
  });

  it('the token operation refuses wrong keys with 401, and the API key never appears in any response', async () => {
    for (const apiKey of ['sandbox-api-key', `${API_KEY}x`, API_KEY.toUpperCase(), ` ${API_KEY}`]) {
      const res = await raw('POST', '/partner/authorization/token', { body: JSON.stringify({ apiKey }) });
      assertProblem(res, 401, 'invalid_api_key');
    }
    assertProblem(
      await raw('POST', '/partner/authorization/token', {
        body: JSON.stringify({ apiKey: API_KEY, extra: API_KEY }),
      }),
      400,
      'invalid_request',
      ['extra'],
    );
    assertProblem(
      await raw('POST', '/partner/authorization/token', {
        body: JSON.stringify({ apiKey: API_KEY, subPartnerName: 3 }),
      }),
      400,
      'invalid_request',
      ['subPartnerName'],
    );
    const ok = await raw('POST', '/partner/authorization/token', {
      body: JSON.stringify({ apiKey: API_KEY, subPartnerName: 'North' }),
    });
    assert.equal(ok.status, 200);
    await raw('GET', '/');
    await raw('GET', '/openapi.json');
    await raw('GET', '/_sandbox/requests');
    assert.ok(texts.length > 10);
    for (const text of texts) assert.ok(!text.includes(API_KEY), `the API key leaked: ${text.slice(0, 200)}`);
  });
});

describe('records the sandbox gives to code in the same process', () => {
  it('are copies: changing one changes nothing stored, and a history comes newest first', async () => {
    const sandbox = createSandbox({ professionals: { mode: 'manual' } });
    const state = sandbox.state;
    const userId = DEMO_USER_IDS.alex;
    const history = state.getCaseHistory(userId);
    assert.ok(history.length > 1);
    const times = history.map((c) => c.createdAt);
    assert.deepEqual(times, [...times].sort().reverse());
    const first = history[0]!;
    const question = first.questions[0]!.question;
    first.questions[0]!.question = 'changed by a caller';
    first.questions.push({ question: 'added by a caller' });
    first.status = 'canceled';
    const again = state.getConsultation(first.consultationId);
    assert.equal(again.questions[0]!.question, question);
    assert.equal(again.questions.length, history[0]!.questions.length - 1);
    assert.notEqual(again.status, 'canceled');
  });
});
