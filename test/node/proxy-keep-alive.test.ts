/**
 * A refusal the proxy sends before reading a request's body must not break the next request on
 * the same keep-alive connection. For each early refusal, a client with one keep-alive socket
 * sends the refused request, then opens the member's event stream on the same pool, and a doctor
 * answers a second later: the answer must arrive on the stream.
 */
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { freePort, sleep, startTestProxy, type TestProxy } from './support/proxy.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';

interface Sent {
  status: number;
  connection: string | undefined;
}

/** Sends one request through `agent` and reads its whole answer. */
function send(agent: Agent, url: string, method: string, headers: Record<string, string>, body?: string) {
  return new Promise<Sent>((resolve, reject) => {
    const req = request(url, { method, agent, headers, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
    });
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    // A client that sends its body while the server answers: the server may stop reading.
    req.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
    );
    req.end(body);
  });
}

/** Opens the member's event stream through `agent`; resolves once the stream has said it is ready. */
function openStream(agent: Agent, url: string, token: string) {
  return new Promise<{ text(): string; close(): void }>((resolve, reject) => {
    let text = '';
    const req = request(
      url,
      { agent, headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` } },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          if (text.includes('event: ready')) resolve({ text: () => text, close: () => req.destroy() });
        });
        res.on('error', () => undefined);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('an early refusal leaves the connection usable for the member’s event stream', () => {
  let sandbox: TestSandbox;
  let proxy: TestProxy;
  let alex: string;
  let noor: string;

  before(async () => {
    sandbox = await startTestSandbox();
    const port = await freePort();
    proxy = await startTestProxy({
      sandbox,
      port,
      publicUrl: `http://127.0.0.1:${port}/consult`,
      heartbeatMs: 60_000,
      limits: { perMemberPerMinute: 40 },
    });
    await proxy.server.proxy.ready;
    alex = await proxy.session('alex');
    noor = await proxy.session('noor');
    // noor spends the per-member limit, so noor's next request is refused with 429.
    for (let i = 0; i < 40; i++) await proxy.call('GET', '/user/' + 'usr_demo_noor', { token: noor });
  });

  after(async () => {
    await proxy?.close();
    await sandbox?.close();
  });

  const question = (length: number) => JSON.stringify({ questions: ['x'.repeat(length)] });

  const refusals: [string, number, () => [string, Record<string, string>, string]][] = [
    [
      'a body over the limit',
      413,
      () => ['/consultation', { authorization: `Bearer ${alex}` }, question(200_000)],
    ],
    ['a bad token', 401, () => ['/consultation', { authorization: 'Bearer not-a-token' }, question(15_000)]],
    ['the rate limit', 429, () => ['/consultation', { authorization: `Bearer ${noor}` }, question(15_000)]],
    [
      'a foreign origin',
      403,
      () => [
        '/consultation',
        { authorization: `Bearer ${alex}`, origin: 'https://evil.example' },
        question(15_000),
      ],
    ],
    [
      'an unknown route with a body',
      404,
      () => ['/no-such-route', { authorization: `Bearer ${alex}` }, question(15_000)],
    ],
  ];

  for (const [what, status, make] of refusals) {
    it(`after ${what} (${status}), the next request on the connection still gets its events`, async () => {
      const created = await proxy.call('POST', '/consultation', {
        token: alex,
        body: { questions: ['Does the stream still hear me?'] },
      });
      assert.equal(created.status, 201, created.text);
      const consultationId = created.body.consultationId as string;

      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const [path, headers, body] = make();
        const refused = await send(
          agent,
          `${proxy.url}${path}`,
          'POST',
          { 'content-type': 'application/json', ...headers },
          body,
        );
        assert.equal(refused.status, status);
        // A body this large is still arriving when the refusal goes out: no client may reuse that socket.
        if (status === 413) assert.equal(refused.connection, 'close');

        const stream = await openStream(agent, `${proxy.url}/events`, alex);
        try {
          // Past the moment an undrained socket would be torn down.
          await sleep(1000);
          await sandbox.control(`/consultations/${consultationId}/answer`, { answer: 'Yes, it does.' });
          const deadline = Date.now() + 3000;
          while (!stream.text().includes(consultationId) && Date.now() < deadline) await sleep(20);
          assert.ok(stream.text().includes(consultationId), 'the answer reached the stream');
        } finally {
          stream.close();
        }
      } finally {
        agent.destroy();
      }
    });
  }

  it('a request whose body was read keeps its connection alive', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const sent = await send(
        agent,
        `${proxy.url}/consultation`,
        'POST',
        { 'content-type': 'application/json', authorization: `Bearer ${alex}` },
        JSON.stringify({ questions: ['A short one'] }),
      );
      assert.equal(sent.status, 201);
      assert.notEqual(sent.connection, 'close');
    } finally {
      agent.destroy();
    }
  });
});
