/**
 * One server of the proxy benchmark in a process of its own, so each one's CPU is its own:
 * `sandbox`; `proxy` (in front of UPSTREAM_URL, on the memory store or Redis at REDIS_URL); or
 * `forwarder`, the least any proxy on Hono and Node does (one Hono route that passes the read to
 * UPSTREAM_URL over keep-alive connections: no token, limit or check), as the floor to compare with;
 * or `checking-forwarder`, the same with the least a proxy that keeps members to their own records
 * must add: the answer read as JSON, its owner compared with the member's id, and the fields the
 * elements get projected with the proxy's own schema, compiled as on Node (src/proxy/views.ts;
 * docs/security.md S3, S5), before it is sent.
 * Tells its parent its URL, and its CPU time whenever asked.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { cpuUsage } from 'node:process';
import { Agent, request } from 'undici';
import { startProxyServer } from '../../src/proxy/node.js';
import { ConsultationView } from '../../src/proxy/schemas.js';
import { view } from '../../src/proxy/views.js';
import { RedisProxyStore } from '../../src/proxy/redis-store.js';
import { startSandboxServer } from '../../src/sandbox/node.js';

export type ServerMessage = { url: string } | { cpuMs: number };

const send = (message: ServerMessage) => process.send?.(message);

/** The read as it came (`forwarder`), or checked and projected (`checking-forwarder`). */
type Pass = (text: string) => string;

const passAsItCame: Pass = (text) => text;

/** Owner checked, fields projected: a record that is not `ownerId`'s or not a consultation throws. */
const checkedFor =
  (ownerId: string): Pass =>
  (text) => {
    const record = view(ConsultationView, JSON.parse(text));
    if (record.userId !== ownerId) throw new Error("not the member's record");
    return JSON.stringify(record);
  };

async function startForwarder(upstreamUrl: string, pass: Pass): Promise<string> {
  const dispatcher = new Agent({ connections: 32 });
  const token = (await (
    await fetch(`${upstreamUrl}/partner/authorization/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: 'sandbox-api-key' }),
    })
  ).json()) as { accessToken: string };
  const app = new Hono().get('/consultation/:id', async (c) => {
    const answer = await request(`${upstreamUrl}/consultation/${c.req.param('id')}`, {
      dispatcher,
      headers: { authorization: `Bearer ${token.accessToken}` },
    });
    return c.body(pass(await answer.body.text()), 200, { 'content-type': 'application/json' });
  });
  return new Promise((resolve) => {
    serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve(`http://127.0.0.1:${info.port}`),
    );
  });
}

async function start(): Promise<string> {
  const upstreamUrl = process.env.UPSTREAM_URL ?? '';
  if (process.argv[2] === 'forwarder') return startForwarder(upstreamUrl, passAsItCame);
  if (process.argv[2] === 'checking-forwarder') {
    return startForwarder(upstreamUrl, checkedFor(process.env.OWNER_ID ?? ''));
  }
  if (process.argv[2] === 'sandbox') {
    return (await startSandboxServer({ port: 0, professionals: { mode: 'manual' } })).url;
  }
  const redisUrl = process.env.REDIS_URL;
  const proxy = await startProxyServer({
    upstreamUrl,
    apiKey: 'sandbox-api-key',
    sessionSecret: 'bench-session-secret-0123456789-abcdefghijklmn',
    authenticate: async () => ({ uniqueId: 'alex' }),
    port: 0,
    logger: () => undefined,
    limits: {
      perMemberPerMinute: 1_000_000,
      perAddressPerMinute: 1_000_000,
      signInsPerMemberPerMinute: 1_000_000,
    },
    ...(redisUrl ? { store: new RedisProxyStore({ url: redisUrl, prefix: 'bench:' }) } : {}),
  });
  return `${proxy.url}/consult`;
}

process.on('message', (message) => {
  if (message === 'cpu') {
    const used = cpuUsage();
    send({ cpuMs: (used.user + used.system) / 1000 });
  }
});
process.on('disconnect', () => process.exit(0));
void start().then((url) => send({ url }));
