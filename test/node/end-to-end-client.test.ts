/**
 * The typed client against the real sandbox over loopback HTTP: all 20 operations, token expiry
 * under load, retries against injected faults, and a retried create that makes one record.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ApiError, ConsultClient } from '../../src/client/index.js';
import { OPERATION_TABLE } from '../../src/sandbox/openapi.js';
import { DEMO_USER_IDS } from '../../src/sandbox/seed.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';

const ALEX = DEMO_USER_IDS.alex;

/** The sandbox's request log as `METHOD /path/template` strings, ids replaced by their parameter names. */
function operationsSeen(sandbox: TestSandbox): Set<string> {
  const templates = OPERATION_TABLE.map((op) => ({
    name: `${op.method.toUpperCase()} ${op.path}`,
    pattern: new RegExp(`^${op.method.toUpperCase()} ${op.path.replace(/\{\w+\}/g, '[^/]+')}$`),
  }));
  const seen = new Set<string>();
  for (const entry of sandbox.sandbox.requests) {
    const line = `${entry.method} ${entry.path}`;
    // The literal /user/search wins over /user/{userId}, as in the sandbox's routing.
    const match = templates.find((t) => t.name === line) ?? templates.find((t) => t.pattern.test(line));
    if (match && entry.status < 400) seen.add(match.name);
  }
  return seen;
}

describe('the client against the sandbox', () => {
  let sandbox: TestSandbox;
  let client: ConsultClient;

  before(async () => {
    sandbox = await startTestSandbox();
  });
  after(() => sandbox.close());
  beforeEach(async () => {
    await sandbox.control('/reset');
    client = new ConsultClient({
      baseUrl: sandbox.url,
      apiKey: 'sandbox-api-key',
      subPartnerName: 'Acme Health',
    });
  });

  it('performs all 20 operations end to end', async () => {
    const grant = await client.createAccessToken({ apiKey: 'sandbox-api-key' });
    assert.equal(grant.tokenType, 'Bearer');

    const user = await client.createUser({
      uniqueId: 'e2e-member',
      language: 'de',
      email: 'member@example.com',
    });
    assert.equal(user.partnerName, 'Acme Health');
    assert.equal((await client.getUser(user.id)).email, 'member@example.com');
    assert.equal((await client.updateUser(user.id, { physicianCountry: 'DE' })).physicianCountry, 'DE');
    assert.deepEqual(
      (await client.searchUsersByQuery('e2e-member')).map((u) => u.id),
      [user.id],
    );
    assert.deepEqual(
      (await client.searchUsersByBody({ email: 'MEMBER@example.com' })).map((u) => u.id),
      [user.id],
    );

    const subscription = await client.createSubscription(user.id);
    assert.equal(subscription.active, 1);
    assert.deepEqual(
      (await client.getUserSubscriptions(user.id)).map((s) => s.subscriptionId),
      [subscription.subscriptionId],
    );
    assert.equal((await client.getSubscription(user.id, subscription.subscriptionId)).userId, user.id);
    assert.equal((await client.getSubscriptionHistory(user.id, subscription.subscriptionId)).length, 1);

    const consultation = await client.createConsultation({
      userId: user.id,
      questions: ['Is a daily walk enough exercise?'],
    });
    assert.equal(consultation.status, 'open');
    await sandbox.control(`/consultations/${consultation.consultationId}/answer`, {
      answer: 'Yes, **30 minutes** a day.',
    });
    const answered = await client.getConsultation(consultation.consultationId);
    assert.equal(answered.status, 'resolved');
    assert.equal(answered.questions[0]!.answer, 'Yes, **30 minutes** a day.');
    const followedUp = await client.addConsultationFollowUp(consultation.consultationId, {
      question: 'And for children?',
    });
    assert.equal(followedUp.status, 'open');
    assert.equal(followedUp.questions.length, 2);
    assert.deepEqual(
      (await client.getCaseHistory(user.id)).map((c) => c.consultationId),
      [consultation.consultationId],
    );

    const webhook = await client.createWebhook({
      url: 'http://127.0.0.1:9/hooks',
      events: ['questionResolved'],
    });
    assert.match(webhook.secret ?? '', /^whsec_/);
    assert.equal(await client.deleteWebhook(webhook.webhookId), undefined);
    assert.deepEqual(
      await client.formatWebhookEvent({ event: 'questionResolved', case_id: 'c1', user_id: 'u1' }),
      {
        type: 'questionResolved',
        caseId: 'c1',
        userId: 'u1',
      },
    );

    const conversation = await client.startNavigatorConversation(user.id, { topic: 'general' });
    assert.equal(conversation.messages[0]!.role, 'navigator');
    const reply = await client.sendNavigatorMessage({
      conversationId: conversation.conversationId,
      message: 'I have had a sore throat for three days',
    });
    assert.equal(reply.messages.at(-1)!.suggestsDoctor, true);

    const prescription = await client.createPrescriptionRequest({
      userId: user.id,
      indicationSurvey: { allergies: 'none' },
    });
    assert.equal(prescription.status, 'received');

    const missing = OPERATION_TABLE.map((op) => `${op.method.toUpperCase()} ${op.path}`).filter(
      (name) => !operationsSeen(sandbox).has(name),
    );
    assert.deepEqual(missing, [], 'every operation reached the sandbox and succeeded');
  });

  it('reports a bad request with the fields the sandbox named', async () => {
    const error = await client
      .createConsultation({ userId: ALEX, questions: ['ok', ' '] })
      .catch((e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(error.kind, 'http');
    assert.equal(error.status, 400);
    assert.equal(error.code, 'invalid_request');
    assert.deepEqual(
      error.errors.map((e) => e.field),
      ['questions.1'],
    );
  });

  it('explains the question cap as a 409 with its code', async () => {
    const created = await client.createConsultation({ userId: ALEX, questions: ['One?', 'Two?', 'Three?'] });
    const error = await client
      .addConsultationFollowUp(created.consultationId, { question: 'Four?' })
      .catch((e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 409);
    assert.equal(error.code, 'question_limit_reached');
  });

  it('makes one token request for 20 parallel calls after the sandbox expired the token', async () => {
    await client.getUser(ALEX);
    // The sandbox's clock jumps past the token's lifetime; the client still believes in its token.
    await sandbox.control('/clock', { advanceMs: 2 * 60 * 60 * 1000 });
    const tokenRequestsBefore = sandbox.sandbox.requests.filter(
      (r) => r.path === '/partner/authorization/token',
    ).length;

    const results = await Promise.all(Array.from({ length: 20 }, () => client.getCaseHistory(ALEX)));

    assert.equal(results.length, 20);
    assert.ok(results.every((history) => history.length > 0));
    const tokenRequests = sandbox.sandbox.requests.filter((r) => r.path === '/partner/authorization/token');
    assert.equal(tokenRequests.length - tokenRequestsBefore, 1, 'one token request for 20 calls');
    const unauthorized = sandbox.sandbox.requests.filter((r) => r.status === 401);
    assert.equal(unauthorized.length, 20, 'each call met the expiry once and was retried once');
  });

  it('refreshes a token that is about to expire before using it, once for 20 parallel calls', async () => {
    const shortLived = await startTestSandbox({ tokenTtlMs: 1000 });
    try {
      const shortClient = new ConsultClient({ baseUrl: shortLived.url, apiKey: 'sandbox-api-key' });
      await shortClient.getUser(ALEX);
      // Past half the token's lifetime, the client renews before calling.
      await new Promise((resolve) => setTimeout(resolve, 600));
      await Promise.all(Array.from({ length: 20 }, () => shortClient.getUser(ALEX)));
      const log = shortLived.sandbox.requests;
      assert.equal(log.filter((r) => r.path === '/partner/authorization/token').length, 2);
      assert.equal(log.filter((r) => r.status === 401).length, 0, 'no call went out with a stale token');
    } finally {
      await shortLived.close();
    }
  });

  it('retries a rate-limited read, honouring Retry-After, then gives up with the 429', async () => {
    const delays: number[] = [];
    const patient = new ConsultClient({
      baseUrl: sandbox.url,
      apiKey: 'sandbox-api-key',
      retry: { retries: 2 },
      sleep: async (ms) => void delays.push(ms),
    });
    await patient.getUser(ALEX);
    await sandbox.control('/faults', { rateLimitRate: 1 });
    const error = await patient.getUser(ALEX).catch((e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 429);
    assert.deepEqual(delays, [1000, 1000], 'Retry-After: 1 chose both waits');
    const attempts = sandbox.sandbox.requests.filter((r) => r.path === `/user/${ALEX}` && r.status === 429);
    assert.equal(attempts.length, 3);
  });

  it('retries a 503 with growing backoff and succeeds when the service recovers', async () => {
    const delays: number[] = [];
    let served = 0;
    const flaky = new ConsultClient({
      baseUrl: sandbox.url,
      apiKey: 'sandbox-api-key',
      retry: { retries: 3, baseDelayMs: 100 },
      random: () => 0.999,
      sleep: async (ms) => {
        delays.push(ms);
        // The fault clears after the second failure.
        if (++served === 2) await sandbox.control('/faults', { errorRate: 0 });
      },
    });
    await flaky.getUser(ALEX);
    await sandbox.control('/faults', { errorRate: 1 });
    const user = await flaky.getUser(ALEX);
    assert.equal(user.id, ALEX);
    assert.equal(delays.length, 2);
    assert.ok(delays[1]! > delays[0]!, `backoff grows: ${delays.join(', ')}`);
    assert.equal(
      sandbox.sandbox.requests.filter((r) => r.path === `/user/${ALEX}` && r.status === 503).length,
      2,
    );
  });

  it('does not retry a 409 or a 404', async () => {
    const error = await client.getConsultation('cns_unknown').catch((e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 404);
    assert.equal(sandbox.sandbox.requests.filter((r) => r.path === '/consultation/cns_unknown').length, 1);
  });

  it('makes one consultation when a create is retried after its response was lost', async () => {
    let dropped = false;
    const lossy = new ConsultClient({
      baseUrl: sandbox.url,
      apiKey: 'sandbox-api-key',
      sleep: async () => {},
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (!dropped && init.method === 'POST' && input.endsWith('/consultation')) {
          dropped = true;
          // The sandbox created the consultation, but the answer never arrives.
          throw new TypeError('fetch failed: connection reset');
        }
        return response;
      },
    });
    const before = (await lossy.getCaseHistory(ALEX)).length;
    const created = await lossy.createConsultation({
      userId: ALEX,
      questions: ['How long does a cold last?'],
    });
    const history = await lossy.getCaseHistory(ALEX);
    assert.equal(history.length, before + 1, 'one consultation, not two');
    assert.equal(history[0]!.consultationId, created.consultationId);
    const creates = sandbox.sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/consultation');
    assert.equal(creates.length, 2);
    assert.ok(creates[0]!.idempotencyKey);
    assert.equal(creates[1]!.idempotencyKey, creates[0]!.idempotencyKey, 'the retry reused the key');
  });

  it('tells a network failure from an HTTP error', async () => {
    const offline = new ConsultClient({ baseUrl: 'http://127.0.0.1:9', retry: { retries: 0 } });
    const error = await offline.getUser(ALEX).catch((e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(error.kind, 'network');
    assert.equal(error.status, 0);
  });
});
