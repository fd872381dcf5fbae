/**
 * What a forged webhook costs the proxy (S6): headers that fail the cheap checks cost no store
 * call and no HMAC; a plausible forgery costs one HMAC per secret in use and shares its store
 * reads with every other failing delivery, also while a rotation is pending, when the proxy waits
 * a moment for the new secret.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryStore } from '../../src/proxy/store.js';
import { ROTATION_PENDING_KEY } from '../../src/proxy/webhook-secret-format.js';
import { startTestProxy, type TestProxy } from './support/proxy.js';

/** A memory store that counts what is asked of it. */
class CountingStore extends MemoryStore {
  calls = 0;
  override async get(key: string): Promise<string | undefined> {
    this.calls++;
    return super.get(key);
  }
  override async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.calls++;
    return super.set(key, value, ttlMs);
  }
  override async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    this.calls++;
    return super.setIfAbsent(key, value, ttlMs);
  }
}

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const OTHER = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;

describe('a forged webhook', () => {
  let proxy: TestProxy;
  const store = new CountingStore();

  before(async () => {
    proxy = await startTestProxy({ store, webhookSecret: `${SECRET},${OTHER}` });
  });

  after(async () => {
    await proxy?.close();
  });

  const deliver = (headers: Record<string, string>, body = '{"type":"questionResolved","caseId":"cns_x"}') =>
    fetch(`${proxy.url}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });

  const plausible = () => ({
    'webhook-id': `msg_${crypto.randomUUID()}`,
    'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
    'webhook-signature': `v1,${Buffer.alloc(32, 1).toString('base64')} v1,${Buffer.alloc(32, 2).toString('base64')}`,
  });

  it('with headers that fail the cheap checks: 401, and nothing asked of the store', async () => {
    const before = store.calls;
    const forgeries: Record<string, string>[] = [
      {},
      { 'webhook-id': 'msg_1', 'webhook-timestamp': '1', 'webhook-signature': 'v1,AAAA' },
      { ...plausible(), 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 3600) },
      { ...plausible(), 'webhook-signature': 'v1,not-base64!' },
      { ...plausible(), 'webhook-signature': `v2,${Buffer.alloc(32, 1).toString('base64')}` },
    ];
    for (const headers of forgeries) assert.equal((await deliver(headers)).status, 401);
    assert.equal(store.calls - before, 0);
  });

  it('plausible ones at once: every one 401, their store reads shared, not one set per request', async () => {
    const before = store.calls;
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 50 }, () => deliver(plausible())));
    const windows = Math.ceil((performance.now() - started) / 250) + 1;
    assert.deepEqual(new Set(answers.map((answer) => answer.status)), new Set([401]));
    // One refresh of the store's view (announced secrets, a pending rotation) serves all that come
    // within 250 ms of it: a few store calls per 250 ms however slow the machine, never a set each.
    const calls = store.calls - before;
    assert.ok(
      calls <= Math.min(4 * windows, 20),
      `${calls} store calls for 50 forgeries in ${windows - 1} × 250 ms`,
    );
  });

  it('while a rotation is pending: held a moment for the new secret, the store read a few times a second', async () => {
    await store.set(ROTATION_PENDING_KEY, '1', 30_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = store.calls;
    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(plausible())));
    assert.deepEqual(new Set(answers.map((answer) => answer.status)), new Set([401]));
    const calls = store.calls - before;
    // About 3 s of waiting, the store read every 250 ms for all of them together: ~12 refreshes of
    // two reads each, never 20 requests' worth.
    assert.ok(calls <= 40, `${calls} store calls for 20 forgeries during a rotation`);
    await store.delete(ROTATION_PENDING_KEY);
  });
});
