/**
 * The webhook registration survives the store (issue 29): real Redis, real proxy processes behind
 * a round-robin balancer, the sandbox delivering real signed webhooks. After Redis is emptied or
 * replaced there is one registration upstream, every instance verifies, each event is recorded
 * once; a secret rotation with deliveries flowing refuses none; bad input says what is wrong.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { runAdmin } from '../../src/admin/admin.js';
import { RedisProxyStore } from '../../src/proxy/redis-store.js';
import { startRedis, type TestRedis } from '../../scripts/redis-server.js';
import { eventually, sleep } from './support/proxy.js';
import { spawnProxy, type ProxyProcess, type ProxyProcessConfig } from './support/proxy-process.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';

const ALEX = 'usr_demo_alex';
const SESSION_SECRET = 's'.repeat(40);

/**
 * A load balancer in front of the instances: each request to the next one in turn. An instance is
 * taken out before it is stopped, as a deploy does. It remembers which instance answered what.
 */
interface Balancer {
  url: string;
  backends: ProxyProcess[];
  answers: Array<{ backend: string; status: number }>;
  /** Requests each backend is answering now, by its URL. */
  inFlight: Map<string, number>;
  close(): Promise<void>;
}

async function startBalancer(): Promise<Balancer> {
  const backends: ProxyProcess[] = [];
  const answers: Balancer['answers'] = [];
  const inFlight = new Map<string, number>();
  let next = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const backend = backends[next++ % backends.length];
      if (!backend) {
        res.writeHead(502).end();
        return;
      }
      const target = new URL(req.url ?? '/', backend.url);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string' && name !== 'host' && name !== 'content-length')
          headers.set(name, value);
      inFlight.set(backend.url, (inFlight.get(backend.url) ?? 0) + 1);
      fetch(target, { method: req.method ?? 'GET', headers, body: Buffer.concat(chunks) })
        .then(async (response) => {
          const body = Buffer.from(await response.arrayBuffer());
          answers.push({ backend: backend.url, status: response.status });
          res.writeHead(response.status, {
            'content-type': response.headers.get('content-type') ?? 'text/plain',
          });
          res.end(body);
        })
        .catch(() => res.writeHead(502).end())
        .finally(() => inFlight.set(backend.url, (inFlight.get(backend.url) ?? 1) - 1));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    backends,
    answers,
    inFlight,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** `consult-admin` as an operator runs it, its output captured. */
async function admin(argv: string[], env: Record<string, string | undefined>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, {
    env,
    out: (text) => out.push(text),
    err: (text) => err.push(text),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

let redis: TestRedis;
let sandbox: TestSandbox;
let balancer: Balancer;
const processes: ProxyProcess[] = [];
const stores: RedisProxyStore[] = [];

const adminEnv = () => ({
  CONSULT_UPSTREAM_URL: sandbox.url,
  CONSULT_API_KEY: 'sandbox-api-key',
  CONSULT_REDIS_URL: redis.url,
});

function registrationsFor(url: string) {
  return [...sandbox.sandbox.state.webhooks.values()].filter((w) => w.url === url);
}

async function instance(config: Partial<ProxyProcessConfig> & { prefix: string }): Promise<ProxyProcess> {
  const proxy = await spawnProxy({
    upstreamUrl: sandbox.url,
    apiKey: 'sandbox-api-key',
    sessionSecret: SESSION_SECRET,
    redisUrl: redis.url,
    ...config,
  });
  processes.push(proxy);
  return proxy;
}

/** Adds `next` to the balancer, then takes `old` out and stops it (a rolling deploy's step). */
async function replace(old: ProxyProcess, next: ProxyProcess): Promise<void> {
  balancer.backends.push(next);
  balancer.backends.splice(balancer.backends.indexOf(old), 1);
  // What it was answering finishes first, as a balancer drains an instance before a deploy stops it.
  await eventually('the old instance to drain', () => (balancer.inFlight.get(old.url) ?? 0) === 0, 30_000);
  await old.kill();
}

/** A question from alex, claimed and answered: two events, each delivered once per registration. */
async function askAndAnswer(): Promise<string> {
  const created = await sandbox.call('POST', '/consultation', {
    body: { userId: ALEX, questions: ['Does this survive the store?'] },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.consultationId as string;
  await sandbox.control(`/consultations/${id}/claim`);
  await sandbox.control(`/consultations/${id}/answer`, { answer: 'It does.' });
  return id;
}

/**
 * Every delivery of these cases settled: each case's two events delivered, and every message
 * acknowledged or out of retries.
 */
async function settled(cases: string[], timeoutMs = 30_000): Promise<void> {
  await eventually(
    'every delivery to settle',
    () => {
      const attempts = sandbox.sandbox.webhookDeliveries.filter((d) => cases.includes(d.event.caseId));
      const byMessage = new Map<string, (typeof attempts)[number]>();
      for (const attempt of attempts) byMessage.set(attempt.messageId, attempt);
      const delivered = (id: string, type: string) =>
        attempts.some((d) => d.event.caseId === id && d.event.type === type);
      return (
        cases.every((id) => delivered(id, 'consultationClaimed') && delivered(id, 'questionResolved')) &&
        [...byMessage.values()].every((last) => last.ok || last.nextAttemptAt === undefined)
      );
    },
    timeoutMs,
  );
}

/** The events the proxies recorded for alex, as browsers get them, of these cases. */
async function recorded(store: RedisProxyStore, cases: string[]) {
  const latest = Number((await store.get(`event-seq:${ALEX}`)) ?? 0);
  const ids = Array.from({ length: latest }, (_, i) => `event:${ALEX}:${i + 1}`);
  const events = (await store.getMany(ids))
    .filter((data): data is string => data !== undefined)
    .map((data) => JSON.parse(data) as { type: string; consultationId: string; status: string });
  return events.filter((event) => cases.includes(event.consultationId));
}

function assertRecordedOnce(events: Array<{ type: string; consultationId: string }>, cases: string[]) {
  for (const id of cases) {
    assert.deepEqual(
      events
        .filter((e) => e.consultationId === id)
        .map((e) => e.type)
        .sort(),
      ['consultationClaimed', 'questionResolved'],
      `${id}: each event once, ${JSON.stringify(events)}`,
    );
  }
}

describe('the webhook registration survives the store', () => {
  before(async () => {
    redis = await startRedis();
    // Refused deliveries come again quickly, so a refusal could not hide behind a slow retry.
    sandbox = await startTestSandbox({ webhookRetryDelaysMs: [300, 600, 1200] });
    balancer = await startBalancer();
  });
  after(async () => {
    for (const proxy of processes) await proxy.kill();
    for (const store of stores) await store.close();
    await balancer?.close();
    await sandbox?.close();
    await redis?.stop();
  });

  it('registered automatically (sandbox, demo): Redis emptied or replaced keeps one registration, both instances verify, each event recorded once', async () => {
    const prefix = 'auto:';
    const publicUrl = `${balancer.url}/consult`;
    const hookUrl = `${publicUrl}/webhooks`;
    const store = new RedisProxyStore({ url: redis.url, prefix });
    stores.push(store);
    const config = { prefix, publicUrl, limits: { webhookRegistrationCheckMs: 200 } };
    const a = await instance(config);
    const b = await instance(config);
    balancer.backends.push(a, b);
    assert.equal(registrationsFor(hookUrl).length, 1, 'one registration for both');
    const [registered] = registrationsFor(hookUrl);

    // Redis loses everything while both run: they put the registration back.
    const flusher = new Redis(redis.url);
    await flusher.flushall();
    await flusher.quit();
    const key = `webhook-registration:${publicUrl}`;
    const restored = await eventually('the registration back in the store', () => store.get(key), 3000);
    assert.equal(JSON.parse(restored).webhookId, registered!.webhookId);

    // Redis is replaced by an empty one, and a third instance starts at once: it waits for the
    // running ones to put the registration back, and registers nothing of its own.
    const { port } = redis;
    await redis.stop();
    redis = await startRedis({ port });
    const c = await instance(config);
    balancer.backends.push(c);
    assert.deepEqual(
      registrationsFor(hookUrl).map((w) => w.webhookId),
      [registered!.webhookId],
      'still exactly one registration upstream',
    );

    const startedAt = balancer.answers.length;
    const cases = [await askAndAnswer(), await askAndAnswer(), await askAndAnswer()];
    await settled(cases);
    const attempts = sandbox.sandbox.webhookDeliveries.filter((d) => cases.includes(d.event.caseId));
    assert.ok(
      attempts.every((d) => d.ok),
      `no delivery refused: ${JSON.stringify(attempts)}`,
    );
    const answered = balancer.answers.slice(startedAt);
    for (const proxy of [a, b, c]) {
      assert.ok(
        answered.some((x) => x.backend === proxy.url && x.status === 200),
        `${proxy.url} verified deliveries: ${JSON.stringify(answered)}`,
      );
    }
    assertRecordedOnce(await recorded(store, cases), cases);
    balancer.backends.length = 0;
    for (const proxy of [a, b, c]) await proxy.kill();
  });

  it('when two automatic registrations meet anyway, one is deleted and deliveries of both verify', async () => {
    const prefix = 'met:';
    const publicUrl = `${balancer.url}/consult`;
    const hookUrl = `${publicUrl}/webhooks`;
    for (const w of registrationsFor(hookUrl)) await sandbox.call('DELETE', `/webhook/${w.webhookId}`);
    const store = new RedisProxyStore({ url: redis.url, prefix });
    stores.push(store);
    const config = { prefix, publicUrl, limits: { webhookRegistrationCheckMs: 200 } };
    const a = await instance(config);
    balancer.backends.push(a);
    // Someone else registered meanwhile and stored theirs, as an instance that started on an
    // emptied store before the running ones could put theirs back would.
    const other = await sandbox.call('POST', '/webhook', { body: { url: hookUrl } });
    const key = `webhook-registration:${publicUrl}`;
    await store.set(
      key,
      JSON.stringify({ webhookId: other.body.webhookId, secret: other.body.secret, url: hookUrl }),
      60_000,
    );
    await eventually('one registration left', () => registrationsFor(hookUrl).length === 1, 3000);
    assert.equal(registrationsFor(hookUrl)[0]!.webhookId, other.body.webhookId, 'the stored one stays');

    const cases = [await askAndAnswer()];
    await settled(cases);
    const attempts = sandbox.sandbox.webhookDeliveries.filter((d) => cases.includes(d.event.caseId));
    assert.ok(attempts.length >= 2 && attempts.every((d) => d.ok), JSON.stringify(attempts));
    assertRecordedOnce(await recorded(store, cases), cases);
    balancer.backends.length = 0;
    await a.kill();
  });

  it('configured with consult-admin (production): survives Redis emptied, and a rotation with deliveries flowing refuses none', async () => {
    const prefix = 'configured:';
    const publicUrl = `${balancer.url}/consult`;
    const hookUrl = `${publicUrl}/webhooks`;
    for (const w of registrationsFor(hookUrl)) await sandbox.call('DELETE', `/webhook/${w.webhookId}`);
    const store = new RedisProxyStore({ url: redis.url, prefix });
    stores.push(store);
    const env = { ...adminEnv(), CONSULT_REDIS_PREFIX: prefix };

    const registered = await admin(['webhooks', 'register', '--url', hookUrl], env);
    assert.equal(registered.code, 0, registered.err);
    const oldSecret = /CONSULT_WEBHOOK_SECRET=(whsec_\S+)/.exec(registered.out)?.[1];
    const oldId = /webhook id (\S+) to rotate/.exec(registered.out)?.[1];
    assert.ok(oldSecret && oldId, registered.out);

    // publicUrl too, as in production: with a configured secret no instance registers anything.
    const config = { prefix, publicUrl, webhookSecret: oldSecret };
    const a = await instance(config);
    const b = await instance(config);
    balancer.backends.push(a, b);
    assert.deepEqual(
      registrationsFor(hookUrl).map((w) => w.webhookId),
      [oldId],
    );

    const flusher = new Redis(redis.url);
    await flusher.flushall();
    await flusher.quit();
    const before = [await askAndAnswer(), await askAndAnswer()];
    await settled(before);
    const beforeAttempts = sandbox.sandbox.webhookDeliveries.filter((d) => before.includes(d.event.caseId));
    assert.ok(
      beforeAttempts.every((d) => d.ok),
      JSON.stringify(beforeAttempts),
    );
    assertRecordedOnce(await recorded(store, before), before);

    // Deliveries flow all through the rotation.
    const flowing: string[] = [];
    let flow = true;
    const flowDone = (async () => {
      while (flow) {
        flowing.push(await askAndAnswer());
        await sleep(50);
      }
    })();
    await sleep(300);

    // 1. A new registration, its secret announced to the instances through their Redis.
    const rotated = await admin(['webhooks', 'rotate', oldId, '--url', hookUrl], env);
    assert.equal(rotated.code, 0, rotated.err);
    assert.match(rotated.out, /accept the new secret already/);
    const newSecret = /signing secret \(shown once\): (whsec_\S+)/.exec(rotated.out)?.[1];
    assert.ok(newSecret, rotated.out);
    assert.equal(registrationsFor(hookUrl).length, 2);
    await sleep(500);
    // 2. Every instance configured with both, one at a time.
    const both = { ...config, webhookSecret: `${oldSecret},${newSecret}` };
    const a2 = await instance(both);
    await replace(a, a2);
    const b2 = await instance(both);
    await replace(b, b2);
    await sleep(300);
    // 3. The old registration deleted, the old secret dropped, one instance at a time.
    const deleted = await admin(['webhooks', 'delete', oldId], env);
    assert.equal(deleted.code, 0, deleted.err);
    await sleep(500);
    const a3 = await instance({ ...config, webhookSecret: newSecret });
    await replace(a2, a3);
    const b3 = await instance({ ...config, webhookSecret: newSecret });
    await replace(b2, b3);
    await sleep(300);
    flow = false;
    await flowDone;

    await settled(flowing);
    // A copy of an event from the other registration may still be on its way: it settles too.
    await sleep(500);
    await settled(flowing);
    const attempts = sandbox.sandbox.webhookDeliveries.filter((d) => flowing.includes(d.event.caseId));
    assert.ok(flowing.length >= 5, `deliveries flowed: ${flowing.length} cases`);
    const refused = attempts.filter((d) => !d.ok);
    assert.deepEqual(refused, [], 'no delivery refused during the rotation');
    assertRecordedOnce(await recorded(store, flowing), flowing);
    assert.deepEqual(
      registrationsFor(hookUrl).map((w) => w.secret),
      [newSecret],
      'one registration left, the new one',
    );
    balancer.backends.length = 0;
    await a3.kill();
    await b3.kill();
  });
});

describe('bad input says what is wrong', () => {
  let badSandbox: TestSandbox;
  before(async () => {
    badSandbox = await startTestSandbox();
  });
  after(async () => {
    await badSandbox?.close();
  });

  it('consult-proxy refuses a malformed CONSULT_WEBHOOK_SECRET at start, naming the entry, never printing it', async () => {
    const cli = fileURLToPath(new URL('../../src/proxy/cli.ts', import.meta.url));
    const good = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    for (const [secret, message] of [
      ['whsec_abc', /CONSULT_WEBHOOK_SECRET is not whsec_ followed by base64/],
      ['sk_live_123456789012345678901234', /CONSULT_WEBHOOK_SECRET does not start with whsec_/],
      [
        `${good},whsec_${Buffer.alloc(4).toString('base64')}`,
        /entry 2 of 2 of CONSULT_WEBHOOK_SECRET holds 4 bytes/,
      ],
      [',', /CONSULT_WEBHOOK_SECRET is empty/],
    ] as const) {
      const child = spawn(process.execPath, ['--import', 'tsx', cli], {
        env: {
          ...process.env,
          CONSULT_UPSTREAM_URL: badSandbox.url,
          CONSULT_API_KEY: 'sandbox-api-key',
          CONSULT_SESSION_SECRET: SESSION_SECRET,
          CONSULT_DEMO_SIGN_IN: '1',
          CONSULT_WEBHOOK_SECRET: secret,
          PORT: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      assert.equal(code, 1, output);
      assert.match(output, /consult-proxy cannot start/);
      assert.match(output, message, output);
      for (const part of secret.split(',').filter((s) => s.length > 8))
        assert.ok(!output.includes(part), 'the secret is not printed');
    }
  });

  it('createProxy refuses a malformed webhookSecret with what to use', async () => {
    const { createProxy } = await import('../../src/proxy/proxy.js');
    assert.throws(
      () =>
        createProxy({
          upstreamUrl: badSandbox.url,
          apiKey: 'sandbox-api-key',
          sessionSecret: SESSION_SECRET,
          authenticate: () => null,
          webhookSecret: ['whsec_!!!!'],
        }),
      /webhookSecret is not whsec_ followed by base64.*consult-admin webhooks register/,
    );
  });

  it('consult-admin: an unknown or malformed webhook id, a secret given for an id, no --url, an unreachable or malformed Redis each say so and change nothing', async () => {
    const env = { CONSULT_UPSTREAM_URL: badSandbox.url, CONSULT_API_KEY: 'sandbox-api-key' };
    const before = badSandbox.sandbox.state.webhooks.size;
    const unknown = await admin(['webhooks', 'delete', 'whk_nosuchone'], env);
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /no webhook whk_nosuchone is registered with the service/);
    const malformed = await admin(['webhooks', 'delete', '../webhook/x y'], env);
    assert.equal(malformed.code, 2);
    assert.match(malformed.err, /WEBHOOK_ID must be an id such as whk_/);
    const secret = await admin(['webhooks', 'delete', `whsec_${'A'.repeat(32)}`], env);
    assert.equal(secret.code, 2);
    assert.match(secret.err, /that is a signing secret, not a webhook id/);
    assert.doesNotMatch(secret.err, /AAAAAAAA/, 'the secret is not echoed');
    const noUrl = await admin(['webhooks', 'register'], env);
    assert.equal(noUrl.code, 2);
    assert.match(noUrl.err, /--url is required/);
    const rotateBadId = await admin(
      ['webhooks', 'rotate', 'not an id', '--url', 'https://portal.example/consult/webhooks'],
      env,
    );
    assert.equal(rotateBadId.code, 2);
    assert.match(rotateBadId.err, /WEBHOOK_ID must be an id/);
    const noRedis = await admin(
      ['webhooks', 'rotate', 'whk_old', '--url', 'https://portal.example/consult/webhooks'],
      { ...env, CONSULT_REDIS_URL: 'redis://127.0.0.1:1' },
    );
    assert.equal(noRedis.code, 3);
    assert.match(noRedis.err, /the proxies' Redis at CONSULT_REDIS_URL did not answer/);
    const badRedis = await admin(
      ['webhooks', 'rotate', 'whk_old', '--url', 'https://portal.example/consult/webhooks'],
      { ...env, CONSULT_REDIS_URL: 'cache.internal:6379' },
    );
    assert.equal(badRedis.code, 2);
    assert.match(badRedis.err, /CONSULT_REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
    assert.equal(badSandbox.sandbox.state.webhooks.size, before, 'nothing registered or deleted');
  });
});

describe('consult-admin webhooks register', () => {
  let own: TestSandbox;
  before(async () => {
    own = await startTestSandbox();
  });
  after(async () => {
    await own?.close();
  });

  it('prints the id and the CONSULT_WEBHOOK_SECRET line, and with --json the service’s webhook unchanged', async () => {
    const env = { CONSULT_UPSTREAM_URL: own.url, CONSULT_API_KEY: 'sandbox-api-key' };
    const url = 'https://portal.example/consult/webhooks';
    const shown = await admin(['webhooks', 'register', '--url', url], env);
    assert.equal(shown.code, 0, shown.err);
    const [first] = [...own.sandbox.state.webhooks.values()];
    assert.ok(first);
    assert.ok(shown.out.includes(`CONSULT_WEBHOOK_SECRET=${first.secret}`), shown.out);
    assert.ok(shown.out.includes(`webhook id ${first.webhookId}`), shown.out);

    const json = await admin(['webhooks', 'register', '--url', url, '--json'], env);
    assert.equal(json.code, 0, json.err);
    const webhook = JSON.parse(json.out) as { webhookId: string; secret: string; url: string };
    const stored = own.sandbox.state.webhooks.get(webhook.webhookId);
    assert.equal(webhook.secret, stored?.secret);
    assert.equal(webhook.url, url);
  });
});
