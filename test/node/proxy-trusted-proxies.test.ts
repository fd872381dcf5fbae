/**
 * The client's address behind trusted balancers (docs/security.md S6): `forwardedClientAddress`
 * matches IPv4 and IPv6 addresses and ranges alike (IPv4-mapped peers included, as a dual-stack
 * socket reports them), believes `X-Forwarded-For` only from them, and refuses a malformed entry
 * at start, naming it.
 */
import assert from 'node:assert/strict';
import type { Context } from 'hono';
import { describe, it } from 'node:test';
import { forwardedClientAddress, trustedProxyList } from '../../src/proxy/node.js';

/** A Hono context as `forwardedClientAddress` reads it: the socket's peer and the request's headers. */
function contextFrom(peer: string, forwardedFor?: string): Context {
  return {
    env: { incoming: { socket: { remoteAddress: peer, remotePort: 1234, remoteFamily: 'IPv6' } } },
    req: {
      header: (name: string) => (name.toLowerCase() === 'x-forwarded-for' ? forwardedFor : undefined),
    },
  } as unknown as Context;
}

describe('trusted balancers: IPv4 and IPv6, addresses and ranges', () => {
  const clientAddress = forwardedClientAddress([
    '10.0.0.0/8',
    '192.0.2.7',
    '2001:db8:1::/48',
    'fd00::5',
    '::ffff:172.16.0.0/108',
  ]);

  for (const [peer, forwardedFor, expected, why] of [
    ['10.1.2.3', '203.0.113.9', '203.0.113.9', 'an IPv4 range'],
    [
      '::ffff:10.0.0.1',
      '203.0.113.9',
      '203.0.113.9',
      'an IPv4 range, the peer IPv4-mapped (dual-stack socket)',
    ],
    ['192.0.2.7', '203.0.113.9', '203.0.113.9', 'an IPv4 address'],
    ['::ffff:192.0.2.7', '203.0.113.9', '203.0.113.9', 'an IPv4 address, the peer IPv4-mapped'],
    ['2001:db8:1:ffff::1', '2001:db8:99::1', '2001:db8:99::1', 'an IPv6 range, an IPv6 client'],
    ['2001:DB8:1::abcd', '203.0.113.9', '203.0.113.9', 'an IPv6 range, written in capitals'],
    ['fd00::5', '203.0.113.9', '203.0.113.9', 'an IPv6 address'],
    ['fd00:0:0:0:0:0:0:5', '203.0.113.9', '203.0.113.9', 'an IPv6 address, written out in full'],
    ['172.16.4.4', '203.0.113.9', '203.0.113.9', 'an IPv4-mapped range matches the IPv4 address'],
    ['2001:db8:2::1', '203.0.113.9', '2001:db8:2::1', 'outside the IPv6 range: the header is not believed'],
    ['11.0.0.1', '203.0.113.9', '11.0.0.1', 'outside the IPv4 range: the header is not believed'],
    ['fd00::6', '203.0.113.9', 'fd00::6', 'next to a trusted address: not trusted'],
    [
      '10.1.2.3',
      '198.51.100.1, 2001:db8:1::9, 10.0.0.2',
      '198.51.100.1',
      'hops through trusted balancers of both families: the nearest untrusted one',
    ],
    [
      '10.1.2.3',
      '198.51.100.1, not-an-address',
      'not-an-address',
      'a hop that is not an address is not trusted',
    ],
  ] as const) {
    it(`${why}: ${peer} with X-Forwarded-For "${forwardedFor}" is ${expected}`, () => {
      assert.equal(clientAddress(contextFrom(peer, forwardedFor)), expected);
    });
  }

  for (const entry of [
    '10.0.0.0/33',
    '2001:db8::/129',
    'balancer.internal',
    '10.0.0.256',
    '10.0.0.0/8/8',
    '10.0.0.0/',
    '10.0.0.0/-1',
    '10.0.0.0/8x',
    '2001:db8::g/32',
    '10.0.0.0 /8',
  ]) {
    it(`refuses "${entry}" at start, naming it`, () => {
      assert.throws(
        () => forwardedClientAddress(['192.0.2.1', entry]),
        (error: Error) =>
          error instanceof TypeError &&
          error.message.includes(`"${entry.trim()}"`) &&
          /addresses or ranges like 10\.0\.0\.0\/8 or 2001:db8::\/32/.test(error.message) &&
          !error.message.includes('192.0.2.1'),
      );
    });
  }

  it('accepts the bounds of both families', () => {
    assert.doesNotThrow(() => trustedProxyList(['0.0.0.0/0', '10.0.0.0/32', '::/0', '::1/128', '::1']));
  });
});
