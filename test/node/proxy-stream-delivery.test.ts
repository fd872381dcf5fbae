/**
 * The two ways an event stream leaves the proxy: straight into Node's response (`startProxyServer`,
 * through `sendEventStreamsToNode`) and through the response's body (the proxy mounted under a
 * server of the partner's own, or any other runtime). Both send the same bytes with the same headers,
 * keep what was written before the response went out, and hear a client that leaves.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serve, type Http2Bindings, type HttpBindings, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { request as httpRequest, ServerResponse } from 'node:http';
import {
  connect as connectHttp2,
  createServer as createHttp2Server,
  type ClientHttp2Session,
  type IncomingHttpHeaders,
  type IncomingHttpStatusHeader,
  type OutgoingHttpHeaders,
} from 'node:http2';
import type { AddressInfo } from 'node:net';
import { createProxy } from '../../src/proxy/proxy.js';
import { demoSignIn } from '../../src/proxy/demo.js';
import { sendEventStreamsToNode } from '../../src/proxy/event-streams.node.js';
import { formatSSE, sseResponse, SSEStream } from '../../src/proxy/sse.js';
import type { ProxyCore } from '../../src/proxy/context.js';
import { eventsChannel, recordEvent } from '../../src/proxy/event-log.js';
import { MemoryStore } from '../../src/proxy/store.js';
import { DEMO_USER_IDS } from '../../src/sandbox/seed.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';
import {
  ALLOWED_ORIGIN,
  eventually,
  openEventStream,
  SESSION_SECRET,
  sleep,
  startTestProxy,
  type SseStream,
  type TestProxy,
} from './support/proxy.js';

type Fetch = (request: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>;

async function listen(fetch: Fetch): Promise<{ url: string; close(): Promise<void> }> {
  return new Promise((resolve) => {
    const server: ServerType = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            (server as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      }),
    );
  });
}

/** An app whose `/events` writes before and after its response is sent, and waits for its client to leave. */
function streamingApp() {
  const opened: { stream: SSEStream; sentTo: unknown; left: boolean }[] = [];
  const app = new Hono()
    .use(async (c, next) => {
      await next();
      c.res.headers.set('x-added-after', 'yes');
    })
    .get('/events', () => {
      const record = { left: false } as (typeof opened)[number];
      const response = sseResponse(async (s) => {
        record.stream = s;
        // Where its text goes, once the response is sent.
        s.sendTo = (target) => {
          record.sentTo = target;
          SSEStream.prototype.sendTo.call(s, target);
        };
        s.write(': open\n\n');
        s.writeSSE({ event: 'ready', data: '{"a":1}' });
        await new Promise((resolve) => setTimeout(resolve, 20));
        s.writeSSE({ event: 'later', id: '7', data: 'one\ntwo' });
        await new Promise<void>((resolve) =>
          s.onAbort(() => {
            record.left = true;
            resolve();
          }),
        );
      });
      opened.push(record);
      return response;
    });
  return { app, opened };
}

const streams: SseStream[] = [];
after(() => {
  for (const stream of streams) stream.close();
});

async function readAll(url: string): Promise<SseStream> {
  const stream = await openEventStream(url);
  streams.push(stream);
  await stream.next((item) => item.event === 'later');
  return stream;
}

describe('an event stream, straight into Node’s response or through the body', () => {
  it('sends the same bytes and headers either way; on Node the body is never read', async () => {
    const direct = streamingApp();
    const viaNode = await listen(sendEventStreamsToNode(direct.app.fetch as Fetch) as Fetch);
    const body = streamingApp();
    const viaBody = await listen(body.app.fetch as Fetch);
    try {
      const [a, b] = await Promise.all([readAll(`${viaNode.url}/events`), readAll(`${viaBody.url}/events`)]);
      const expected =
        ': open\n\nevent: ready\ndata: {"a":1}\n\nevent: later\ndata: one\ndata: two\nid: 7\n\n';
      assert.equal(a.text(), expected);
      assert.equal(b.text(), expected);
      for (const stream of [a, b]) {
        assert.equal(stream.headers.get('content-type'), 'text/event-stream');
        assert.equal(stream.headers.get('cache-control'), 'no-store, no-transform');
        assert.equal(stream.headers.get('x-accel-buffering'), 'no');
        // A header a middleware added after the route answered is sent too.
        assert.equal(stream.headers.get('x-added-after'), 'yes');
      }
      assert.ok(direct.opened[0]?.sentTo instanceof ServerResponse, 'Node’s response took the text');
      assert.ok(body.opened[0]?.sentTo, 'the body took the text');
      assert.ok(!(body.opened[0]?.sentTo instanceof ServerResponse));

      // The client leaves: each way, the stream hears it.
      a.close();
      b.close();
      await eventually('both streams to hear their client left', () =>
        direct.opened[0]?.left && body.opened[0]?.left ? true : undefined,
      );
      assert.equal(direct.opened[0]?.stream.aborted, true);
      assert.equal(body.opened[0]?.stream.aborted, true);
    } finally {
      await viaNode.close();
      await viaBody.close();
    }
  });

  it('ends the response when the stream closes, after what was written', async () => {
    for (const wrap of [(f: Fetch) => sendEventStreamsToNode(f) as Fetch, (f: Fetch) => f]) {
      const app = new Hono().get('/events', () =>
        sseResponse(async (s) => {
          s.writeSSE({ event: 'only', data: 'x' });
        }),
      );
      const server = await listen(wrap(app.fetch as Fetch));
      try {
        const stream = await openEventStream(`${server.url}/events`);
        streams.push(stream);
        await eventually('the end of the stream', () => stream.ended() || undefined);
        assert.equal(stream.text(), 'event: only\ndata: x\n\n');
      } finally {
        await server.close();
      }
    }
  });

  it('a stream whose setup fails says error, logged by its owner, and ends', async () => {
    const heard: string[] = [];
    const app = new Hono().get('/events', () =>
      sseResponse(
        async (s) => {
          s.write(': open\n\n');
          throw new Error('the store did not answer');
        },
        (error) => void heard.push(error.message),
      ),
    );
    const server = await listen(sendEventStreamsToNode(app.fetch as Fetch) as Fetch);
    try {
      const stream = await openEventStream(`${server.url}/events`);
      streams.push(stream);
      await eventually('the end of the stream', () => stream.ended() || undefined);
      assert.equal(stream.text(), ': open\n\nevent: error\ndata: the store did not answer\n\n');
      assert.deepEqual(heard, ['the store did not answer']);
    } finally {
      await server.close();
    }
  });

  it('other answers pass as they are, whatever their path', async () => {
    const app = new Hono()
      .get('/events/plain', (c) => c.json({ plain: true }))
      .post('/events', (c) => c.json({ posted: true }));
    const server = await listen(sendEventStreamsToNode(app.fetch as Fetch) as Fetch);
    try {
      const plain = await fetch(`${server.url}/events/plain`);
      assert.deepEqual(await plain.json(), { plain: true });
      const posted = await fetch(`${server.url}/events`, { method: 'POST' });
      assert.deepEqual(await posted.json(), { posted: true });
    } finally {
      await server.close();
    }
  });

  it('sends every header a middleware added after the route, two cookies as two', async () => {
    const app = new Hono()
      .use(async (c, next) => {
        await next();
        c.header('set-cookie', 'a=1; Path=/', { append: true });
        c.header('set-cookie', 'b=2; Path=/', { append: true });
        c.header('vary', 'Origin', { append: true });
      })
      .get('/events', () =>
        sseResponse(async (s) => {
          s.writeSSE({ event: 'only', data: 'x' });
        }),
      );
    const sentTo: unknown[] = [];
    const original = SSEStream.prototype.sendTo;
    SSEStream.prototype.sendTo = function (target) {
      sentTo.push(target);
      original.call(this, target);
    };
    const server = await listen(sendEventStreamsToNode(app.fetch as Fetch) as Fetch);
    try {
      const response = await fetch(`${server.url}/events`);
      assert.equal(await response.text(), 'event: only\ndata: x\n\n');
      assert.deepEqual(response.headers.getSetCookie(), ['a=1; Path=/', 'b=2; Path=/']);
      assert.equal(response.headers.get('vary'), 'Origin');
      assert.ok(sentTo[0] instanceof ServerResponse, 'the stream went straight into Node’s response');
    } finally {
      SSEStream.prototype.sendTo = original;
      await server.close();
    }
  });
});

describe('the proxy under startProxyServer', () => {
  /** Where each stream's text went: Node's response, or a body. */
  const sentTo: string[] = [];
  const original = SSEStream.prototype.sendTo;
  /** Claims of a stream slot take 300 ms while `slow` (a store a round trip away, under load). */
  class SlowClaims extends MemoryStore {
    slow = false;
    /** While true, `get` fails at once rather than as a rejected promise (a partner's own store). */
    throwing = false;
    override async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
      if (this.slow && key.startsWith('stream-slot:')) await sleep(300);
      return super.setIfAbsent(key, value, ttlMs);
    }
    override get(key: string): Promise<string | undefined> {
      if (this.throwing) throw new Error('not connected');
      return super.get(key);
    }
    /** How often a stream asked which generation the store is on (each catch-up does). */
    generationsAsked = 0;
    /** While true, each ask answers a turn of the event loop later, as a store over the network does. */
    generationLater = false;
    override async generation(): Promise<string> {
      this.generationsAsked++;
      if (this.generationLater) await new Promise((resolve) => setImmediate(resolve));
      return super.generation();
    }
  }
  const store = new SlowClaims();
  let proxy: TestProxy;
  before(async () => {
    SSEStream.prototype.sendTo = function (target) {
      sentTo.push(target instanceof ServerResponse ? 'node' : 'body');
      original.call(this, target);
    };
    proxy = await startTestProxy({ store, heartbeatMs: 100, limits: { streamsPerMember: 1 } });
  });
  after(async () => {
    SSEStream.prototype.sendTo = original;
    await proxy?.close();
  });

  /** A stream of the member's, once their one place is free (a stream closed just before frees it a moment later). */
  const openWhenFree = (token: string, headers: Record<string, string> = {}) =>
    eventually('the member’s place to be free', async () => {
      const attempt = await openEventStream(`${proxy.url}/events`, token, headers);
      streams.push(attempt);
      if (attempt.status === 200) return attempt;
      attempt.close();
      return undefined;
    });

  it('hands every stream to Node, a cross-origin page’s too (its CORS headers on it)', async () => {
    const token = await proxy.session('alex');
    for (const headers of [{}, { origin: ALLOWED_ORIGIN }] as Record<string, string>[]) {
      sentTo.length = 0;
      const stream = await openWhenFree(token, headers);
      await stream.next((item) => item.event === 'ready');
      assert.deepEqual(sentTo, ['node'], JSON.stringify(headers));
      if (headers.origin) assert.equal(stream.headers.get('access-control-allow-origin'), ALLOWED_ORIGIN);
      stream.close();
    }
  });

  it('a client that leaves while its stream is being opened does not keep its place', async () => {
    const token = await proxy.session('sam');
    store.slow = true;
    try {
      // Asks, then leaves 50 ms later: before the route has answered.
      await new Promise<void>((resolve, reject) => {
        const asked = httpRequest(`${proxy.url}/events`, {
          headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        });
        asked.on('error', () => resolve());
        asked.on('response', () => reject(new Error('answered before the client left')));
        asked.end();
        setTimeout(() => {
          asked.destroy();
          resolve();
        }, 50);
      });
      await sleep(400);
    } finally {
      store.slow = false;
    }
    // The token lasts minutes: a place kept until it expires would give 429 all this time.
    const next = await openWhenFree(token);
    await next.next((item) => item.event === 'ready');
    next.close();
  });

  it('drops what on the member’s channel is not a numbered event, and goes on with the next', async () => {
    const stream = await openWhenFree(await proxy.session('noor'));
    await stream.next((item) => item.event === 'ready');
    const channel = eventsChannel(DEMO_USER_IDS.noor);
    const asked = store.generationsAsked;
    // Each would otherwise be looked for in the log, again and again, for as long as the stream is
    // open (on the memory store, in one unbroken run of promises that starves the whole process;
    // answered a turn later here, so that such a run is counted rather than hangs this test).
    store.generationLater = true;
    let catchUps = 0;
    try {
      for (const stranger of [
        '{"id":1,"data":"{}"}',
        'null',
        '{"id":"2","generation":"x","data":"{}"}',
        '[]',
      ])
        await store.publish(channel, stranger);
      await sleep(300);
      catchUps = store.generationsAsked - asked;
      if (catchUps > 1) {
        // A stream asking without end is ended before the store answers at once again.
        stream.close();
        await sleep(300);
      }
    } finally {
      store.generationLater = false;
    }
    assert.ok(catchUps <= 1, `${catchUps} catch-ups`);
    await recordEvent({ store } as unknown as ProxyCore, DEMO_USER_IDS.noor, '{"type":"questionResolved"}');
    const event = await stream.next((item) => item.event === 'consultation');
    assert.equal(event.data, '{"type":"questionResolved"}');
    assert.equal(stream.events('consultation').length, 1);
    stream.close();
  });

  it('a store that fails at once while a stream lets go ends nothing but that stream', async () => {
    const uncaught: unknown[] = [];
    const hear = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', hear);
    try {
      const token = await proxy.session('riley');
      const stream = await openEventStream(`${proxy.url}/events`, token);
      streams.push(stream);
      await stream.next((item) => item.event === 'ready');
      store.throwing = true;
      stream.close();
      await sleep(300);
      store.throwing = false;
      assert.deepEqual(uncaught, []);
      // The proxy serves on, and the member's one place comes back: its release is tried again
      // once the store answers, long before its lease would lapse.
      const again = await openWhenFree(token);
      await again.next((item) => item.event === 'ready');
      again.close();
    } finally {
      process.off('uncaughtException', hear);
    }
  });
});

describe('SSEStream', () => {
  it('keeps what was written before it is sent, in order, and drops writes after it ends', () => {
    const stream = new SSEStream();
    stream.write('a');
    stream.writeSSE({ data: 'b' });
    const sent: string[] = [];
    let ended = 0;
    stream.sendTo({ write: (text) => sent.push(text), end: () => ended++ });
    stream.write('c');
    // Sent one way only.
    assert.equal(stream.sending, true);
    assert.throws(
      () => stream.sendTo({ write: () => assert.fail('a second target'), end: () => undefined }),
      /being sent already/,
    );
    stream.close();
    stream.write('d');
    assert.deepEqual(sent, ['a', 'data: b\n\n', 'c']);
    assert.equal(ended, 1);

    const left = new SSEStream();
    let told = 0;
    left.onAbort(() => told++);
    left.abort();
    left.abort();
    left.write('dropped');
    const nothing: string[] = [];
    left.sendTo({ write: (text) => nothing.push(text), end: () => undefined });
    assert.equal(told, 1);
    assert.deepEqual(nothing, []);
  });

  it('a body read after the stream closed still has everything, then ends', async () => {
    const stream = new SSEStream();
    stream.write(': open\n\n');
    stream.writeSSE({ event: 'bye', data: '{}' });
    stream.close();
    assert.equal(await new Response(stream.readable()).text(), ': open\n\nevent: bye\ndata: {}\n\n');
  });

  it('a body being read hears its request’s abort signal as the client leaving', async () => {
    const stream = new SSEStream();
    let told = 0;
    stream.onAbort(() => told++);
    const client = new AbortController();
    const reader = stream
      .readable(new Request('http://proxy.test/events', { signal: client.signal }))
      .getReader();
    stream.write(': open\n\n');
    const first = await reader.read();
    assert.equal(new TextDecoder().decode(first.value), ': open\n\n');
    client.abort();
    assert.equal(stream.aborted, true);
    assert.equal(told, 1);
  });

  it('formats messages as the event-stream format has them, and refuses a line break in a name or id', () => {
    assert.equal(formatSSE({ data: 'a\r\nb\rc\nd' }), 'data: a\ndata: b\ndata: c\ndata: d\n\n');
    assert.equal(
      formatSSE({ event: 'e', id: '1.2', retry: 3000, data: '' }),
      'event: e\ndata: \nid: 1.2\nretry: 3000\n\n',
    );
    assert.throws(() => formatSSE({ event: 'a\nb', data: '' }), /event must not contain/);
    assert.throws(() => formatSSE({ id: '1\r', data: '' }), /id must not contain/);
  });
});

describe('a member’s stream through the body (the proxy under a Node server of the partner’s own)', () => {
  let sandbox: TestSandbox;
  let server: { url: string; close(): Promise<void> };
  before(async () => {
    sandbox = await startTestSandbox();
    const proxy = createProxy({
      upstreamUrl: sandbox.url,
      apiKey: sandbox.sandbox.apiKeys[0] ?? 'sandbox-api-key',
      sessionSecret: SESSION_SECRET,
      authenticate: demoSignIn(),
      heartbeatMs: 50,
      logger: () => undefined,
      limits: { streamsPerMember: 1 },
    });
    server = await listen(new Hono().route('/api/consult', proxy).fetch as Fetch);
  });
  after(async () => {
    await server?.close();
    await sandbox?.close();
  });

  it('says ready, keeps alive, and frees the member’s place when the client leaves', async () => {
    const signIn = await fetch(`${server.url}/api/consult/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ demoUser: 'alex' }),
    });
    const { token } = (await signIn.json()) as { token: string };
    const first = await openEventStream(`${server.url}/api/consult/events`, token);
    streams.push(first);
    await first.next((item) => item.event === 'ready');
    await first.next((item) => item.comment === 'heartbeat');
    const second = await openEventStream(`${server.url}/api/consult/events`, token);
    streams.push(second);
    assert.equal(second.status, 429, 'one stream per member here');
    second.close();
    first.close();
    const again = await eventually('the place to free up', async () => {
      const attempt = await openEventStream(`${server.url}/api/consult/events`, token);
      streams.push(attempt);
      if (attempt.status === 200) return attempt;
      attempt.close();
      return undefined;
    });
    await again.next((item) => item.event === 'ready');
    again.close();
  });
});

describe('a member’s stream over HTTP/2 (the proxy under a Node HTTP/2 server of the partner’s own)', () => {
  let sandbox: TestSandbox;
  before(async () => {
    sandbox = await startTestSandbox();
  });
  after(async () => {
    await sandbox?.close();
  });

  /** One HTTP/2 exchange: the head, and the body's text as it comes. */
  function exchange(client: ClientHttp2Session, head: OutgoingHttpHeaders, body?: string) {
    const asked = client.request(head, { endStream: body === undefined });
    if (body !== undefined) asked.end(body);
    let text = '';
    asked.setEncoding('utf8');
    asked.on('data', (chunk: string) => (text += chunk));
    const answered = new Promise<IncomingHttpHeaders & IncomingHttpStatusHeader>((resolve, reject) => {
      asked.once('response', resolve);
      asked.once('error', reject);
    });
    const ended = new Promise<void>((resolve) => asked.once('end', resolve));
    return { answered, ended, text: () => text, close: () => asked.close() };
  }

  for (const wrapped of [true, false]) {
    it(`opens, says ready, and frees the member’s place when the client leaves (${
      wrapped ? 'with sendEventStreamsToNode' : 'the body path'
    })`, async () => {
      const proxy = createProxy({
        upstreamUrl: sandbox.url,
        apiKey: sandbox.sandbox.apiKeys[0] ?? 'sandbox-api-key',
        sessionSecret: SESSION_SECRET,
        authenticate: demoSignIn(),
        logger: () => undefined,
        limits: { streamsPerMember: 1 },
      });
      const handler = new Hono().route('/api/consult', proxy).fetch as Fetch;
      const server = await new Promise<{ port: number; close(): void }>((resolve) => {
        const started: ServerType = serve(
          {
            fetch: wrapped ? sendEventStreamsToNode(handler) : handler,
            port: 0,
            hostname: '127.0.0.1',
            createServer: createHttp2Server,
          },
          (info: AddressInfo) => resolve({ port: info.port, close: () => started.close() }),
        );
      });
      const client = connectHttp2(`http://127.0.0.1:${server.port}`);
      try {
        const signIn = exchange(
          client,
          { ':method': 'POST', ':path': '/api/consult/session', 'content-type': 'application/json' },
          JSON.stringify({ demoUser: 'alex' }),
        );
        assert.equal((await signIn.answered)[':status'], 200);
        await signIn.ended;
        const { token } = JSON.parse(signIn.text()) as { token: string };
        const events = { ':path': '/api/consult/events', authorization: `Bearer ${token}` };
        const first = exchange(client, events);
        const head = await first.answered;
        assert.equal(head[':status'], 200);
        assert.equal(head['content-type'], 'text/event-stream');
        assert.equal(head['cache-control'], 'no-store, no-transform');
        assert.equal(head['x-accel-buffering'], 'no');
        await eventually('ready', () => first.text().includes('event: ready\n') || undefined);
        // One stream per member here: a second waits for the first to go.
        const second = exchange(client, events);
        assert.equal((await second.answered)[':status'], 429);
        first.close();
        await eventually('the member’s place to come back', async () => {
          const again = exchange(client, events);
          const status = (await again.answered)[':status'];
          if (status !== 200) return undefined;
          await eventually('ready again', () => again.text().includes('event: ready\n') || undefined);
          again.close();
          return true;
        });
      } finally {
        client.close();
        server.close();
      }
    });
  }
});
