/**
 * The member's life through the proxy: a fourth question and a follow-up on an ended case are
 * refused by the proxy itself (it has just read the case), members with long ids that share a
 * prefix are distinct upstream users, and `shouldNotify` from the partner's `authenticate` reaches
 * the new upstream user.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Member } from '../../src/proxy/options.js';
import { startTestProxy, type TestProxy } from './support/proxy.js';

let proxy: TestProxy;
/** Who `authenticate` says is signed in, per request, from an `x-test-member` header (URI-encoded JSON). */
const authenticate = async (request: Request): Promise<Member | undefined> => {
  const header = request.headers.get('x-test-member');
  return header ? (JSON.parse(decodeURIComponent(header)) as Member) : undefined;
};

async function signIn(member: Member): Promise<{ token: string; userId: string }> {
  const response = await proxy.call('POST', '/session', {
    headers: { 'x-test-member': encodeURIComponent(JSON.stringify(member)) },
    body: {},
  });
  assert.equal(response.status, 200, response.text);
  const grant = response.body as { token: string; user: { id: string } };
  return { token: grant.token, userId: grant.user.id };
}

describe('the proxy and the member', () => {
  before(async () => {
    proxy = await startTestProxy({ authenticate, sandboxOptions: { professionals: { mode: 'manual' } } });
  });
  after(async () => proxy?.close());

  it('refuses a fourth question itself, with no upstream call', async () => {
    const { token } = await signIn({ uniqueId: 'alex' });
    const created = await proxy.call('POST', '/consultation', {
      token,
      headers: { 'idempotency-key': 'four-questions-1' },
      body: { questions: ['One?', 'Two?', 'Three?'] },
    });
    assert.equal(created.status, 201, created.text);
    const id = (created.body as { consultationId: string }).consultationId;
    const mark = proxy.mark();
    const fourth = await proxy.call('POST', `/consultation/${id}`, {
      token,
      headers: { 'idempotency-key': 'four-questions-2' },
      body: { question: 'Four?' },
    });
    assert.equal(fourth.status, 409);
    assert.equal((fourth.body as { code: string }).code, 'question_limit_reached');
    assert.deepEqual(
      proxy.upstreamCalls(mark).map((r) => `${r.method} ${r.path}`),
      [`GET /consultation/${id}`],
      'only the read the proxy needed to know',
    );
  });

  it('refuses a follow-up on a closed or canceled case itself', async () => {
    const { token } = await signIn({ uniqueId: 'alex' });
    for (const [ending, index] of [
      ['close', 1],
      ['cancel', 2],
    ] as const) {
      const created = await proxy.call('POST', '/consultation', {
        token,
        headers: { 'idempotency-key': `ended-case-${index}` },
        body: { questions: ['Is this still open?'] },
      });
      const id = (created.body as { consultationId: string }).consultationId;
      await proxy.sandbox.control(`/consultations/${id}/${ending}`);
      const mark = proxy.mark();
      const followUp = await proxy.call('POST', `/consultation/${id}`, {
        token,
        headers: { 'idempotency-key': `ended-case-follow-${index}` },
        body: { question: 'One more?' },
      });
      assert.equal(followUp.status, 409, ending);
      assert.equal((followUp.body as { code: string }).code, 'consultation_closed');
      assert.equal(
        proxy.upstreamCalls(mark).filter((r) => r.method === 'POST').length,
        0,
        `${ending}: no follow-up reached the service`,
      );
    }
  });

  it('repeats a follow-up that was made, even when it filled the case', async () => {
    const { token } = await signIn({ uniqueId: 'alex' });
    const created = await proxy.call('POST', '/consultation', {
      token,
      headers: { 'idempotency-key': 'repeat-fill-1' },
      body: { questions: ['One?', 'Two?'] },
    });
    const id = (created.body as { consultationId: string }).consultationId;
    const send = () =>
      proxy.call('POST', `/consultation/${id}`, {
        token,
        headers: { 'idempotency-key': 'repeat-fill-2' },
        body: { question: 'Three?' },
      });
    const first = await send();
    assert.equal(first.status, 200);
    const again = await send();
    assert.equal(again.status, 200, 'the recorded answer, not a refusal');
    assert.deepEqual(again.body, first.body);
  });

  it('keeps members whose long ids share their first 128 characters apart', async () => {
    const prefix = `partner-member-${'x'.repeat(130)}`;
    const first = await signIn({ uniqueId: `${prefix}-first` });
    const second = await signIn({ uniqueId: `${prefix}-second` });
    assert.notEqual(first.userId, second.userId);
    const users = [...proxy.sandbox.sandbox.state.users.values()].filter((u) =>
      u.uniqueId?.startsWith(prefix),
    );
    assert.deepEqual(users.map((u) => u.uniqueId).sort(), [`${prefix}-first`, `${prefix}-second`]);
    // Ids in any script work too.
    const arabic = await signIn({ uniqueId: 'عضو-٤٢' });
    assert.ok(arabic.userId);
  });

  it('creates the upstream user with the shouldNotify the portal gives', async () => {
    const quiet = await signIn({ uniqueId: 'quiet-member', shouldNotify: false });
    const loud = await signIn({ uniqueId: 'loud-member', shouldNotify: true });
    const state = proxy.sandbox.sandbox.state;
    assert.equal(state.users.get(quiet.userId)?.shouldNotify, false);
    assert.equal(state.users.get(loud.userId)?.shouldNotify, true);
  });
});
