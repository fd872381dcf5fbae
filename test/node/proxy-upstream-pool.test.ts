/**
 * On Node the proxy reaches the upstream over a pool of keep-alive connections (`pooledFetch`):
 * many reads share a few connections, a redirect is still never followed (S6), and the upstream's
 * headers (Retry-After) and refusals come through as with fetch. A forwarding server in front of
 * the real sandbox counts the connections the proxy opens.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pooledFetch } from '../../src/proxy/node.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';
import { startTestProxy, type TestProxy } from './support/proxy.js';

/** Forwards to the sandbox, but answers `/consultation/...` reads with what `override` says. */
interface Front {
  url: string;
  connections: number;
  requests: string[];
  override?: (path: string) => { status: number; headers: Record<string, string> } | undefined;
  close(): Promise<void>;
}

async function startFront(upstreamUrl: string): Promise<Front> {
  const upstream = new URL(upstreamUrl);
  const front: Front = {
    url: '',
    connections: 0,
    requests: [],
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    front.requests.push(`${req.method} ${req.url}`);
    const overridden = front.override?.(req.url ?? '');
    if (overridden) {
      res.writeHead(overridden.status, overridden.headers).end('{}');
      return;
    }
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forwarded);
  });
  server.on('connection', () => front.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  front.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  front.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return front;
}

describe('the proxy’s connections to the upstream', () => {
  let sandbox: TestSandbox;
  let front: Front;
  let proxy: TestProxy;
  let alex: string;

  before(async () => {
    sandbox = await startTestSandbox();
    front = await startFront(sandbox.url);
    proxy = await startTestProxy({
      sandbox,
      upstreamUrl: front.url,
      limits: { perMemberPerMinute: 100_000 },
    });
    alex = await proxy.session('alex');
  });

  after(async () => {
    await proxy?.close();
    await front?.close();
    await sandbox?.close();
  });

  it('reuses a few keep-alive connections for many reads', async () => {
    const before = front.connections;
    const reads = 60;
    const statuses: number[] = [];
    // Ten at a time, as ten members reading at once.
    for (let round = 0; round < reads / 10; round++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          proxy.call('GET', '/consultation/cns_demo_alex_rash', { token: alex }),
        ),
      );
      statuses.push(...answers.map((answer) => answer.status));
    }
    assert.deepEqual(new Set(statuses), new Set([200]));
    const opened = front.connections - before;
    assert.ok(opened <= 10, `${reads} reads opened ${opened} connections`);
  });

  it('never follows an upstream redirect: 502, and the target is not asked', async () => {
    front.override = (path) =>
      path.startsWith('/consultation/')
        ? { status: 302, headers: { location: `${front.url}/elsewhere${path}` } }
        : undefined;
    try {
      const since = front.requests.length;
      const response = await proxy.call('GET', '/consultation/cns_demo_alex_rash', { token: alex });
      assert.equal(response.status, 502, response.text);
      assert.equal(response.body.code, 'upstream_failed');
      assert.ok(!response.text.includes('elsewhere'));
      assert.deepEqual(
        front.requests.slice(since).filter((line) => line.includes('/elsewhere')),
        [],
      );
    } finally {
      front.override = undefined;
    }
  });

  it('passes the upstream’s Retry-After to the member on a 429', async () => {
    front.override = (path) =>
      path.startsWith('/consultation/')
        ? { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '2' } }
        : undefined;
    try {
      const response = await proxy.call('GET', '/consultation/cns_demo_alex_rash', { token: alex });
      assert.equal(response.status, 429, response.text);
      assert.equal(response.headers.get('retry-after'), '2');
    } finally {
      front.override = undefined;
    }
  });
});

describe('pooledFetch', () => {
  let server: Server;
  let url: string;
  before(async () => {
    server = createServer((req, res) => {
      if (req.url === '/slow') return; // never answers
      // "Sofía" in two writes that split the two bytes of "í".
      if (req.url === '/split') {
        const bytes = Buffer.from('Sofía');
        res.writeHead(200, { 'content-length': String(bytes.length) }).write(bytes.subarray(0, 4));
        return void setTimeout(() => res.end(bytes.subarray(4)), 20);
      }
      // Begins its answer, and never finishes it.
      if (req.url === '/stall') return void res.writeHead(200, { 'content-length': '100' }).write('{"a":');
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () =>
        res
          .writeHead(req.url === '/empty' ? 204 : 201, {
            'x-seen': `${req.method} ${req.headers['x-test']}`,
            'x-path': req.url ?? '',
          })
          .end(req.url === '/empty' ? undefined : `echo:${body}`),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );

  it('sends the method, headers and body, and reads status, headers and text', async () => {
    const pooled = pooledFetch();
    try {
      const response = await pooled(`${url}/echo`, {
        method: 'POST',
        headers: { 'x-test': 'yes' },
        body: '{"a":1}',
      });
      assert.equal(response.status, 201);
      assert.equal(response.ok, true);
      assert.equal(response.headers.get('X-Seen'), 'POST yes');
      assert.equal(await response.text(), 'echo:{"a":1}');
      const empty = await pooled(`${url}/empty`, { method: 'GET' });
      assert.equal(empty.status, 204);
      assert.equal(await empty.text(), '');
    } finally {
      await pooled.close();
    }
  });

  it('reads a character whose bytes come in two pieces whole', async () => {
    const pooled = pooledFetch();
    try {
      assert.equal(await (await pooled(`${url}/split`, { method: 'GET' })).text(), 'Sofía');
    } finally {
      await pooled.close();
    }
  });

  it('reads URLs with no path, or a query right after the host, as fetch does', async () => {
    const pooled = pooledFetch();
    try {
      for (const [given, seen] of [
        [url, '/'],
        [`${url}?q=1`, '/?q=1'],
        [`${url}/a/b?c=d%20e`, '/a/b?c=d%20e'],
      ] as const) {
        const response = await pooled(given, { method: 'GET', headers: { 'x-test': 'yes' } });
        assert.equal(response.status, 201, given);
        assert.equal(response.headers.get('x-path'), seen, given);
      }
    } finally {
      await pooled.close();
    }
  });

  it('stops waiting when its signal aborts, with the signal’s reason, the body included', async () => {
    const pooled = pooledFetch();
    try {
      const started = Date.now();
      for (const path of ['/slow', '/stall']) {
        const controller = new AbortController();
        setTimeout(() => controller.abort(new Error(`left ${path}`)), 50);
        await assert.rejects(pooled(`${url}${path}`, { method: 'GET', signal: controller.signal }), {
          message: `left ${path}`,
        });
      }
      const aborted = AbortSignal.abort(new Error('gone before'));
      await assert.rejects(pooled(`${url}/echo`, { method: 'GET', signal: aborted }), {
        message: 'gone before',
      });
      assert.ok(Date.now() - started < 2000);
    } finally {
      await pooled.close();
    }
  });

  it('keeps the time limit itself: a TimeoutError when the whole answer has not come in time', async () => {
    const pooled = pooledFetch();
    try {
      assert.equal(pooled.enforcesLimits, true);
      for (const path of ['/slow', '/stall']) {
        const started = Date.now();
        await assert.rejects(pooled(`${url}${path}`, { method: 'GET', timeoutMs: 100 }), {
          name: 'TimeoutError',
        });
        const took = Date.now() - started;
        assert.ok(took >= 90 && took < 1500, `${path} took ${took} ms`);
      }
      // Within the limit, an answer is read as usual, and no timer is left behind to fire later.
      const response = await pooled(`${url}/echo`, { method: 'GET', timeoutMs: 1000 });
      assert.equal(response.status, 201);
    } finally {
      await pooled.close();
    }
  });
});
