/**
 * Guards for a development sign-in, one that signs anyone in as any member so the elements can be
 * tried without the portal's login (the CLI's `CONSULT_DEMO_SIGN_IN`, the examples'
 * `/dev/sign-in`). It lets anyone be anyone, so it runs only against a sandbox upstream, under a
 * development NODE_ENV, and answers only requests made on this machine (S26).
 */

/** The NODE_ENV values a development sign-in runs under (compared without case); unset is one. */
export const DEVELOPMENT_NODE_ENVS: readonly string[] = ['development', 'dev', 'test', 'local'];

/** Headers a proxy or load balancer adds, naming where a request came from and which host it was for. */
export const FORWARDING_HEADERS: readonly string[] = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-real-ip',
];

/** True when `upstreamUrl` answers the sandbox's controls; `'unreachable'` when it cannot be reached. */
export async function isSandbox(upstreamUrl: string): Promise<boolean | 'unreachable'> {
  let response: Response;
  try {
    response = await fetch(new URL('/_sandbox/clock', upstreamUrl), {
      signal: AbortSignal.timeout(3000),
      redirect: 'manual',
    });
  } catch {
    return 'unreachable';
  }
  try {
    const body = (await response.json()) as { now?: unknown };
    return response.ok && typeof body.now === 'string';
  } catch {
    return false;
  }
}

/** True for NODE_ENV unset or blank, or one of {@link DEVELOPMENT_NODE_ENVS} in any case. */
export function isDevelopmentEnv(nodeEnv: string | undefined): boolean {
  const value = (nodeEnv ?? '').trim().toLowerCase();
  return value === '' || DEVELOPMENT_NODE_ENVS.includes(value);
}

/**
 * Why a development sign-in may not run here, as the end of a sentence ("it runs only …"), or
 * undefined when it may: NODE_ENV must be a development one and the upstream a sandbox. An
 * upstream that cannot be reached is asked again for up to `waitMs` (a sandbox starting alongside).
 */
export async function devSignInRefusal(options: {
  upstreamUrl: string;
  nodeEnv?: string | undefined;
  waitMs?: number;
}): Promise<string | undefined> {
  const { upstreamUrl, nodeEnv, waitMs = 10_000 } = options;
  if (!isDevelopmentEnv(nodeEnv)) {
    return (
      `runs only in development, and NODE_ENV is ${JSON.stringify(nodeEnv?.slice(0, 40))} ` +
      `(it runs with NODE_ENV unset or one of ${DEVELOPMENT_NODE_ENVS.join(', ')})`
    );
  }
  const deadline = Date.now() + waitMs;
  let sandbox = await isSandbox(upstreamUrl);
  while (sandbox === 'unreachable' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    sandbox = await isSandbox(upstreamUrl);
  }
  const named = URL.canParse(upstreamUrl) ? new URL(upstreamUrl).origin : 'the upstream';
  if (sandbox === 'unreachable') {
    return `runs only against a sandbox, and ${named} could not be reached to see that it is one: start the sandbox (npx consult-sandbox) first`;
  }
  if (!sandbox) {
    return `runs only against a sandbox, and ${named} is not one (it does not answer /_sandbox/clock)`;
  }
  return undefined;
}

/** True for a loopback IP address (IPv4 127/8, ::1, or IPv4 127/8 mapped into IPv6). */
export function isLoopbackAddress(address: string): boolean {
  return /^(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/i.test(address) || address === '::1';
}

/** A host name or address as a header writes it, without quotes, brackets or port, in lower case. */
function bare(value: string): string {
  const unquoted = value
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .toLowerCase();
  const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(unquoted);
  if (bracketed) return bracketed[1] ?? '';
  // One colon is a port (host:port); more is an IPv6 address without brackets.
  return unquoted.split(':').length === 2 ? (unquoted.split(':')[0] ?? '') : unquoted;
}

const isLoopbackName = (value: string) => {
  const name = bare(value);
  return name === 'localhost' || isLoopbackAddress(name);
};

/**
 * True when a forwarding header names anything but this machine: a client address or a host that
 * is not loopback (or `unknown`, or an obfuscated name). Some servers fill these headers in
 * themselves from the socket (Next.js does), so a loopback value is no sign of a proxy.
 */
function claimsElsewhere(name: string, value: string): boolean {
  const entries = value.split(',');
  if (name === 'forwarded') {
    return entries.some((entry) =>
      entry.split(';').some((pair) => {
        const [key = '', ...rest] = pair.split('=');
        const field = key.trim().toLowerCase();
        return (field === 'for' || field === 'host') && !isLoopbackName(rest.join('='));
      }),
    );
  }
  return entries.some((entry) => !isLoopbackName(entry));
}

/**
 * Why this request may not use a development sign-in, or undefined when it may: it must come from
 * this machine (`remoteAddress`, the socket's, when the server knows it), to a loopback host name,
 * with no forwarding header ({@link FORWARDING_HEADERS}) claiming it came from elsewhere or for
 * another host, and be opened by hand or from this site (`Sec-Fetch-Site`), not followed from a
 * link on another.
 */
export function devSignInRequestRefusal(request: Request, remoteAddress?: string): string | undefined {
  const forwarded = FORWARDING_HEADERS.filter((name) => {
    const value = request.headers.get(name);
    return value !== null && claimsElsewhere(name, value);
  });
  if (forwarded.length) {
    return `it answers only requests made on this machine, and this one was forwarded from elsewhere (${forwarded.join(', ')})`;
  }
  if (remoteAddress !== undefined && !isLoopbackAddress(remoteAddress)) {
    return 'it answers only requests made on this machine, and this one came from another address';
  }
  if (!isLoopbackName(request.headers.get('host') ?? new URL(request.url).host)) {
    return 'it answers only at a loopback address (127.0.0.1, localhost or [::1]), and this request named another host';
  }
  const site = request.headers.get('sec-fetch-site');
  if (site && site !== 'none' && site !== 'same-origin') {
    return 'open this address yourself: a link from another site does not sign in';
  }
  return undefined;
}
