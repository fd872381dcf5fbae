/**
 * The member state, in Node with no browser: the real session (sign-in, client, live stream)
 * against the real proxy and sandbox on loopback. One read per change however many views ask, a
 * write's result taken once, nothing landing after sign-out (S21), polling when the proxy cannot
 * push (rising from 5 s to 60 s, back to 5 s after a change), and unread answers.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { ConsultationView } from '../../src/client/browser-types.js';
import { ApiError } from '../../src/client/errors.js';
import { STREAM_CHECK_GRACE_MS } from '../../src/session/connection.js';
import { MemberState } from '../../src/session/member-state.js';
import { SessionManager } from '../../src/session/session.js';
import { eventually, sleep, startTestProxy, type TestProxy } from './support/proxy.js';

const BP = 'cns_demo_alex_bp';

describe('the member state', () => {
  let proxy: TestProxy;
  const sessions: SessionManager[] = [];

  before(async () => {
    // No public URL: the proxy registers no webhook, so answers reach the page by polling.
    proxy = await startTestProxy();
  });
  after(async () => {
    for (const session of sessions) session.signOut();
    await proxy.close();
  });
  beforeEach(async () => {
    await proxy.sandbox.control('/reset');
  });

  function signedIn(member = 'alex', options: Partial<ConstructorParameters<typeof SessionManager>[0]> = {}) {
    const session = new SessionManager({ endpoint: proxy.url, signInBody: { demoUser: member }, ...options });
    sessions.push(session);
    return session;
  }

  const reads = (id: string, since: number) =>
    proxy.upstreamCalls(since).filter((r) => r.method === 'GET' && r.path === `/consultation/${id}`).length;

  it('reads a consultation once however many views ask for it at once', async () => {
    const session = signedIn();
    await session.ready();
    const since = proxy.mark();
    const records = await Promise.all(Array.from({ length: 5 }, () => session.state.load(BP)));
    assert.equal(reads(BP, since), 1);
    assert.ok(records.every((record) => record === records[0]));
    // Loaded: asking again reads nothing.
    await session.state.load(BP);
    assert.equal(reads(BP, since), 1);
  });

  it('reads once more when a change is hinted during a read, and not again for each hint', async () => {
    const session = signedIn();
    await session.ready();
    await session.state.load(BP);
    await proxy.sandbox.control('/faults', { latencyMs: 150 });
    const since = proxy.mark();
    for (let i = 0; i < 4; i++) session.state.hint(BP);
    await eventually('the second read', () => reads(BP, since) === 2 || undefined, 5000);
    await sleep(400);
    assert.equal(reads(BP, since), 2, 'the read in flight, then one more for the hints during it');
    await proxy.sandbox.control('/faults', { latencyMs: 0 });
  });

  it('tells the page nothing while a shown consultation is read again, and once when the read changed it', async () => {
    const session = signedIn();
    await session.ready();
    await session.state.load(BP);
    await sleep(50);
    let changes = 0;
    session.state.addEventListener('change', () => changes++);
    // Read again, unchanged: every element would render again for nothing, while an answer is on its way.
    let since = proxy.mark();
    session.state.hint(BP);
    await eventually('the read again', () => reads(BP, since) === 1 || undefined, 5000);
    await sleep(100);
    assert.equal(changes, 0, 'an unchanged record read again is no change');
    // Changed upstream: one change, and the state holds the new record.
    await proxy.sandbox.control(`/consultations/${BP}/close`);
    since = proxy.mark();
    session.state.hint(BP);
    await eventually(
      'the changed record',
      () => session.state.consultation(BP)?.status === 'closed' || undefined,
      5000,
    );
    await sleep(50);
    assert.equal(reads(BP, since), 1);
    assert.equal(changes, 1);
  });

  it('checks again, after the check in flight, when a fresh check is asked for meanwhile', async () => {
    const session = signedIn();
    await session.ready();
    await proxy.sandbox.control('/faults', { latencyMs: 150 });
    const since = proxy.mark();
    const first = session.state.checkPlan();
    const again = session.state.checkPlan({ fresh: true });
    await Promise.all([first, again]);
    await proxy.sandbox.control('/faults', { latencyMs: 0 });
    const checks = proxy.upstreamCalls(since).filter((r) => r.path.endsWith('/subscriptions')).length;
    assert.equal(checks, 2, 'the one in flight may predate a change: one more follows it');
  });

  it("takes a write's result once, and every view of the list sees it", async () => {
    const session = signedIn();
    await session.ready();
    await session.state.loadHistory();
    const before = session.state.consultations.length;
    let changes = 0;
    session.state.addEventListener('change', () => changes++);
    const created = await session.state.createConsultation(
      ['Can I take ibuprofen with a cold?'],
      'key-create-1',
    );
    await sleep(0);
    assert.equal(changes, 1, 'one change for the write');
    assert.equal(session.state.consultations.length, before + 1);
    assert.equal(session.state.consultations[0]?.consultationId, created.consultationId, 'newest first');
    const followed = await session.state.addFollowUp(
      created.consultationId,
      'And paracetamol?',
      'key-follow-1',
    );
    assert.equal(followed.questions.length, 2);
    assert.equal(session.state.consultation(created.consultationId)?.questions.length, 2);
  });

  it('keeps the newer record when a slow read answers after a write', async () => {
    const session = signedIn();
    await session.ready();
    const before = await session.state.load(BP);
    const older: ConsultationView = { ...before, questions: before.questions.slice(0, 1) };
    session.state.apply(older);
    assert.equal(session.state.consultation(BP)?.questions.length, before.questions.length);
  });

  it("never takes another member's record", async () => {
    const session = signedIn();
    await session.ready();
    const record = await session.state.load(BP);
    session.state.apply({ ...record, consultationId: 'cns_other', userId: 'usr_someone_else' });
    assert.equal(session.state.consultation('cns_other'), undefined);
  });

  describe('when the member signs out with work in flight (S21)', () => {
    for (const [kind, start] of [
      ['a follow-up', (s: SessionManager) => s.state.addFollowUp(BP, 'Is 142/91 high for me?', 'key-held-1')],
      ['a consultation read', (s: SessionManager) => s.state.load(BP, { fresh: true })],
      ['the list', (s: SessionManager) => s.state.loadHistory({ fresh: true })],
      ['the plan check', (s: SessionManager) => s.state.checkPlan({ fresh: true })],
      [
        'a new consultation',
        (s: SessionManager) => s.state.createConsultation(['Held question about 142/91'], 'key-held-2'),
      ],
    ] as const) {
      it(`aborts ${kind}, and nothing of it lands`, async () => {
        const session = signedIn();
        await session.ready();
        await session.state.load(BP);
        await proxy.sandbox.control('/faults', { latencyMs: 300 });
        const signal = session.state.signal;
        const pending = (start as (s: SessionManager) => Promise<unknown>)(session);
        await sleep(50);
        session.signOut();
        assert.equal(signal.aborted, true, "the member's scope aborted");
        await assert.rejects(pending, (error: Error) => error.name === 'AbortError');
        await sleep(400);
        assert.equal(session.state.member, undefined);
        assert.equal(session.state.consultation(BP), undefined);
        assert.deepEqual(session.state.consultations, []);
        assert.equal(session.state.plan.status, 'idle');
        await proxy.sandbox.control('/faults', { latencyMs: 0 });
      });
    }

    it('starts empty for the next member, with a new scope', async () => {
      const session = signedIn();
      await session.ready();
      await session.state.load(BP);
      const first = session.state.signal;
      session.signOut();
      session.configure({ signInBody: { demoUser: 'sam' } });
      const sam = await session.ready();
      assert.equal(session.state.member?.id, sam.id);
      assert.notEqual(session.state.signal, first);
      assert.equal(session.state.signal.aborted, false);
      assert.equal(session.state.consultation(BP), undefined);
    });
  });

  describe('when the proxy has no webhook', () => {
    it('learns it from the stream and polls open consultations until the answer shows', async () => {
      const session = signedIn('alex', { poll: { firstMs: 100, maxMs: 400 } });
      await session.ready();
      const unwatch = session.watch();
      await eventually('the live stream', () => session.state.link.live || undefined, 5000);
      assert.equal(session.state.link.delivery, 'poll', 'the ready event said webhooks: false');
      const created = await session.state.createConsultation(
        ['Is a cough after a cold normal?'],
        'key-poll-1',
      );
      await proxy.sandbox.control(`/consultations/${created.consultationId}/answer`, {
        answer: 'A cough can last three weeks.',
      });
      const answered = await eventually(
        'the answer',
        () => session.state.consultation(created.consultationId)?.questions[0]?.answer,
        5000,
      );
      assert.equal(answered, 'A cough can last three weeks.');
      // Answered: nothing is left to poll for.
      const since = proxy.mark();
      await sleep(500);
      assert.equal(reads(created.consultationId, since), 0);
      unwatch();
    });

    it('waits 5 s, rising to 60 s while nothing changes, and 5 s again after a change', async () => {
      const waits: number[] = [];
      const runs: (() => void)[] = [];
      const session = signedIn('alex', {
        pollTimer: {
          set: (run, ms) => {
            waits.push(ms);
            runs.push(run);
            return runs.length;
          },
          clear: () => undefined,
        },
      });
      await session.ready();
      session.state.link.setDelivery('poll');
      const unwatch = session.watch();
      const created = await session.state.createConsultation(['Why do my knees ache?'], 'key-pace-1');
      // Each poll reads, finds nothing new, and waits longer.
      for (let i = 0; i < 8; i++) {
        const run = runs.at(-1)!;
        const count = runs.length;
        run();
        await eventually('the next wait', () => runs.length > count || undefined, 5000);
      }
      assert.equal(waits[0], 5_000);
      assert.ok(
        waits.every((ms, i) => i === 0 || ms >= waits[i - 1]!),
        `waits only rise: ${waits.join(', ')}`,
      );
      assert.equal(waits.at(-1), 60_000, 'up to a minute');
      await proxy.sandbox.control(`/consultations/${created.consultationId}/claim`);
      const count = runs.length;
      runs.at(-1)!();
      await eventually('the next wait', () => runs.length > count || undefined, 5000);
      assert.equal(waits.at(-1), 5_000, 'a change brings the pace back');
      unwatch();
    });

    it('does not poll while nobody shows consultations, or while the page is hidden', async () => {
      let visible = true;
      const asked: number[] = [];
      const state = new MemberState({
        client: () => {
          throw new Error('no call expected');
        },
        visible: () => visible,
        timer: { set: (_run, ms) => asked.push(ms), clear: () => undefined },
      });
      state.setMember({ id: 'usr_1', language: 'en' });
      state.link.setDelivery('poll');
      state.apply({
        consultationId: 'cns_1',
        userId: 'usr_1',
        status: 'open',
        createdAt: new Date().toISOString(),
        questions: [{ question: 'Waiting' }],
      });
      assert.equal(asked.length, 0, 'no view watches');
      visible = false;
      const unwatch = state.link.watch();
      assert.equal(asked.length, 0, 'hidden page');
      visible = true;
      state.link.visibilityChanged();
      assert.equal(asked.length, 1);
      unwatch();
      state.dispose();
    });
  });

  describe('when answers are pushed', () => {
    it('still reads a waiting consultation every 2 minutes, so an answer whose push was lost shows', async (t) => {
      t.mock.timers.enable({ apis: ['Date'], now: Date.parse('2026-11-26T08:00:00Z') });
      const waits: number[] = [];
      const runs: (() => Promise<void> | void)[] = [];
      const reads: string[] = [];
      const waiting = {
        consultationId: 'cns_1',
        userId: 'usr_1',
        status: 'open' as const,
        createdAt: new Date().toISOString(),
        questions: [{ question: 'Waiting for a push that never comes' }],
      };
      let visible = true;
      const state = new MemberState({
        client: () =>
          ({
            getConsultation: async (id: string) => {
              reads.push(id);
              return {
                ...waiting,
                status: 'resolved',
                questions: [{ question: waiting.questions[0]!.question, answer: 'Answered meanwhile.' }],
              };
            },
          }) as never,
        visible: () => visible,
        timer: {
          set: (run, ms) => {
            waits.push(ms);
            runs.push(run);
            return runs.length;
          },
          clear: () => undefined,
        },
      });
      state.setMember({ id: 'usr_1', language: 'en' });
      state.link.setLive(true);
      state.link.setDelivery('push');
      state.apply(waiting);
      const unwatch = state.link.watch();
      assert.equal(state.link.delivery, 'push');
      assert.deepEqual(waits, [120_000], 'one slow check, not the polling pace');
      // Hidden for a while and shown again: the check still comes 2 minutes after the last one.
      visible = false;
      state.link.visibilityChanged();
      t.mock.timers.tick(90_000);
      visible = true;
      state.link.visibilityChanged();
      assert.deepEqual(waits, [120_000, 30_000], 'counted from the last check, not from being shown');
      await runs.at(-1)!();
      assert.deepEqual(reads, ['cns_1']);
      assert.equal(state.consultation('cns_1')?.questions[0]?.answer, 'Answered meanwhile.');
      assert.equal(waits.length, 2, 'answered: nothing is left to check');
      unwatch();
      state.dispose();
    });
  });

  describe('when the service cannot be reached', () => {
    /** The network between the page and the proxy: while `down`, every call answers 503, as a balancer with no instance does. */
    function behindASwitch() {
      const link = { down: false };
      const fetchThrough: typeof fetch = (input, init) =>
        link.down
          ? Promise.resolve(new Response('', { status: 503, headers: { 'retry-after': '0' } }))
          : fetch(input, init);
      return { link, fetch: fetchThrough };
    }
    const creates = (since: number) =>
      proxy.upstreamCalls(since).filter((r) => r.method === 'POST' && r.path === '/consultation').length;

    it('keeps what is shown, says reconnecting, and sends a waiting question once when it is back', async () => {
      const { link, fetch: through } = behindASwitch();
      const session = signedIn('alex', { fetch: through });
      await session.ready();
      await session.state.loadHistory();
      const shown = session.state.consultations.length;
      link.down = true;
      await assert.rejects(session.state.load(BP, { fresh: true }));
      assert.equal(session.state.connection, 'reconnecting');
      assert.equal(session.state.consultations.length, shown, 'nothing shown is taken away');
      assert.equal(session.state.historyStatus.status, 'ready');

      const since = proxy.mark();
      let settled = false;
      const sending = session.state
        .createConsultation(['Sent while offline: is 142/91 high?'], 'key-offline-1')
        .finally(() => (settled = true));
      await sleep(300);
      assert.equal(settled, false, 'it waits for the connection');
      link.down = false;
      session.state.link.reconnect();
      const created = await sending;
      assert.equal(session.state.connection, 'online');
      assert.equal(creates(since), 1, 'it went out once, with its key');
      assert.equal(
        session.state.consultation(created.consultationId)?.questions[0]?.question,
        'Sent while offline: is 142/91 high?',
      );
    });

    it('lets the member cancel a question waiting to be sent, and sends nothing', async () => {
      const { link, fetch: through } = behindASwitch();
      const session = signedIn('alex', { fetch: through });
      await session.ready();
      link.down = true;
      const since = proxy.mark();
      const cancel = new AbortController();
      const sending = session.state.createConsultation(
        ['Cancelled while offline'],
        'key-offline-2',
        cancel.signal,
      );
      await eventually('reconnecting', () => session.state.connection === 'reconnecting' || undefined, 5000);
      cancel.abort();
      await assert.rejects(sending, (error: Error) => error.name === 'AbortError');
      link.down = false;
      session.state.link.reconnect();
      await eventually('online', () => session.state.connection === 'online' || undefined, 5000);
      await sleep(200);
      assert.equal(creates(since), 0);
    });

    it('stops checking the connection when nothing shows the member’s data and nothing waits to be sent', async () => {
      const asked: (() => void)[] = [];
      const unreachable = () =>
        Promise.reject(
          new ApiError({
            kind: 'network',
            status: 0,
            code: 'network_error',
            title: 'Network error',
            operation: 'getCaseHistory',
          }),
        );
      const state = new MemberState({
        client: () => ({
          getConsultation: unreachable,
          getCaseHistory: unreachable,
          createConsultation: unreachable,
          addConsultationFollowUp: unreachable,
          getUserSubscriptions: unreachable,
          getSubscriptionHistory: unreachable,
          createPrescriptionRequest: unreachable,
          startNavigatorConversation: unreachable,
          sendNavigatorMessage: unreachable,
        }),
        timer: { set: (run) => asked.push(run), clear: () => undefined },
      });
      state.setMember({ id: 'usr_1', language: 'en' });
      const unwatch = state.link.watch();
      await assert.rejects(state.loadHistory());
      assert.equal(state.connection, 'reconnecting');
      assert.equal(asked.length, 1, 'a check is scheduled');
      asked[0]!();
      await eventually('the next check', () => asked.length === 2 || undefined, 2000);
      unwatch();
      asked[1]!();
      await sleep(50);
      assert.equal(asked.length, 2, 'no view and no waiting send: no further check');
      state.dispose();
    });

    it('reads what could not be read once the connection is back, with no error in between', async () => {
      const { link, fetch: through } = behindASwitch();
      const session = signedIn('alex', { fetch: through });
      await session.ready();
      link.down = true;
      await assert.rejects(session.state.loadHistory());
      assert.equal(session.state.historyStatus.status, 'loading', 'still loading, not failed');
      assert.equal(session.state.plan.status, 'idle');
      link.down = false;
      session.state.link.reconnect();
      await eventually('the list', () => session.state.historyStatus.status === 'ready' || undefined, 5000);
      assert.ok(session.state.consultations.length > 0);
    });

    it('tells a live stream refused on its own path from a lost connection: a read decides, and the member sees no "Reconnecting…"', async () => {
      // A gateway in front of the proxy refuses the stream's path only; every other request is answered.
      let streamTries = 0;
      const gatewayRefusingTheStream: typeof fetch = (input, init) => {
        if (!String(input).endsWith('/events')) return fetch(input, init);
        streamTries++;
        return Promise.resolve(new Response('', { status: 502 }));
      };
      const session = signedIn('sam', { fetch: gatewayRefusingTheStream });
      await session.ready();
      const seen = new Set<string>();
      session.state.addEventListener('change', () => seen.add(session.state.connection));
      const since = proxy.mark();
      const unwatch = session.watch();
      // Sam has nothing waiting, so nothing else is asked: before, each failed try of the stream
      // showed "Reconnecting…" a second later, until a check found the service answering.
      await eventually('three refused tries of the stream', () => streamTries >= 3 || undefined, 15_000);
      const checks = proxy.upstreamCalls(since).filter((r) => r.path.endsWith('/subscriptions')).length;
      assert.ok(checks >= 1, `a read checked after the stream's failures (${checks})`);
      assert.ok(checks <= streamTries, `at most one check for each failure of the stream (${checks})`);
      assert.equal(session.state.connection, 'online');
      assert.ok(!seen.has('reconnecting'), 'never said reconnecting');
      unwatch();
    });

    it('says reconnecting when the live stream fails and the check it asks for is not answered in time', async (t) => {
      // The proxy takes the stream's request and then nothing answers, neither it nor the check.
      let hanging = false;
      const stalled: typeof fetch = (input, init) =>
        hanging ? new Promise<Response>(() => undefined) : fetch(input, init);
      const session = signedIn('sam', { fetch: stalled });
      await session.ready();
      t.mock.timers.enable({ apis: ['setTimeout'] });
      hanging = true;
      session.state.link.requestFailed('stream');
      t.mock.timers.tick(STREAM_CHECK_GRACE_MS - 1);
      assert.equal(session.state.connection, 'online', 'a slow answer still has time');
      t.mock.timers.tick(1);
      assert.equal(session.state.connection, 'reconnecting');
      t.mock.timers.reset();
    });

    it('says reconnecting at once when the live stream fails and the check finds nothing to answer either', async () => {
      const { link, fetch: through } = behindASwitch();
      const session = signedIn('sam', { fetch: through });
      await session.ready();
      link.down = true;
      // The stream is the only request: its failure, then the check's, is how the member learns.
      const unwatch = session.watch();
      await eventually('reconnecting', () => session.state.connection === 'reconnecting' || undefined, 5000);
      link.down = false;
      unwatch();
    });
  });

  describe('the navigator conversation', () => {
    it('is started by the first message, once, and holds the replies', async () => {
      const session = signedIn();
      await session.ready();
      const since = proxy.mark();
      const conversation = session.state.conversation;
      const arrived = await conversation.send('How much exercise should I get?');
      assert.ok(conversation.id, 'started');
      const own = arrived.findIndex((m) => m.role === 'member');
      assert.ok(own >= 0, 'the member’s message');
      assert.ok(
        arrived.slice(0, own).every((m) => m.role === 'navigator' && m.prompt === undefined),
        'the greeting first',
      );
      const replies = arrived.slice(own + 1);
      assert.ok(replies.length > 0, 'a reply');
      assert.ok(
        replies.every((m) => m.role === 'navigator' && m.prompt === 'How much exercise should I get?'),
      );
      assert.ok(
        conversation.messages.some(
          (m) => m.role === 'navigator' && m.prompt === 'How much exercise should I get?',
        ),
      );
      await conversation.send('And how often?');
      const starts = proxy
        .upstreamCalls(since)
        .filter((r) => r.method === 'POST' && /conversations$/.test(r.path));
      assert.equal(starts.length, 1, 'one conversation for both messages');
      assert.equal(session.state.conversation, conversation, 'the same for every view of the page');
    });

    it('keeps a message that could not be sent, and its retry uses the same key', async () => {
      // The proxy's own 500: a failure that waiting does not mend (an outage waits instead, below).
      let failing = false;
      const session = signedIn('alex', {
        fetch: (input, init) =>
          failing && init?.method === 'POST' && String(input).endsWith('/messages')
            ? Promise.resolve(
                new Response(
                  JSON.stringify({ title: 'Internal error', status: 500, code: 'internal_error' }),
                  {
                    status: 500,
                    headers: { 'content-type': 'application/problem+json' },
                  },
                ),
              )
            : fetch(input, init),
      });
      await session.ready();
      const conversation = session.state.conversation;
      await conversation.send('Hello');
      failing = true;
      await assert.rejects(conversation.send('Is a cold contagious?'));
      const failed = conversation.messages.find((m) => m.text === 'Is a cold contagious?')!;
      assert.equal(failed.status, 'failed');
      failing = false;
      const since = proxy.mark();
      await conversation.retry(failed.key);
      const sent = conversation.messages.find((m) => m.text === 'Is a cold contagious?')!;
      assert.equal(sent.status, 'sent');
      assert.equal(sent.idempotencyKey, failed.idempotencyKey);
      assert.equal(proxy.upstreamCalls(since).filter((r) => r.path.endsWith('/messages')).length, 1);
    });

    it('waits to send a message while the service cannot be reached, and sends it once, with its key, when it is back', async () => {
      const session = signedIn();
      await session.ready();
      const conversation = session.state.conversation;
      await conversation.send('Hello');
      await proxy.sandbox.control('/faults', { errorRate: 1 });
      const since = proxy.mark();
      const sending = conversation.send('Is a cold contagious?');
      await eventually('reconnecting', () => session.state.connection === 'reconnecting' || undefined, 8000);
      const waiting = conversation.messages.find((m) => m.text === 'Is a cold contagious?')!;
      assert.equal(waiting.status, 'sending', 'it waits, not "not sent"');
      await proxy.sandbox.control('/faults', { errorRate: 0 });
      session.state.link.reconnect();
      await sending;
      const sent = conversation.messages.find((m) => m.text === 'Is a cold contagious?')!;
      assert.equal(sent.status, 'sent');
      const attempts = proxy.upstreamCalls(since).filter((r) => r.path.endsWith('/messages'));
      assert.equal(new Set(attempts.map((r) => r.idempotencyKey)).size, 1, 'one key for every attempt');
      assert.equal(attempts.filter((r) => r.status === 200).length, 1, 'sent once');
    });

    it('is gone when the member signs out, and a reply on its way lands nowhere', async () => {
      const session = signedIn();
      await session.ready();
      const conversation = session.state.conversation;
      await proxy.sandbox.control('/faults', { latencyMs: 300 });
      const pending = conversation.send('Held while I sign out');
      await sleep(50);
      session.signOut();
      await assert.rejects(pending, (error: Error) => error.name === 'AbortError');
      await proxy.sandbox.control('/faults', { latencyMs: 0 });
      assert.throws(() => session.state.conversation, /No member/);
    });
  });

  describe('unread answers', () => {
    it('marks answers that arrive after the list was read, until their thread is on screen', async () => {
      const session = signedIn();
      await session.ready();
      await session.state.loadHistory();
      // (Earlier tests here asked through this proxy, which remembers those cases' read state.)
      const unknownToProxy = () =>
        session.state.unread.filter((id) => session.state.consultation(id)?.seenAnswers === undefined);
      assert.deepEqual(unknownToProxy(), [], 'what was there before counts as seen');
      for (const id of session.state.unread) session.state.markSeen(id);
      const created = await session.state.createConsultation(['Is it normal to feel dizzy?'], 'key-unread-1');
      assert.deepEqual(session.state.unread, []);
      await proxy.sandbox.control(`/consultations/${created.consultationId}/answer`, {
        answer: 'Usually, when you stand up quickly.',
      });
      await session.state.load(created.consultationId, { fresh: true });
      assert.deepEqual(session.state.unread, [created.consultationId]);
      assert.equal(session.state.isUnread(created.consultationId), true);
      session.state.markSeen(created.consultationId);
      assert.deepEqual(session.state.unread, []);
    });
  });

  /** A consultation Alex asked, then signed out; answered while he was away. Its id. */
  async function answeredWhileAway(question: string, key: string, answer: string): Promise<string> {
    const first = signedIn();
    await first.ready();
    const { consultationId } = await first.state.createConsultation([question], key);
    first.signOut();
    await proxy.sandbox.control(`/consultations/${consultationId}/answer`, { answer });
    return consultationId;
  }

  describe('unread answers that follow the member', () => {
    it('an answer that came while the member was away is new on the next visit; a read anywhere clears it live', async () => {
      const id = await answeredWhileAway(
        'Why do my ears ring?',
        'key-unread-away-1',
        'Often after loud music.',
      );

      // The next visit, and another tab beside it: each reads the list for the first time.
      const visit = signedIn();
      const tab = signedIn();
      await Promise.all([visit.ready(), tab.ready()]);
      await Promise.all([visit.state.loadHistory(), tab.state.loadHistory()]);
      assert.ok(visit.state.unread.includes(id), 'new on the next visit');
      assert.ok(tab.state.unread.includes(id), 'new in every tab');
      // The other tab shows consultations: its stream is open.
      const unwatch = tab.watch();
      await eventually('the other tab’s stream is open', () => tab.state.link.live || undefined, 5000);

      const since = proxy.mark();
      visit.state.markSeen(id);
      assert.ok(!visit.state.unread.includes(id));
      await eventually(
        'the other tab hears of the read and clears its mark',
        () => !tab.state.unread.includes(id),
      );
      visit.state.markSeen(id);
      assert.equal(
        proxy.upstreamCalls(since).filter((r) => r.method === 'GET' && r.path === `/consultation/${id}`)
          .length,
        2,
        'the proxy’s ownership read for the mark and the listening tab’s re-read; a second look tells nothing',
      );

      unwatch();
      // A third visit knows it was read.
      const later = signedIn();
      await later.ready();
      await later.state.loadHistory();
      assert.ok(!later.state.unread.includes(id));
    });
  });

  describe('a read mark heard back', () => {
    it('the tab that marked an answer seen does not read the consultation again for its own mark; the others do, once', async () => {
      const id = await answeredWhileAway('Is my rash contagious?', 'key-seen-echo-1', 'Not this kind.');
      const reader = signedIn();
      const other = signedIn();
      await Promise.all([reader.ready(), other.ready()]);
      await Promise.all([reader.state.loadHistory(), other.state.loadHistory()]);
      assert.ok(reader.state.unread.includes(id) && other.state.unread.includes(id));
      // Both tabs show consultations: both streams are open, and both hear the mark.
      const unwatch = await watching(reader, other);
      const since = proxy.mark();
      reader.state.markSeen(id);
      await eventually('the other tab to clear its mark', () => !other.state.unread.includes(id));
      await sleep(300);
      const reads = proxy
        .upstreamCalls(since)
        .filter((r) => r.method === 'GET' && r.path === `/consultation/${id}`).length;
      assert.equal(
        reads,
        2,
        'the proxy’s ownership read for the mark and the other tab’s read, none by the tab that marked it',
      );
      assert.ok(!reader.state.unread.includes(id));
      // A change that is not a mark is still read, in the tab that marked it too.
      await proxy.sandbox.control(`/consultations/${id}/close`);
      reader.state.hint(id, { type: 'consultationClosed', status: 'closed' });
      await eventually(
        'the closed record',
        () => reader.state.consultation(id)?.status === 'closed' || undefined,
      );
      unwatch();
    });

    it('sends a read mark so that it goes out even if the member leaves the page as the answer shows', async () => {
      const sent: RequestInit[] = [];
      const recording: typeof fetch = (input, init) => {
        const url = input instanceof Request ? input.url : String(input);
        if (init?.method === 'PUT' && url.endsWith('/seen')) sent.push(init);
        return fetch(input, init);
      };
      const tab = signedIn('alex', { fetch: recording });
      await tab.ready();
      const created = await tab.state.createConsultation(['Does sunscreen expire?'], 'key-seen-keepalive-1');
      const id = created.consultationId;
      await proxy.sandbox.control(`/consultations/${id}/answer`, { answer: 'Yes, after about three years.' });
      await tab.state.load(id, { fresh: true });
      tab.state.markSeen(id);
      await eventually('the mark to be sent', () => sent.length > 0 || undefined);
      assert.equal(sent.length, 1);
      assert.equal(sent[0]?.keepalive, true, 'a page being left still sends it');
      assert.equal(sent[0]?.body, JSON.stringify({ answers: 1 }));
      // And it arrived: another visit finds the answer read.
      const visit = signedIn();
      await visit.ready();
      await eventually(
        'the proxy to count it',
        async () => (await visit.state.load(id, { fresh: true })).seenAnswers === 1 || undefined,
      );
    });

    /** The sessions show consultations, their streams open; answers the way to stop watching. */
    async function watching(...watchers: SessionManager[]) {
      const unwatch = watchers.map((session) => session.watch());
      await eventually(
        'the streams to be open',
        () => watchers.every((session) => session.state.link.live) || undefined,
      );
      return () => unwatch.forEach((stop) => stop());
    }

    /** On `device`: a follow-up to `id`, which the professional answers. */
    async function followUpAnswered(device: SessionManager, id: string, key: string) {
      await device.state.addFollowUp(id, 'And the itch?', key);
      await proxy.sandbox.control(`/consultations/${id}/answer`, { answer: 'A cream helps.' });
    }

    /** A consultation of Alex's, answered once, and that answer marked seen by `first`, which is then left. */
    async function answeredAndSeen(key: string) {
      const first = signedIn();
      await first.ready();
      const created = await first.state.createConsultation(['Is my rash contagious?'], key);
      const id = created.consultationId;
      await proxy.sandbox.control(`/consultations/${id}/answer`, { answer: 'Not this kind.' });
      await first.state.load(id, { fresh: true });
      first.state.markSeen(id);
      await eventually('the mark to reach the proxy', async () => {
        const other = signedIn();
        await other.ready();
        return (await other.state.load(id)).seenAnswers === 1 || undefined;
      });
      return { first, id };
    }

    it('a tab that holds an older record reads a mark made elsewhere of answers it does not have', async () => {
      const { first: device, id } = await answeredAndSeen('key-seen-elsewhere-1');
      const tab = signedIn();
      await tab.ready();
      await tab.state.load(id);
      tab.state.markSeen(id);
      const unwatch = await watching(tab, device);
      // On the other device: a follow-up, answered (this proxy has no webhook: the tab hears neither), read.
      await followUpAnswered(device, id, 'key-seen-elsewhere-2');
      await device.state.load(id, { fresh: true });
      device.state.markSeen(id);
      // The mark, for two answers in the same status as the tab's record of one, brings the follow-up.
      await eventually(
        'the tab to read the follow-up',
        () => tab.state.consultation(id)?.questions.length === 2 || undefined,
      );
      assert.equal(tab.state.isUnread(id), false, 'seen on the other device');
      unwatch();
    });

    it('a mark heard while a read of the consultation is on its way is read after it: no answer seen elsewhere shows as new', async () => {
      const { first: device, id } = await answeredAndSeen('key-seen-race-1');
      // The tab's reads of the consultation can be held back, as a slow network does.
      let holdReads = false;
      const slowFetch: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        const url = input instanceof Request ? input.url : String(input);
        if (!holdReads || (init?.method ?? 'GET') !== 'GET' || !url.endsWith(`/consultation/${id}`))
          return response;
        const body = await response.arrayBuffer();
        await sleep(800);
        return new Response(body, { status: response.status, headers: response.headers });
      };
      const tab = signedIn('alex', { fetch: slowFetch });
      await tab.ready();
      await tab.state.loadHistory();
      await tab.state.load(id);
      tab.state.markSeen(id);
      const unwatch = await watching(tab, device);
      await followUpAnswered(device, id, 'key-seen-race-2');
      // The tab reads it (as the answer's event would have it), slowly; meanwhile the device reads and marks it.
      holdReads = true;
      tab.state.hint(id, { type: 'questionResolved', status: 'resolved' });
      await sleep(100);
      await device.state.load(id, { fresh: true });
      device.state.markSeen(id);
      await eventually(
        'the tab to hold both answers, seen',
        () => {
          const record = tab.state.consultation(id);
          return (record?.questions.length === 2 && record.seenAnswers === 2) || undefined;
        },
        5000,
      );
      holdReads = false;
      assert.equal(tab.state.isUnread(id), false, 'read on the other device, so not new here');
      unwatch();
    });
  });

  describe('when messages arrived', () => {
    const isoNear = (iso: string | undefined, from: number) => {
      const at = Date.parse(iso ?? '');
      return !Number.isNaN(at) && at >= from - 5 && at <= Date.now() + 5;
    };

    it('knows the times of what arrived on this page, and gives none to what was already there', async () => {
      const session = signedIn();
      await session.ready();
      await session.state.loadHistory();
      // Read for the first time: its first question dates from the case, its answers from nobody knows when.
      const seeded = session.state.consultations.find((c) =>
        c.questions.some((q) => q.answer !== undefined),
      )!;
      const earlier = session.state.messageTimes(seeded.consultationId)!;
      assert.equal(earlier.questions[0], seeded.createdAt);
      assert.deepEqual(
        earlier.answers.filter((at) => at !== undefined),
        [],
        'no made-up time for an answer that was already there',
      );

      const start = Date.now();
      const created = await session.state.createConsultation(['Can I run with shin splints?'], 'key-times-1');
      await proxy.sandbox.control(`/consultations/${created.consultationId}/answer`, {
        answer: 'Rest them for **two weeks**.',
      });
      await session.state.load(created.consultationId, { fresh: true });
      const followedUp = Date.now();
      await session.state.addFollowUp(created.consultationId, 'And then?', 'key-times-2');
      const times = session.state.messageTimes(created.consultationId)!;
      assert.equal(times.questions[0], created.createdAt);
      assert.ok(isoNear(times.answers[0], start), `the answer arrived now: ${times.answers[0]}`);
      assert.ok(
        isoNear(times.questions[1], followedUp),
        `the follow-up was asked now: ${times.questions[1]}`,
      );
      assert.equal(times.answers[1], undefined, 'not answered yet');
      // Ids and times only: nothing the member or the doctor wrote.
      assert.doesNotMatch(JSON.stringify(times), /shin|weeks|then/i);
    });
  });
});
