/**
 * How a sign-in waits out an outage (src/session/sign-in-request.ts `throughOutage`): the next try
 * after a wait, or as soon as the browser says it is online again, also when it said so while a
 * try was still failing. The browser's `online` is an EventTarget standing in for `window`, and
 * the waits are node:test's mocked timers, so nothing here depends on how fast the machine is.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { throughOutage } from '../../src/session/sign-in-request.js';

const outage = () => Object.assign(new Error('502 from the gateway'), { status: 502 });

describe('a sign-in waiting out an outage', () => {
  const window = new EventTarget();
  const global = globalThis as unknown as Partial<
    Pick<EventTarget, 'addEventListener' | 'removeEventListener'>
  >;
  let listeners = 0;

  beforeEach(() => {
    listeners = 0;
    global.addEventListener = (type, listener, options) => {
      if (type === 'online') listeners++;
      window.addEventListener(type, listener, options);
    };
    global.removeEventListener = (type, listener, options) => {
      if (type === 'online') listeners--;
      window.removeEventListener(type, listener, options);
    };
  });
  afterEach(() => {
    delete global.addEventListener;
    delete global.removeEventListener;
  });

  /** Tries until `answers` says so; each try is recorded, and `during` runs while a try is in flight. */
  function tries(answers: (attempt: number) => boolean, during?: (attempt: number) => void) {
    const attempts: number[] = [];
    const signedIn = throughOutage(
      async (failures) => {
        attempts.push(failures);
        during?.(failures);
        await Promise.resolve();
        if (answers(failures)) return 'signed in';
        throw outage();
      },
      {
        outage: (error) => (error as { status?: number }).status === 502,
        current: () => true,
        unreachable: () => {},
      },
    );
    return { attempts, signedIn };
  }

  const turns = async (n = 5) => {
    for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
  };

  it('waits before the next try, and tries at once when the browser says it is online', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { attempts, signedIn } = tries((attempt) => attempt === 1);
    await turns();
    assert.deepEqual(attempts, [0], 'the second try waits');
    window.dispatchEvent(new Event('online'));
    assert.equal(await signedIn, 'signed in');
    assert.deepEqual(attempts, [0, 1]);
    assert.equal(listeners, 0, 'nothing left listening');
  });

  it('tries at once when the browser said it is online while a try was still failing', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    // The network comes back while the first try is on its way: it fails, and the next goes at once.
    const { attempts, signedIn } = tries(
      (attempt) => attempt === 1,
      (attempt) => {
        if (attempt === 0) window.dispatchEvent(new Event('online'));
      },
    );
    await turns();
    assert.deepEqual(attempts, [0, 1], 'no wait that no later word would cut short');
    assert.equal(await signedIn, 'signed in');
    assert.equal(listeners, 0, 'nothing left listening');
  });

  it('after the wait, tries again by itself, and leaves no listener behind', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { attempts, signedIn } = tries((attempt) => attempt === 2);
    await turns();
    for (const expected of [
      [0, 1],
      [0, 1, 2],
    ]) {
      t.mock.timers.tick(60_000);
      await turns();
      assert.deepEqual(attempts, expected);
    }
    assert.equal(await signedIn, 'signed in');
    assert.equal(listeners, 0, 'nothing left listening');
  });
});
