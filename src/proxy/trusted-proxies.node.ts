/**
 * The load balancers whose forwarding headers the proxy believes: plain Node, no server package,
 * so that `consult-proxy` checks CONSULT_TRUSTED_PROXIES before it loads anything else.
 */
import { BlockList, isIP } from 'node:net';

/**
 * The trusted balancers as a `net.BlockList`: addresses (`192.0.2.7`, `2001:db8::7`) and ranges of
 * either family (`10.0.0.0/8`, `2001:db8::/32`). An IPv4 entry also matches the same address written
 * IPv4-mapped (`::ffff:10.0.0.1`, as a dual-stack socket reports it). Anything else is refused here,
 * at start, with the entry named: a typo must not quietly trust nobody (or everybody).
 */
export function trustedProxyList(trusted: readonly string[]): BlockList {
  const list = new BlockList();
  const refused: string[] = [];
  for (const raw of trusted) {
    const entry = raw.trim();
    const [address = '', bitsText, extra] = entry.split('/');
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    if (family === 0 || extra !== undefined) {
      refused.push(entry);
    } else if (bitsText === undefined) {
      list.addAddress(address, family === 4 ? 'ipv4' : 'ipv6');
    } else if (/^\d{1,3}$/.test(bitsText) && Number(bitsText) <= max) {
      list.addSubnet(address, Number(bitsText), family === 4 ? 'ipv4' : 'ipv6');
    } else {
      refused.push(entry);
    }
  }
  if (refused.length) {
    throw new TypeError(
      `consult-proxy: trusted proxies must be addresses or ranges like 10.0.0.0/8 or 2001:db8::/32; ${refused
        .map((entry) => `"${entry.slice(0, 60)}"`)
        .join(', ')} ${refused.length === 1 ? 'is' : 'are'} neither.`,
    );
  }
  return list;
}
