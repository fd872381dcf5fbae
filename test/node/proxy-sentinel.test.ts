/**
 * Redis with a replica under Sentinel (README "Running several instances", docs/security.md S22):
 * real redis-server processes (a primary, a replica, three Sentinels on free loopback ports), two
 * real proxy processes configured with the Sentinels, the sandbox delivering webhooks to them
 * through a round-robin balancer. Under traffic (members with open streams asking keyed
 * questions, answers delivered by webhook) the primary is killed, then the new one is failed over
 * on purpose (SENTINEL FAILOVER): nothing is duplicated, an ended session stays ended, and every
 * open stream gets its answer or a `reset`. Sentinel's down-after is 1 s, so it is bounded.
 */
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { startRedis, type TestRedis } from '../../scripts/redis-server.js';
import {
  eventually,
  openEventStream,
  rawRequest,
  SESSION_SECRET,
  sleep,
  type SseStream,
} from './support/proxy.js';
import { spawnProxy, type ProxyProcess } from './support/proxy-process.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';

const NAME = 'consult-primary';

/** Forwards each request to the next target in turn (a load balancer in front of the proxies). */
async function startBalancer() {
  let targets: string[] = [];
  let next = 0;
  const server: Server = createServer((req, res) => {
    const target = new URL(targets[next++ % targets.length] ?? 'http://127.0.0.1:9');
    const forward = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    route(to: string[]) {
      targets = to;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Asks one Sentinel a SENTINEL subcommand. */
async function askSentinel(port: number, ...args: string[]): Promise<unknown> {
  const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await client.connect();
    return await client.call('SENTINEL', ...args);
  } finally {
    client.disconnect();
  }
}

/** A flat `[key, value, …]` reply as an object. */
const fields = (reply: unknown) => {
  const list = reply as string[];
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < list.length; i += 2) out[list[i] ?? ''] = list[i + 1] ?? '';
  return out;
};

/** Waits until `server` is a replica whose link to its primary is up (its first sync done). */
function inSync(server: TestRedis) {
  return eventually(
    'the replica to be in sync',
    async () => {
      const client = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
      try {
        await client.connect();
        const info = await client.info('replication');
        return /master_link_status:up/.test(info) && !/master_sync_in_progress:1/.test(info);
      } finally {
        client.disconnect();
      }
    },
    10_000,
  );
}

describe('Redis with a replica under Sentinel: failovers under traffic', () => {
  const servers: TestRedis[] = [];
  const sentinels: TestRedis[] = [];
  let primary: TestRedis;
  let replica: TestRedis;
  let sandbox: TestSandbox;
  let balancer: Awaited<ReturnType<typeof startBalancer>>;
  const proxies: ProxyProcess[] = [];

  const call = (proxy: ProxyProcess | undefined, method: string, path: string, options = {}) => {
    const url = new URL(proxy?.url ?? '');
    return rawRequest(url.origin, method, `${url.pathname}${path}`, options);
  };
  const signIn = async (proxy: ProxyProcess | undefined, member: string) => {
    const response = await call(proxy, 'POST', '/session', { body: { demoUser: member } });
    assert.equal(response.status, 200, response.text);
    return response.body.token as string;
  };
  const primaryPort = async () =>
    Number(((await askSentinel(sentinels[0]?.port ?? 0, 'get-master-addr-by-name', NAME)) as string[])[1]);

  /** Every Sentinel sees the primary, its replicas and the two other Sentinels. */
  const sentinelsReady = (replicas: number) =>
    eventually(
      'the Sentinels to see the primary, the replicas and each other',
      async () => {
        for (const sentinel of sentinels) {
          const master = fields(await askSentinel(sentinel.port, 'master', NAME));
          if (Number(master['num-slaves']) < replicas || Number(master['num-other-sentinels']) < 2)
            return false;
          if (!/^master$/.test(master['flags'] ?? '')) return false;
        }
        return true;
      },
      15_000,
    );

  before(async () => {
    primary = await startRedis();
    replica = await startRedis({ args: ['--replicaof', '127.0.0.1', String(primary.port)] });
    servers.push(primary, replica);
    await inSync(replica);
    for (let i = 0; i < 3; i++) {
      sentinels.push(
        await startRedis({
          sentinel: [
            `sentinel monitor ${NAME} 127.0.0.1 ${primary.port} 2`,
            `sentinel down-after-milliseconds ${NAME} 1000`,
            `sentinel failover-timeout ${NAME} 4000`,
            `sentinel parallel-syncs ${NAME} 1`,
          ],
        }),
      );
    }
    await sentinelsReady(1);

    sandbox = await startTestSandbox({
      professionals: { mode: 'manual' },
      // Redelivered soon: a delivery answered 503 during the failover comes again within seconds.
      webhookRetryDelaysMs: [300, 700, 1500, 3000, 5000],
    });
    balancer = await startBalancer();
    const webhook = await sandbox.call('POST', '/webhook', {
      body: { url: `${balancer.url}/consult/webhooks` },
    });
    assert.equal(webhook.status, 201, JSON.stringify(webhook.body));
    for (let i = 0; i < 2; i++) {
      proxies.push(
        await spawnProxy({
          upstreamUrl: sandbox.url,
          apiKey: sandbox.sandbox.apiKeys[0] ?? 'sandbox-api-key',
          sessionSecret: SESSION_SECRET,
          sentinels: sentinels.map((sentinel) => ({ host: '127.0.0.1', port: sentinel.port })),
          sentinelName: NAME,
          prefix: 'sentinel:',
          webhookSecret: webhook.body.secret as string,
          limits: { perMemberPerMinute: 100_000, streamsPerMember: 100 },
        }),
      );
    }
    balancer.route(proxies.map((proxy) => new URL(proxy.url).origin));
  });

  after(async () => {
    for (const proxy of proxies) await proxy.kill();
    await balancer?.close();
    await sandbox?.close();
    for (const sentinel of sentinels) await sentinel.stop();
    for (const server of servers) await server.stop();
  });

  /**
   * Members on both proxies with streams open and questions asked; `fail` fails the primary over;
   * meanwhile they keep asking (each question under its own Idempotency-Key, retried until
   * answered) and the service answers their cases by webhook. Then: each question made one
   * consultation, every stream got its answer or a reset, and the signed-out member's token is
   * still refused.
   */
  async function underFailover(round: string, fail: () => Promise<void>) {
    const [a, b] = proxies;
    // Alex and Noor have plans (the sandbox's seed); Sam signs in and out.
    const members = ['alex', 'noor'] as const;
    const tokens = { alex: await signIn(a, 'alex'), noor: await signIn(b, 'noor') };
    // Signed out before the failover: must stay signed out after it.
    const ended = await signIn(a, 'sam');
    assert.equal((await call(b, 'DELETE', '/session', { token: ended })).status, 204);
    assert.equal((await call(a, 'GET', '/user/usr_demo_sam', { token: ended })).status, 401);

    const cases: Record<string, string> = {};
    for (const member of members) {
      const created = await call(member === 'alex' ? a : b, 'POST', '/consultation', {
        token: tokens[member],
        headers: { 'idempotency-key': `${round}-${member}-case` },
        body: { questions: [`Before the ${round} failover, ${member}?`] },
      });
      assert.equal(created.status, 201, created.text);
      cases[member] = created.body.consultationId as string;
    }
    const streams: Record<string, SseStream[]> = {
      alex: [await openEventStream(`${a?.url}/events`, tokens.alex)],
      noor: [await openEventStream(`${b?.url}/events`, tokens.noor)],
    };
    for (const member of members) await streams[member]?.[0]?.next((item) => item.event === 'ready');

    // Traffic: each member asks question after question, each retried under its key until answered.
    const statuses: number[] = [];
    const asked: { key: string; text: string; ids: Set<string> }[] = [];
    let stop = false;
    const traffic = Promise.all(
      members.map(async (member, m) => {
        for (let n = 0; !stop && n < 200; n++) {
          const key = `${round}-${member}-${n}`;
          const text = `During the ${round} failover, ${member} asks ${n}?`;
          const question = { key, text, ids: new Set<string>() };
          asked.push(question);
          for (let attempt = 0; attempt < 100; attempt++) {
            const proxy = proxies[(n + attempt + m) % 2];
            const response = await call(proxy, 'POST', '/consultation', {
              token: tokens[member],
              headers: { 'idempotency-key': key },
              body: { questions: [text] },
            }).catch(() => ({ status: 0, body: undefined }));
            statuses.push(response.status);
            if (response.status === 201) {
              question.ids.add(response.body.consultationId as string);
              // The same key again, on the other instance: the same consultation.
              const again = await call(proxies[(n + attempt + m + 1) % 2], 'POST', '/consultation', {
                token: tokens[member],
                headers: { 'idempotency-key': key },
                body: { questions: [text] },
              }).catch(() => ({ status: 0, body: undefined }));
              statuses.push(again.status);
              if (again.status === 201) question.ids.add(again.body.consultationId as string);
              break;
            }
            await sleep(100);
          }
          await sleep(50);
        }
      }),
    );

    try {
      return await checked();
    } finally {
      stop = true;
      await traffic;
      for (const member of members) for (const stream of streams[member] ?? []) stream.close();
    }

    async function checked() {
      await sleep(300);
      await fail();
      // The service answers both cases while the store is failing over: its deliveries are answered
      // 503 until the new primary is found, and redelivered.
      for (const member of members)
        await sandbox.control(`/consultations/${cases[member]}/answer`, { answer: `Yes, ${member}.` });

      // Every stream gets its answer or a reset (reconnecting from its Last-Event-ID if it ended).
      for (const member of members) {
        await eventually(
          `${member}'s stream to get the answer or a reset`,
          async () => {
            const current = streams[member]?.at(-1);
            if (!current) return false;
            const heard = (streams[member] ?? []).some((stream) =>
              stream.items.some(
                (item) =>
                  item.event === 'reset' ||
                  (item.event === 'consultation' && item.data?.includes(cases[member] ?? '-') === true),
              ),
            );
            if (heard) return true;
            if (current.ended()) {
              const lastId = [...current.items].reverse().find((item) => item.id)?.id;
              streams[member]?.push(
                await openEventStream(
                  `${proxies[(streams[member]?.length ?? 0) % 2]?.url}/events`,
                  tokens[member],
                  {
                    ...(lastId ? { 'last-event-id': lastId } : {}),
                  },
                ),
              );
            }
            await sleep(100);
            return false;
          },
          20_000,
        ).catch((error: Error) => {
          // What happened to the deliveries and the streams, for whoever reads the failure.
          const deliveries = sandbox.sandbox.webhookDeliveries.map(
            (d) => `${d.event.type} #${d.attempt} ${d.status ?? d.error ?? ''}`,
          );
          const items = (streams[member] ?? []).map((stream) =>
            JSON.stringify(stream.items.filter((item) => item.event)),
          );
          const logs = proxies.flatMap((proxy) => proxy.logs.filter((entry) => entry['level'] !== 'info'));
          throw new Error(
            `${error.message}\ndeliveries: ${deliveries.join('; ')}\nstreams: ${items.join(' | ')}\nlogs: ${JSON.stringify(logs)}`,
          );
        });
      }
      // The traffic goes on until questions were asked past the failover too: a slow machine asks
      // fewer while the new primary is being found.
      await eventually('questions asked after the failover', () => asked.length >= 4, 30_000);
      stop = true;
      await traffic;

      // Nothing duplicated: one consultation per question, whatever instance and however often asked.
      const all = [...sandbox.sandbox.state.consultations.values()];
      assert.ok(asked.length >= 4, `questions asked: ${asked.length}`);
      for (const question of asked.filter((q) => q.ids.size > 0)) {
        assert.equal(question.ids.size, 1, `${question.key} answered with one consultation`);
        const made = all.filter((c) => c.questions.some((q) => q.question === question.text));
        assert.equal(made.length, 1, `${question.key} made ${made.length} consultations`);
      }
      // The questions asked as the failover began went through once it was over.
      assert.ok(asked.filter((q) => q.ids.size > 0).length >= asked.length - members.length);
      // Only store_unavailable while it failed over, never a 500.
      assert.deepEqual(
        [...new Set(statuses.filter((s) => s !== 201))].filter((s) => s !== 503),
        [],
      );
      // Event ids on a stream are never repeated.
      for (const member of members)
        for (const stream of streams[member] ?? []) {
          const ids = stream.items.filter((item) => item.event === 'consultation').map((item) => item.id);
          assert.equal(
            new Set(ids).size,
            ids.length,
            `${member}: ${JSON.stringify(stream.items.filter((item) => item.event))}`,
          );
        }

      // Nothing revived: the ended session is still refused, by both instances.
      for (const proxy of proxies)
        assert.equal((await call(proxy, 'GET', '/user/usr_demo_sam', { token: ended })).status, 401);
      // And both instances serve again, on the new primary.
      for (const proxy of proxies) {
        assert.equal((await call(proxy, 'GET', '/readyz')).status, 200);
        assert.equal((await call(proxy, 'GET', '/user/usr_demo_alex', { token: tokens.alex })).status, 200);
      }
      // How each stream heard of its answer, for the record.
      const heard = members.map((member) => {
        const items = (streams[member] ?? []).flatMap((stream) => stream.items);
        const answered = items.some(
          (item) => item.event === 'consultation' && item.data?.includes(cases[member] ?? '-'),
        );
        const reset = items.some((item) => item.event === 'reset');
        return `${member}: ${[answered ? 'answer' : '', reset ? 'reset' : ''].filter(Boolean).join(' + ')} on ${streams[member]?.length} stream(s)`;
      });
      return { statuses, heard };
    }
  }

  it('the primary is killed under traffic: the replica takes over, nothing duplicated or revived, answers arrive', async () => {
    const before = await primaryPort();
    assert.equal(before, primary.port);
    const started = Date.now();
    const { statuses, heard } = await underFailover('killed', async () => {
      process.kill(primary.pid, 'SIGKILL');
      await eventually(
        'the Sentinels to promote the replica',
        async () => (await primaryPort()) === replica.port,
        20_000,
      );
    });
    console.log(
      `killed primary: ${statuses.length} answers, ${statuses.filter((s) => s === 503).length} were 503, ${Date.now() - started} ms in all; ${heard.join(', ')}`,
    );
  });

  it('SENTINEL FAILOVER under traffic: both instances follow the new primary; nothing duplicated or revived, answers arrive', async () => {
    // A replica for the new primary, so there is one to fail over to.
    const spare = await startRedis({ args: ['--replicaof', '127.0.0.1', String(replica.port)] });
    servers.push(spare);
    // Promoted before its first sync, it would be an empty primary: a store that lost its data.
    await inSync(spare);
    await sentinelsReady(1);
    await eventually(
      'the spare to be a replica the Sentinels can promote',
      async () => {
        const replicas = (await askSentinel(sentinels[0]?.port ?? 0, 'replicas', NAME)) as unknown[];
        return replicas.map(fields).some((r) => r['port'] === String(spare.port) && r['flags'] === 'slave');
      },
      // Sentinels read a primary's replicas from its INFO every 10 s.
      25_000,
    );
    const started = Date.now();
    const { statuses, heard } = await underFailover('manual', async () => {
      await askSentinel(sentinels[0]?.port ?? 0, 'failover', NAME);
      await eventually(
        'the spare to be the primary',
        async () => (await primaryPort()) === spare.port,
        20_000,
      );
    });
    console.log(
      `SENTINEL FAILOVER: ${statuses.length} answers, ${statuses.filter((s) => s === 503).length} were 503, ${Date.now() - started} ms in all; ${heard.join(', ')}`,
    );
  });
});
