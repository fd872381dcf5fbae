/**
 * `consult-proxy` (src/proxy/cli.ts): the environment is read with messages that say what to set,
 * demo sign-in is refused against anything but a sandbox, and with everything right the proxy
 * starts and answers.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import webPush from 'web-push';
import { readProxyEnv } from '../../src/proxy/cli.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';
import { freePort, openEventStream, rawRequest } from './support/proxy.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECRET = 'cli-test-session-secret-0123456789-abcdefghijkl';
const CHILD_TIMEOUT_MS = 20_000;

const GOOD = {
  CONSULT_UPSTREAM_URL: 'http://127.0.0.1:8788',
  CONSULT_API_KEY: 'sandbox-api-key',
  CONSULT_SESSION_SECRET: SECRET,
};

describe('readProxyEnv', () => {
  it('a complete environment gives a config with defaults', () => {
    const { config, problems } = readProxyEnv({ ...GOOD });
    assert.deepEqual(problems, []);
    assert.deepEqual(config, {
      upstreamUrl: GOOD.CONSULT_UPSTREAM_URL,
      apiKey: GOOD.CONSULT_API_KEY,
      sessionSecret: SECRET,
      allowedOrigins: [],
      demoSignIn: false,
      basePath: '/consult',
      port: 8787,
      trustedProxies: [],
    });
  });

  it('reads the optional variables', () => {
    const { config, problems } = readProxyEnv({
      ...GOOD,
      CONSULT_SUB_PARTNER: 'acme',
      CONSULT_ALLOWED_ORIGINS: 'https://portal.example, https://staff.example',
      CONSULT_PUBLIC_URL: 'https://portal.example/consult',
      CONSULT_WEBHOOK_SECRET: `whsec_${'A'.repeat(32)}`,
      CONSULT_DEMO_SIGN_IN: '1',
      CONSULT_BASE_PATH: '/api/consult/',
      CONSULT_REDIS_URL: 'redis://cache.internal:6379',
      CONSULT_TRUSTED_PROXIES: '10.0.0.0/8, 192.0.2.7',
      PORT: '9000',
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(config?.trustedProxies, ['10.0.0.0/8', '192.0.2.7']);
    assert.equal(config?.redisUrl, 'redis://cache.internal:6379');
    assert.equal(config?.subPartnerName, 'acme');
    assert.deepEqual(config?.allowedOrigins, ['https://portal.example', 'https://staff.example']);
    assert.equal(config?.publicUrl, 'https://portal.example/consult');
    assert.equal(config?.webhookSecret, `whsec_${'A'.repeat(32)}`);
    assert.equal(config?.demoSignIn, true);
    assert.equal(config?.basePath, '/api/consult');
    assert.equal(config?.port, 9000);
  });

  it('CONSULT_VAPID_*: all three keys turn on notifications, with CONSULT_PUSH_PAGE the page a tap opens', () => {
    const keys = webPush.generateVAPIDKeys();
    const { config, problems } = readProxyEnv({
      ...GOOD,
      CONSULT_VAPID_PUBLIC_KEY: keys.publicKey,
      CONSULT_VAPID_PRIVATE_KEY: keys.privateKey,
      CONSULT_VAPID_SUBJECT: 'mailto:care@portal.example',
      CONSULT_PUSH_PAGE: 'https://portal.example/care',
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(config?.push, {
      vapid: { ...keys, subject: 'mailto:care@portal.example' },
      page: 'https://portal.example/care',
    });
    assert.equal(readProxyEnv({ ...GOOD }).config?.push, undefined, 'none set: no notifications');
  });

  it('CONSULT_VAPID_* with a key missing or malformed, or a subject that is no mailto: or https: URL, is named', () => {
    const keys = webPush.generateVAPIDKeys();
    const cases: [Record<string, string>, RegExp][] = [
      [{ CONSULT_VAPID_PUBLIC_KEY: keys.publicKey }, /CONSULT_VAPID_PRIVATE_KEY/],
      [
        {
          CONSULT_VAPID_PUBLIC_KEY: 'not-a-key',
          CONSULT_VAPID_PRIVATE_KEY: keys.privateKey,
          CONSULT_VAPID_SUBJECT: 'mailto:care@portal.example',
        },
        /CONSULT_VAPID_PUBLIC_KEY/,
      ],
      [
        {
          CONSULT_VAPID_PUBLIC_KEY: keys.publicKey,
          CONSULT_VAPID_PRIVATE_KEY: keys.privateKey,
          CONSULT_VAPID_SUBJECT: 'care@portal.example',
        },
        /CONSULT_VAPID_SUBJECT/,
      ],
    ];
    for (const [vapid, named] of cases) {
      const { config, problems } = readProxyEnv({ ...GOOD, ...vapid });
      assert.equal(config, undefined, JSON.stringify(vapid));
      assert.ok(
        problems.some((problem) => named.test(problem)),
        `${JSON.stringify(vapid)}: ${problems.join('; ')}`,
      );
    }
  });

  it('a CONSULT_TRUSTED_PROXIES entry that is not an address or range is named', () => {
    const { config, problems } = readProxyEnv({
      ...GOOD,
      CONSULT_TRUSTED_PROXIES: '10.0.0.0/8, balancer.internal',
    });
    assert.equal(config, undefined);
    assert.match(problems.join('\n'), /CONSULT_TRUSTED_PROXIES .*"balancer.internal"/);
  });

  it('CONSULT_TRUSTED_PROXIES takes IPv6 addresses and ranges as well as IPv4 ones', () => {
    const { config, problems } = readProxyEnv({
      ...GOOD,
      CONSULT_TRUSTED_PROXIES: '10.0.0.0/8, 2001:db8::/32, fd00::7, ::ffff:10.0.0.0/104',
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(config?.trustedProxies, [
      '10.0.0.0/8',
      '2001:db8::/32',
      'fd00::7',
      '::ffff:10.0.0.0/104',
    ]);
  });

  it('a CONSULT_TRUSTED_PROXIES range with too many bits, of either family, is named', () => {
    const { config, problems } = readProxyEnv({
      ...GOOD,
      CONSULT_TRUSTED_PROXIES: '10.0.0.0/33, 2001:db8::/129, 10.0.0.0/8',
    });
    assert.equal(config, undefined);
    assert.equal(problems.length, 2, problems.join('\n'));
    assert.match(
      problems[0] ?? '',
      /CONSULT_TRUSTED_PROXIES must list addresses or ranges .*"10\.0\.0\.0\/33"/,
    );
    assert.match(problems[1] ?? '', /"2001:db8::\/129"/);
  });

  it('CONSULT_REDIS_SENTINELS and CONSULT_REDIS_SENTINEL_NAME: a primary under Sentinel', () => {
    const { config, problems } = readProxyEnv({
      ...GOOD,
      CONSULT_REDIS_SENTINELS: '10.0.0.5:26379, sentinel-b.internal:26380,[fd00::7]:26379',
      CONSULT_REDIS_SENTINEL_NAME: 'mymaster',
      CONSULT_REDIS_URL: 'redis://:secret@ignored:6379/2',
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(config?.redisSentinels, [
      { host: '10.0.0.5', port: 26379 },
      { host: 'sentinel-b.internal', port: 26380 },
      { host: 'fd00::7', port: 26379 },
    ]);
    assert.equal(config?.redisSentinelName, 'mymaster');
    assert.equal(config?.redisUrl, 'redis://:secret@ignored:6379/2');
  });

  it('Sentinels that are not host:port, or without a name, or a name without Sentinels, are named', () => {
    const bad = readProxyEnv({
      ...GOOD,
      CONSULT_REDIS_SENTINELS: '10.0.0.5, 10.0.0.6:99999, redis://10.0.0.7:26379',
    });
    assert.equal(bad.config, undefined);
    const text = bad.problems.join('\n');
    for (const entry of ['"10.0.0.5"', '"10.0.0.6:99999"', '"redis://10.0.0.7:26379"'])
      assert.ok(
        text.includes(`CONSULT_REDIS_SENTINELS must list host:port pairs`) && text.includes(entry),
        entry,
      );
    assert.match(text, /CONSULT_REDIS_SENTINEL_NAME is not set/);
    const nameOnly = readProxyEnv({ ...GOOD, CONSULT_REDIS_SENTINEL_NAME: 'mymaster' });
    assert.equal(nameOnly.config, undefined);
    assert.match(nameOnly.problems.join('\n'), /CONSULT_REDIS_SENTINELS is not/);
  });

  it('a CONSULT_REDIS_URL that is not a redis URL is named', () => {
    const { config, problems } = readProxyEnv({ ...GOOD, CONSULT_REDIS_URL: 'cache.internal:6379' });
    assert.equal(config, undefined);
    assert.match(problems.join('\n'), /CONSULT_REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
  });

  for (const [name, hint] of [
    ['CONSULT_UPSTREAM_URL', /URL of the consultation service/],
    ['CONSULT_API_KEY', /API key/],
    ['CONSULT_SESSION_SECRET', /32\+ characters/],
  ] as const) {
    it(`a missing ${name} is named, with what to set`, () => {
      const env = Object.fromEntries(Object.entries(GOOD).filter(([key]) => key !== name));
      const { config, problems } = readProxyEnv(env);
      assert.equal(config, undefined);
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(problems[0] ?? '', new RegExp(`^${name} is not set: `));
      assert.match(problems[0] ?? '', hint);
      // Blank is missing too.
      const blank = readProxyEnv({ ...GOOD, [name]: '   ' });
      assert.match(blank.problems.join('\n'), new RegExp(`${name} is not set`));
    });
  }

  it('everything missing: every variable is named at once', () => {
    const { config, problems } = readProxyEnv({});
    assert.equal(config, undefined);
    for (const name of ['CONSULT_UPSTREAM_URL', 'CONSULT_API_KEY', 'CONSULT_SESSION_SECRET']) {
      assert.ok(
        problems.some((p) => p.startsWith(name)),
        `${name} in ${problems.join('; ')}`,
      );
    }
  });

  it('a short session secret is refused', () => {
    const { config, problems } = readProxyEnv({ ...GOOD, CONSULT_SESSION_SECRET: 'too-short' });
    assert.equal(config, undefined);
    assert.deepEqual(problems, ['CONSULT_SESSION_SECRET must be at least 32 characters']);
  });

  it('a blank PORT is the default, not a random port', () => {
    assert.equal(readProxyEnv({ ...GOOD, PORT: '' }).config?.port, 8787);
    assert.equal(readProxyEnv({ ...GOOD, PORT: '0' }).config?.port, 0);
  });

  for (const port of ['abc', '-1', '65536', '80.5', '0x50', '1e3', '80 80']) {
    it(`PORT="${port}" is refused`, () => {
      const { config, problems } = readProxyEnv({ ...GOOD, PORT: port });
      assert.equal(config, undefined);
      assert.equal(problems.length, 1);
      assert.match(problems[0] ?? '', /^PORT must be a port number; got "/);
    });
  }

  it('a bad base path and a bad demo flag are refused', () => {
    const { problems } = readProxyEnv({ ...GOOD, CONSULT_BASE_PATH: 'consult', CONSULT_DEMO_SIGN_IN: 'yes' });
    assert.equal(problems.length, 2);
    assert.match(problems.join('\n'), /CONSULT_BASE_PATH must start with \//);
    assert.match(problems.join('\n'), /CONSULT_DEMO_SIGN_IN must be 1 or 0/);
  });
});

interface Child {
  process: ChildProcess;
  output(): string;
  /** Resolves with the exit code (null after a signal). */
  exited: Promise<number | null>;
}

function startCli(env: Record<string, string>, entry = 'src/proxy/cli.ts', args: string[] = []): Child {
  const {
    CONSULT_UPSTREAM_URL: _u,
    CONSULT_API_KEY: _k,
    CONSULT_SESSION_SECRET: _s,
    CONSULT_PUBLIC_URL: _p,
    ...inherited
  } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
    cwd: ROOT,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // Never outlive the test, whatever happens.
  const guard = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
  void exited.finally(() => clearTimeout(guard));
  return { process: child, output: () => output, exited };
}

/** Waits for the CLI's start line and answers the proxy's origin. */
function started(child: Child): Promise<string> {
  return within(
    (async () => {
      for (;;) {
        const match = /consult-proxy on (http:\/\/127\.0\.0\.1:\d+)\/consult/.exec(child.output());
        if (match?.[1]) return match[1];
        if (child.process.exitCode !== null) throw new Error(`the CLI exited: ${child.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })(),
    CHILD_TIMEOUT_MS,
    'the CLI to start',
  );
}

/** The JSON log lines the CLI printed that warn about a missing public URL. */
function publicUrlWarnings(output: string): Array<Record<string, unknown>> {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry['level'] === 'warn' && /no public URL/i.test(String(entry['message'])));
}

/** The data of the `ready` event a member's event stream on the CLI's proxy starts with. */
async function readyData(origin: string, token: string): Promise<Record<string, unknown>> {
  const stream = await openEventStream(`${origin}/consult/events`, token);
  try {
    assert.equal(stream.status, 200);
    const ready = await stream.next((item) => item.event === 'ready');
    return JSON.parse(ready.data ?? '{}') as Record<string, unknown>;
  } finally {
    stream.close();
  }
}

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe('consult-proxy as a process', () => {
  let sandbox: TestSandbox;
  let notSandbox: Server;
  let notSandboxUrl: string;
  const children: Child[] = [];

  before(async () => {
    sandbox = await startTestSandbox();
    notSandbox = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('no'));
    await new Promise<void>((resolve) => notSandbox.listen(0, '127.0.0.1', resolve));
    notSandboxUrl = `http://127.0.0.1:${(notSandbox.address() as AddressInfo).port}`;
  });

  after(async () => {
    for (const child of children) if (child.process.exitCode === null) child.process.kill('SIGKILL');
    await sandbox?.close();
    await new Promise<void>((resolve) => {
      notSandbox?.close(() => resolve());
      notSandbox?.closeAllConnections();
    });
  });

  for (const flag of ['--help', '-h']) {
    it(`${flag}: prints what it is and every variable it reads, exit 0, and starts nothing`, async () => {
      // An environment it would start with: the help must not start it.
      const child = startCli(
        {
          CONSULT_UPSTREAM_URL: sandbox.url,
          CONSULT_API_KEY: 'sandbox-api-key',
          CONSULT_SESSION_SECRET: SECRET,
          CONSULT_DEMO_SIGN_IN: '1',
          PORT: '0',
        },
        'src/proxy/cli.ts',
        [flag],
      );
      children.push(child);
      const code = await within(child.exited, CHILD_TIMEOUT_MS, 'the CLI to exit');
      assert.equal(code, 0, child.output());
      assert.match(child.output(), /^Usage: consult-proxy \[--help\]$/m);
      // Every variable readProxyEnv reads.
      const source = readFileSync(join(ROOT, 'src/proxy/cli.ts'), 'utf8');
      const read = new Set(
        [...source.slice(0, source.indexOf('export const HELP')).matchAll(/'(CONSULT_[A-Z_]+|PORT)'/g)].map(
          (m) => m[1]!,
        ),
      );
      assert.ok(read.size >= 12, [...read].join(' '));
      for (const name of read) assert.match(child.output(), new RegExp(`^  ${name} `, 'm'), name);
      assert.doesNotMatch(child.output(), /consult-proxy on http|cannot start/);
    });
  }

  it('an argument it does not take: exits 2 and says it is configured from the environment', async () => {
    const child = startCli({ ...GOOD, CONSULT_DEMO_SIGN_IN: '1', PORT: '0' }, 'src/proxy/cli.ts', [
      '--port',
      '80',
    ]);
    children.push(child);
    const code = await within(child.exited, CHILD_TIMEOUT_MS, 'the CLI to exit');
    assert.equal(code, 2, child.output());
    assert.match(child.output(), /unknown argument "--port"; it is configured from the environment/);
    assert.match(child.output(), /Usage: consult-proxy/);
  });

  it('with a missing variable: exits 1 and names it', async () => {
    const child = startCli({ CONSULT_API_KEY: 'sandbox-api-key', CONSULT_SESSION_SECRET: SECRET, PORT: '0' });
    children.push(child);
    const code = await within(child.exited, CHILD_TIMEOUT_MS, 'the CLI to exit');
    assert.equal(code, 1, child.output());
    assert.match(child.output(), /cannot start/);
    assert.match(child.output(), /CONSULT_UPSTREAM_URL is not set/);
  });

  it('with a malformed CONSULT_TRUSTED_PROXIES range: exits 1 at start and names the entry', async () => {
    const child = startCli({
      CONSULT_UPSTREAM_URL: sandbox.url,
      CONSULT_API_KEY: 'sandbox-api-key',
      CONSULT_SESSION_SECRET: SECRET,
      CONSULT_DEMO_SIGN_IN: '1',
      CONSULT_TRUSTED_PROXIES: '10.0.0.0/8, 2001:db8::/200',
      PORT: '0',
    });
    children.push(child);
    const code = await within(child.exited, CHILD_TIMEOUT_MS, 'the CLI to exit');
    assert.equal(code, 1, child.output());
    assert.match(child.output(), /cannot start/);
    assert.match(child.output(), /CONSULT_TRUSTED_PROXIES must list addresses or ranges .*"2001:db8::\/200"/);
    assert.doesNotMatch(child.output(), /consult-proxy on http/);
  });

  it('run through a symlink, as npm installs the bin: still runs and names what is missing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'consult-proxy-bin-'));
    const link = join(dir, 'consult-proxy.ts');
    await symlink(join(ROOT, 'src/proxy/cli.ts'), link);
    const child = startCli(
      { CONSULT_API_KEY: 'sandbox-api-key', CONSULT_SESSION_SECRET: SECRET, PORT: '0' },
      link,
    );
    children.push(child);
    const code = await within(child.exited, CHILD_TIMEOUT_MS, 'the CLI to exit');
    assert.equal(code, 1, child.output());
    assert.match(child.output(), /CONSULT_UPSTREAM_URL is not set/);
    await rm(dir, { recursive: true, force: true });
  });

  it('CONSULT_DEMO_SIGN_IN=1 against an upstream that is not a sandbox: exits 1 and says so', async () => {
    const child = startCli({
      CONSULT_UPSTREAM_URL: notSandboxUrl,
      CONSULT_API_KEY: 'real-api-key',
      CONSULT_SESSION_SECRET: SECRET,
      CONSULT_DEMO_SIGN_IN: '1',
      PORT: '0',
    });
    children.push(child);
    const code = await within(child.exited, CHILD_TIMEOUT_MS, 'the CLI to exit');
    assert.equal(code, 1, child.output());
    assert.match(child.output(), /CONSULT_DEMO_SIGN_IN=1/);
    assert.match(child.output(), /is not a sandbox/);
    assert.ok(!child.output().includes('real-api-key'), 'the API key is not printed');
  });

  it('with an API key the service refuses: exits 1 at start and names CONSULT_API_KEY', async () => {
    const child = startCli({
      CONSULT_UPSTREAM_URL: sandbox.url,
      CONSULT_API_KEY: 'not-the-sandbox-key',
      CONSULT_SESSION_SECRET: SECRET,
      CONSULT_DEMO_SIGN_IN: '1',
      PORT: '0',
    });
    children.push(child);
    const code = await within(child.exited, CHILD_TIMEOUT_MS, 'the CLI to exit');
    assert.equal(code, 1, child.output());
    assert.match(
      child.output(),
      /cannot start: the service refused the API key \(401 [\w_]+\): check CONSULT_API_KEY/,
    );
    assert.ok(!child.output().includes('not-the-sandbox-key'), 'the API key is not printed');
  });

  it('with demo sign-in and nothing at CONSULT_UPSTREAM_URL: exits 1, saying it could not be reached and what to do', async () => {
    const child = startCli({
      CONSULT_UPSTREAM_URL: `http://127.0.0.1:${await freePort()}`,
      CONSULT_API_KEY: 'sandbox-api-key',
      CONSULT_SESSION_SECRET: SECRET,
      CONSULT_DEMO_SIGN_IN: '1',
      PORT: '0',
    });
    children.push(child);
    const code = await within(child.exited, CHILD_TIMEOUT_MS, 'the CLI to exit');
    assert.equal(code, 1, child.output());
    assert.match(child.output(), /could not be reached/);
    assert.match(child.output(), /npx consult-sandbox/);
  });

  it('against a test sandbox with demo sign-in: starts, answers /consult/healthz and a sign-in', async () => {
    const child = startCli({
      CONSULT_UPSTREAM_URL: sandbox.url,
      CONSULT_API_KEY: 'sandbox-api-key',
      CONSULT_SESSION_SECRET: SECRET,
      CONSULT_DEMO_SIGN_IN: '1',
      PORT: '0',
    });
    children.push(child);
    const url = await started(child);
    const health = await rawRequest(url, 'GET', '/consult/healthz');
    assert.equal(health.status, 200);
    assert.deepEqual(health.body, { ok: true });
    const session = await rawRequest(url, 'POST', '/consult/session', { body: { demoUser: 'alex' } });
    assert.equal(session.status, 200, session.text);
    assert.equal(session.body.user.id, 'usr_demo_alex');
    assert.ok(!child.output().includes('sandbox-api-key'), 'the API key is not printed');
    assert.ok(!child.output().includes(session.body.token), 'the widget token is not printed');

    child.process.kill('SIGTERM');
    const code = await within(child.exited, 5000, 'the CLI to stop');
    assert.equal(code, 0, child.output());
  });

  it('without CONSULT_PUBLIC_URL: warns once, as a JSON log line, that answers are polled and what to set', async () => {
    const child = startCli({
      CONSULT_UPSTREAM_URL: sandbox.url,
      CONSULT_API_KEY: 'sandbox-api-key',
      CONSULT_SESSION_SECRET: SECRET,
      CONSULT_DEMO_SIGN_IN: '1',
      PORT: '0',
    });
    children.push(child);
    const url = await started(child);
    const warnings = publicUrlWarnings(child.output());
    assert.equal(warnings.length, 1, child.output());
    const message = String(warnings[0]?.['message']);
    assert.match(message, /no webhook is registered/);
    assert.match(message, /polling/);
    assert.match(message, /set CONSULT_PUBLIC_URL/);
    assert.equal(typeof warnings[0]?.['time'], 'string');
    // The member's stream says so too: answers will not be pushed.
    const session = await rawRequest(url, 'POST', '/consult/session', { body: { demoUser: 'alex' } });
    assert.equal(session.status, 200, session.text);
    assert.equal((await readyData(url, session.body.token))['webhooks'], false);

    child.process.kill('SIGTERM');
    assert.equal(await within(child.exited, 5000, 'the CLI to stop'), 0, child.output());
    assert.equal(publicUrlWarnings(child.output()).length, 1, 'said once, at start');
  });

  it('with CONSULT_PUBLIC_URL: registers its webhook, no such warning, and the stream says webhooks: true', async () => {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}/consult`;
    const child = startCli({
      CONSULT_UPSTREAM_URL: sandbox.url,
      CONSULT_API_KEY: 'sandbox-api-key',
      CONSULT_SESSION_SECRET: SECRET,
      CONSULT_DEMO_SIGN_IN: '1',
      CONSULT_PUBLIC_URL: publicUrl,
      PORT: String(port),
    });
    children.push(child);
    const url = await started(child);
    assert.deepEqual(publicUrlWarnings(child.output()), [], child.output());
    assert.doesNotMatch(child.output(), /CONSULT_PUBLIC_URL/);
    const hooks = [...sandbox.sandbox.state.webhooks.values()].filter(
      (w) => w.url === `${publicUrl}/webhooks`,
    );
    assert.equal(hooks.length, 1, 'its webhook is registered');
    const session = await rawRequest(url, 'POST', '/consult/session', { body: { demoUser: 'alex' } });
    assert.equal(session.status, 200, session.text);
    assert.equal((await readyData(url, session.body.token))['webhooks'], true);

    child.process.kill('SIGTERM');
    assert.equal(await within(child.exited, 5000, 'the CLI to stop'), 0, child.output());
  });
});
