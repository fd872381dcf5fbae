/**
 * The session's live event stream against a real server-sent-events server on loopback: it sends
 * the token in the Authorization header, hands over each event, reopens after the server drops
 * it, asks for a new token after a 401, and stops for good on stop().
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { EventStream } from '../../src/session/event-stream.js';
import { eventually } from './support/proxy.js';

type Handler = (req: IncomingMessage, res: ServerResponse, attempt: number) => void;

describe('the live event stream', () => {
  let server: Server;
  let url: string;
  let handler: Handler;
  let attempts: string[] = [];

  before(async () => {
    server = createServer((req, res) => {
      attempts.push(req.headers.authorization ?? '');
      handler(req, res, attempts.length);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  function stream(tokens: string[], refused = () => true, silentAfterMs?: number) {
    const events: [string, string][] = [];
    const live: boolean[] = [];
    const resyncs: number[] = [];
    const silent: string[] = [];
    let issued = 0;
    const events$ = new EventStream({
      url: () => url,
      token: async () => tokens[Math.min(issued++, tokens.length - 1)]!,
      fetch: (input, init) => {
        lastEventIds.push(new Headers(init.headers).get('last-event-id'));
        return fetch(input, init);
      },
      refused,
      onEvent: (name, data) => void events.push([name, data]),
      onLive: (value) => live.push(value),
      onResync: () => void resyncs.push(Date.now()),
      onSilent: (at) => void silent.push(at),
      ...(silentAfterMs === undefined ? {} : { silentAfterMs }),
    });
    return { stream: events$, events, live, resyncs, silent };
  }
  let lastEventIds: (string | null)[] = [];

  const sse = (res: ServerResponse, body: string, end = false) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(body);
    if (end) res.end();
  };

  it('sends the token, hands over each event and says when it is live', async () => {
    attempts = [];
    handler = (_req, res) => sse(res, 'event: consultation\ndata: {"consultationId":"c1"}\n\n');
    const { stream: events$, events, live } = stream(['tok-1']);
    events$.start();
    await eventually('the event', () => events.length === 1);
    assert.deepEqual(events, [['consultation', '{"consultationId":"c1"}']]);
    assert.deepEqual(attempts, ['Bearer tok-1']);
    assert.deepEqual(live, [true]);
    events$.stop();
    await eventually('the stream closes', () => live.at(-1) === false);
  });

  it('is not live while an open stream says nothing (something buffers it), and says so once', async () => {
    attempts = [];
    let response: ServerResponse | undefined;
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      response = res;
    };
    const { stream: events$, live, silent } = stream(['tok-1'], () => true, 200);
    events$.start();
    await eventually('the silence is noticed', () => silent.length === 1, 2000);
    assert.deepEqual(silent, [url]);
    assert.deepEqual(live, [], 'not live: the page keeps polling');
    // Bytes at last (an intermediary's buffer filled, or it let go): live from then on.
    response?.write(': open\n\nevent: ready\ndata: {}\n\n');
    await eventually('live once it speaks', () => live.at(-1) === true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(silent.length, 1, 'said once');
    events$.stop();
  });

  it('reopens after the server drops it, and loses nothing sent after', async () => {
    attempts = [];
    handler = (_req, res, attempt) =>
      attempt === 1 ? sse(res, ': hello\n\n', true) : sse(res, 'event: consultation\ndata: {"n":2}\n\n');
    const { stream: events$, events } = stream(['tok-1']);
    events$.start();
    await eventually('the event after the reconnect', () => events.length === 1, 5000);
    assert.equal(attempts.length, 2);
    events$.stop();
  });

  it('asks to replay from the last event it received when it reconnects', async () => {
    attempts = [];
    lastEventIds = [];
    handler = (_req, res, attempt) =>
      attempt === 1
        ? sse(res, 'id: 7\nevent: consultation\ndata: {"n":1}\n\n', true)
        : sse(res, 'id: 8\nevent: consultation\ndata: {"n":2}\n\n');
    const { stream: events$, events, resyncs } = stream(['tok-1']);
    events$.start();
    await eventually('both events', () => events.length === 2, 5000);
    assert.deepEqual(lastEventIds, [null, '7']);
    assert.deepEqual(resyncs, [], 'nothing to re-read: the proxy replays');
    events$.stop();
  });

  it('asks for a re-read when the proxy cannot replay, or when it comes back with no id to replay from', async () => {
    attempts = [];
    lastEventIds = [];
    handler = (_req, res, attempt) =>
      attempt === 1 ? sse(res, ': nothing yet\n\n', true) : sse(res, 'event: reset\ndata: {}\n\n');
    const { stream: events$, events, resyncs } = stream(['tok-1']);
    events$.start();
    // The second connection: no id to replay from (one re-read), then the proxy's reset (another).
    await eventually('two re-reads', () => resyncs.length === 2, 5000);
    assert.deepEqual(events, [], 'a reset is not handed over as an event');
    events$.stop();
  });

  it('waits with the backoff after failures instead of hammering the server', async () => {
    attempts = [];
    handler = (_req, res) => {
      res.writeHead(503).end();
    };
    const { stream: events$ } = stream(['tok-1']);
    events$.start();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    events$.stop();
    // 1 s, then 2 s of backoff at most (full jitter): a handful of attempts, never a tight loop.
    assert.ok(attempts.length >= 1 && attempts.length <= 5, `${attempts.length} attempts in 1.5 s`);
  });

  it('asks for a new token after a 401, and stops when the session says so', async () => {
    attempts = [];
    handler = (req, res) =>
      req.headers.authorization === 'Bearer tok-2'
        ? sse(res, 'event: ready\ndata: {}\n\n')
        : (res.writeHead(401).end(), undefined);
    const { stream: events$, events } = stream(['tok-1', 'tok-2']);
    events$.start();
    await eventually('the stream with the new token', () => events.length === 1);
    assert.deepEqual(attempts, ['Bearer tok-1', 'Bearer tok-2']);
    events$.stop();

    attempts = [];
    handler = (_req, res) => {
      res.writeHead(401).end();
    };
    const ended = stream(['tok-3'], () => false);
    ended.stream.start();
    await eventually('one attempt', () => attempts.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(attempts.length, 1, 'no retry once the session has ended');
  });
});
