/**
 * Sessions that end: `DELETE {base}/session` ends the caller's widget session, and
 * `proxy.endMemberSessions(uniqueId)` ends all of a member's, in every instance sharing the store;
 * ended tokens are refused and their open event streams close, while other sessions carry on.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryStore } from '../../src/proxy/store.js';
import { deferred } from './client-fixtures.js';
import { ALLOWED_ORIGIN, openEventStream, startTestProxy, type TestProxy } from './support/proxy.js';

let first: TestProxy;
let second: TestProxy;

const read = (proxy: TestProxy, token: string) =>
  proxy.call('GET', '/consultation/cns_demo_alex_rash', { token });

describe('sessions that end', () => {
  before(async () => {
    // Two instances behind one load balancer, sharing one store.
    const store = new MemoryStore();
    first = await startTestProxy({ store });
    second = await startTestProxy({ store, sandbox: first.sandbox });
  });
  after(async () => {
    await second?.close();
    await first?.close();
  });

  it('DELETE /session ends this session everywhere, and only this one', async () => {
    const ending = await first.session('alex');
    const other = await first.session('alex');
    assert.equal((await read(second, ending)).status, 200, 'works on both instances before');
    const stream = await openEventStream(`${second.url}/events`, ending);
    const otherStream = await openEventStream(`${second.url}/events`, other);

    const response = await first.call('DELETE', '/session', { token: ending });
    assert.equal(response.status, 204);
    for (const proxy of [first, second]) {
      const refused = await read(proxy, ending);
      assert.equal(refused.status, 401);
      assert.equal(refused.body.code, 'session_expired');
    }
    assert.equal((await read(second, other)).status, 200, 'the member’s other session carries on');

    const ended = await stream.next((item) => item.event === 'session-expired', 2000);
    assert.match(ended.data ?? '', /ended/);
    await waitFor(() => stream.ended(), 'the stream closes');
    assert.equal(otherStream.ended(), false, 'the other session’s stream stays open');
    stream.close();
    otherStream.close();
  });

  it('needs a valid token, and a browser on the portal’s own origin', async () => {
    assert.equal((await first.call('DELETE', '/session')).status, 401);
    const token = await first.session('sam');
    const foreign = await first.call('DELETE', '/session', {
      token,
      headers: { origin: 'https://evil.example' },
    });
    assert.equal(foreign.status, 403);
    assert.equal((await read(first, token)).status, 404, 'still signed in (sam cannot see alex’s case)');
    const allowed = await first.call('DELETE', '/session', { token, headers: { origin: ALLOWED_ORIGIN } });
    assert.equal(allowed.status, 204);
  });

  it('endMemberSessions ends every session of the member, and a new sign-in works', async () => {
    const a = await first.session('alex');
    const b = await second.session('alex');
    const sam = await first.session('sam');
    const stream = await openEventStream(`${first.url}/events`, b);

    assert.equal(await second.server.proxy.endMemberSessions('alex'), true);
    assert.equal((await read(first, a)).status, 401);
    assert.equal((await read(second, b)).status, 401);
    await stream.next((item) => item.event === 'session-expired', 2000);
    await waitFor(() => stream.ended(), 'the stream closes');
    stream.close();

    const samRead = await first.call('GET', '/user/usr_demo_sam', { token: sam });
    assert.equal(samRead.status, 200, 'another member is untouched');
    const fresh = await first.session('alex');
    assert.equal((await read(first, fresh)).status, 200, 'signing in again starts a new session');
    assert.equal(await first.server.proxy.endMemberSessions('nobody-we-know'), false);
  });

  it('a stream whose session ends while it is being set up says so and closes, and never says it is ready', async () => {
    // A store whose subscriptions are confirmed only when the test says (Redis confirms a round trip later).
    const held = holdUntilLetGo();
    class SlowToConfirm extends MemoryStore {
      async subscribed(): Promise<void> {
        await held.here();
      }
    }
    const { events, ended } = await streamEndedWhileHeld(new SlowToConfirm(), held);
    assert.match(ended.data ?? '', /ended/);
    assert.deepEqual(events, ['session-expired'], 'nothing after the session ended');
  });

  it('a stream whose session ends while it looks up what the member missed sends nothing of it after saying so', async () => {
    // A store whose count of the member's events answers only when the test says.
    const held = holdUntilLetGo();
    class SlowToCount extends MemoryStore {
      override async get(key: string): Promise<string | undefined> {
        if (key.includes('event-seq:')) await held.here();
        return super.get(key);
      }
    }
    // An id from no stream of this proxy: the stream would say `reset` once it has looked.
    const { events } = await streamEndedWhileHeld(new SlowToCount(), held, { 'last-event-id': 'gone.7' });
    assert.deepEqual(events, ['ready', 'session-expired'], 'no reset after the session ended');
  });

  /** A step of the store held until the test lets it go: `reached` once the stream is held there. */
  function holdUntilLetGo() {
    const reached = deferred();
    const letGo = deferred();
    return {
      reached: reached.promise,
      letGo: letGo.resolve,
      here: () => {
        reached.resolve();
        return letGo.promise;
      },
    };
  }

  /**
   * Opens alex's event stream on a proxy over `store`, ends the session while the stream is held
   * at `held`, then lets it go: the events the stream sent, by name, once it has closed.
   */
  async function streamEndedWhileHeld(
    store: MemoryStore,
    held: ReturnType<typeof holdUntilLetGo>,
    headers: Record<string, string> = {},
  ) {
    const proxy = await startTestProxy({ store, sandbox: first.sandbox });
    try {
      const token = await proxy.session('alex');
      const stream = await openEventStream(`${proxy.url}/events`, token, headers);
      await held.reached;
      assert.equal((await proxy.call('DELETE', '/session', { token })).status, 204);
      const ended = await stream.next((item) => item.event === 'session-expired', 2000);
      held.letGo();
      await waitFor(() => stream.ended(), 'the stream closes');
      stream.close();
      return {
        ended,
        events: stream.items.filter((item) => item.event !== undefined).map((item) => item.event),
      };
    } finally {
      held.letGo();
      await proxy.close();
    }
  }
});

async function waitFor(condition: () => boolean, what: string, timeoutMs = 2000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
