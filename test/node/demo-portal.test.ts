/**
 * The demo portal's own sign-in and sign-out: only its own pages may switch or end the member, so
 * a form on another site cannot sign a visitor in as someone else.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startDemoStack, type DemoStack } from '../../demo/stack.js';

let stack: DemoStack;

const post = (path: string, headers: Record<string, string>, body = 'member=sam') =>
  fetch(`${stack.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });

describe('the demo portal’s sign-in forms', () => {
  before(async () => {
    stack = await startDemoStack({ port: 0, sandbox: { port: 0 }, logger: () => undefined });
  });
  after(async () => stack?.close());

  it('switch the member when the portal’s own page asks', async () => {
    const response = await post('/demo/sign-in', { origin: stack.url });
    assert.equal(response.status, 303);
    assert.match(response.headers.get('set-cookie') ?? '', /portal_member=sam/);
  });

  it('refuse a form posted from another site, or with no sign of where it came from', async () => {
    for (const headers of [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      {} as Record<string, string>,
    ]) {
      const response = await post('/demo/sign-in', headers);
      assert.equal(response.status, 403, JSON.stringify(headers));
      assert.equal(response.headers.get('set-cookie'), null);
    }
    const signOut = await post('/demo/sign-out', { origin: 'https://evil.example' }, '');
    assert.equal(signOut.status, 403);
  });

  it('accept a same-origin form sent with Origin: null (no-referrer), and refuse a cross-site one', async () => {
    const own = await post('/demo/sign-in', { origin: 'null', 'sec-fetch-site': 'same-origin' });
    assert.equal(own.status, 303);
    const foreign = await post('/demo/sign-in', { origin: 'null', 'sec-fetch-site': 'cross-site' });
    assert.equal(foreign.status, 403);
  });

  it('accept a same-origin fetch without Origin when the browser vouches for it', async () => {
    const response = await post('/demo/sign-out', { 'sec-fetch-site': 'same-origin' }, '');
    assert.equal(response.status, 204);
  });
});
