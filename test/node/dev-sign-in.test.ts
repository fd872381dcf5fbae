/**
 * The development sign-in's guards (docs/security.md S26), as the examples use them: NODE_ENV,
 * the upstream (a real sandbox, a service without the sandbox's controls, one that cannot be
 * reached) and each request's origin (forwarding headers, host name, socket address, Sec-Fetch-Site).
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { devSignInRefusal, devSignInRequestRefusal, isDevelopmentEnv } from '../../src/proxy/dev-sign-in.js';
import { freePort } from './support/proxy.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';

const signIn = (headers: Record<string, string>) =>
  new Request('http://127.0.0.1:8080/dev/sign-in?member=alex', {
    headers: { host: '127.0.0.1:8080', ...headers },
  });

describe('the development sign-in at start', () => {
  let sandbox: TestSandbox;
  before(async () => {
    sandbox = await startTestSandbox();
  });
  after(async () => {
    await sandbox?.close();
  });

  it('runs only under NODE_ENV unset or a development one, compared without case', () => {
    for (const value of [undefined, '', 'development', 'Development', 'DEV', 'test', ' local ']) {
      assert.equal(isDevelopmentEnv(value), true, String(value));
    }
    for (const value of ['production', 'Production', 'PRODUCTION', 'prod', 'live', 'staging', 'qa', 'uat']) {
      assert.equal(isDevelopmentEnv(value), false, value);
    }
  });

  it('says why it will not run under a production NODE_ENV, before asking the upstream anything', async () => {
    const before = sandbox.sandbox.requests.length;
    const refusal = await devSignInRefusal({ upstreamUrl: sandbox.url, nodeEnv: 'Prod' });
    assert.equal(
      refusal,
      'runs only in development, and NODE_ENV is "Prod" (it runs with NODE_ENV unset or one of development, dev, test, local)',
    );
    assert.equal(sandbox.sandbox.requests.length, before);
  });

  it('runs against a sandbox', async () => {
    assert.equal(await devSignInRefusal({ upstreamUrl: sandbox.url, nodeEnv: 'development' }), undefined);
  });

  it('says why it will not run against a service that is not a sandbox, or one it cannot reach', async () => {
    const service = createServer((_, response) => response.writeHead(404).end('{"code":"not_found"}'));
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const { port } = service.address() as AddressInfo;
    try {
      assert.equal(
        await devSignInRefusal({ upstreamUrl: `http://127.0.0.1:${port}/api`, waitMs: 0 }),
        `runs only against a sandbox, and http://127.0.0.1:${port} is not one (it does not answer /_sandbox/clock)`,
      );
    } finally {
      await new Promise((resolve) => service.close(resolve));
    }
    const nobody = await freePort();
    assert.match(
      (await devSignInRefusal({ upstreamUrl: `http://127.0.0.1:${nobody}`, waitMs: 0 })) ?? '',
      /^runs only against a sandbox, and http:\/\/127\.0\.0\.1:\d+ could not be reached to see that it is one/,
    );
  });
});

describe('the development sign-in per request', () => {
  it('answers a request made on this machine, to a loopback host, typed or from this site', () => {
    assert.equal(devSignInRequestRefusal(signIn({}), '127.0.0.1'), undefined);
    assert.equal(devSignInRequestRefusal(signIn({ host: 'localhost:8080' }), '::1'), undefined);
    assert.equal(devSignInRequestRefusal(signIn({ host: '[::1]:8080' }), '::ffff:127.0.0.1'), undefined);
    assert.equal(devSignInRequestRefusal(signIn({ 'sec-fetch-site': 'none' })), undefined);
    // Forwarding headers that name only this machine, as Next.js fills them in from the socket.
    assert.equal(
      devSignInRequestRefusal(
        signIn({
          'x-forwarded-for': '127.0.0.1',
          'x-forwarded-host': '127.0.0.1:8080',
          forwarded: 'for="[::1]:5000";host=localhost;proto=http',
          'x-real-ip': '::1',
        }),
      ),
      undefined,
    );
  });

  it('refuses a request any forwarding header says came from elsewhere or for another host, naming the header', () => {
    const cases: [Record<string, string>, string][] = [
      [{ 'x-forwarded-for': '203.0.113.7' }, 'x-forwarded-for'],
      [{ 'x-forwarded-for': '127.0.0.1, 203.0.113.7' }, 'x-forwarded-for'],
      [{ 'x-forwarded-for': '' }, 'x-forwarded-for'],
      [{ forwarded: 'for=203.0.113.7' }, 'forwarded'],
      [{ forwarded: 'for=unknown' }, 'forwarded'],
      [{ forwarded: 'for=127.0.0.1;host=portal.example' }, 'forwarded'],
      [{ forwarded: 'for=127.0.0.1, for="[2001:db8::1]"' }, 'forwarded'],
      [{ 'x-real-ip': '10.0.0.5' }, 'x-real-ip'],
      [{ 'x-forwarded-host': 'portal.example' }, 'x-forwarded-host'],
      [{ 'x-forwarded-host': 'localhost.evil.example' }, 'x-forwarded-host'],
      [{ 'x-forwarded-for': '203.0.113.7', 'x-real-ip': '203.0.113.7' }, 'x-forwarded-for, x-real-ip'],
    ];
    for (const [headers, named] of cases) {
      assert.equal(
        devSignInRequestRefusal(signIn(headers), '127.0.0.1'),
        `it answers only requests made on this machine, and this one was forwarded from elsewhere (${named})`,
        JSON.stringify(headers),
      );
    }
  });

  it('refuses a request from another address, for another host, or followed from another site', () => {
    assert.equal(
      devSignInRequestRefusal(signIn({}), '192.168.1.20'),
      'it answers only requests made on this machine, and this one came from another address',
    );
    for (const host of ['portal.example', 'portal.example:8080', '127.0.0.1.nip.io', '0.0.0.0:8080']) {
      assert.match(
        devSignInRequestRefusal(signIn({ host }), '127.0.0.1') ?? '',
        /^it answers only at a loopback address/,
        host,
      );
    }
    assert.equal(
      devSignInRequestRefusal(signIn({ 'sec-fetch-site': 'cross-site' }), '127.0.0.1'),
      'open this address yourself: a link from another site does not sign in',
    );
  });
});
