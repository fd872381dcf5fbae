/**
 * The demo portal's own sign-in and sign-out: only its own pages may switch or end the member, so
 * a form on another site cannot sign a visitor in as someone else.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listening, startDemoStack, type DemoStack } from '../../demo/stack.js';

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

describe('the demo portal serves what partners serve', () => {
  let demo: DemoStack;
  before(async () => {
    demo = await startDemoStack({ port: 0, sandbox: { port: 0 }, logger: () => undefined });
  });
  after(async () => demo?.close());

  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${demo.url}${path}`, { headers: { 'accept-encoding': 'br, gzip', ...headers } });

  it('the built browser files: compressed, hashed chunks cached for a year, the loader revalidated', async () => {
    const page = await (await get('/', { 'accept-encoding': 'identity' })).text();
    assert.match(page, /<meta\s+name="description"\s+content="[^"]{50,}"/, 'the page describes itself');
    assert.match(page, /<script type="module" src="\/assets\/consult-elements.js">/);

    const loader = await get('/assets/consult-elements.js');
    assert.equal(loader.status, 200);
    assert.equal(loader.headers.get('content-encoding'), 'br');
    assert.equal(loader.headers.get('cache-control'), 'no-cache');
    assert.equal(loader.headers.get('vary'), 'accept-encoding');
    const code = await loader.text(); // fetch decodes it
    const chunk = /chunks\/[\w.-]+\.js/.exec(code)?.[0];
    assert.ok(chunk, 'the loader names its chunks');
    // Minified, with the form, the session and the English strings it carries: one line after V8's
    // compile hint, no indented source, and a fraction of the sources' size.
    assert.ok(code.trim().split('\n').length <= 3, 'the loader is the built, minified one');
    assert.doesNotMatch(code, /^\s{2,}\S/m, 'no indented source');
    assert.ok(code.length < 200_000, `the loader is ${code.length} bytes`);

    const etag = loader.headers.get('etag') ?? '';
    assert.ok(etag);
    assert.equal((await get('/assets/consult-elements.js', { 'if-none-match': etag })).status, 304);

    const gzipped = await get(`/assets/${chunk}`, { 'accept-encoding': 'gzip' });
    assert.equal(gzipped.status, 200);
    assert.equal(gzipped.headers.get('content-encoding'), 'gzip');
    assert.equal(gzipped.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.match(gzipped.headers.get('content-security-policy') ?? '', /require-trusted-types-for 'script'/);
    assert.equal(gzipped.headers.get('x-content-type-options'), 'nosniff');

    const plain = await get(`/assets/${chunk}`, { 'accept-encoding': 'identity' });
    assert.equal(plain.headers.get('content-encoding'), null);
    assert.equal((await get('/assets/chunks/missing-0000.js')).status, 404);
  });
});

describe('the demo on a free port (port 0), as the tests start it', () => {
  const taken = () => Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' });

  it('a free port another process takes before the demo listens on it: another is tried', async () => {
    const ports: number[] = [];
    const started = await listening(0, async (port) => {
      ports.push(port);
      if (ports.length === 1) throw taken();
      return port;
    });
    assert.equal(ports.length, 2);
    assert.equal(started, ports[1]);
    assert.ok(ports.every((port) => port > 0));
  });

  it('gives up after five taken ports, and at once on any other failure or a port of its own', async () => {
    let tries = 0;
    await assert.rejects(
      listening(0, async () => {
        tries++;
        throw taken();
      }),
      /EADDRINUSE/,
    );
    assert.equal(tries, 5);
    tries = 0;
    await assert.rejects(
      listening(0, async () => {
        tries++;
        throw new Error('the sandbox is gone');
      }),
      /sandbox is gone/,
    );
    assert.equal(tries, 1);
    tries = 0;
    await assert.rejects(
      listening(8787, async () => {
        tries++;
        throw taken();
      }),
      /EADDRINUSE/,
    );
    assert.equal(tries, 1, 'a port the developer chose is not swapped for another');
  });
});
