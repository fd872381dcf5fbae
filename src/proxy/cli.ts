#!/usr/bin/env node
/**
 * `consult-proxy` (and `npm run proxy`): the partner proxy configured from the environment.
 *
 * The variables it reads are listed in HELP below, which `consult-proxy --help` prints.
 *
 * A real deployment supplies its own `authenticate` hook by calling `startProxyServer` from code;
 * this entry serves demos and trials.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { helpOrNothing } from '../server/command-line.js';
import { commandNeeds } from '../server/peers.js';
import { isSandbox } from './dev-sign-in.js';
import { trustedProxyList } from './trusted-proxies.node.js';
import { webhookSecretsProblems } from './webhook-secret-format.js';
import { pushOptionsProblems, type PushOptions } from './push/options.js';

export interface CliConfig {
  upstreamUrl: string;
  apiKey: string;
  sessionSecret: string;
  subPartnerName?: string;
  allowedOrigins: string[];
  publicUrl?: string;
  webhookSecret?: string;
  demoSignIn: boolean;
  basePath: string;
  port: number;
  redisUrl?: string;
  /** Redis Sentinels to ask for the primary, with the primary's name in their configuration. */
  redisSentinels?: { host: string; port: number }[];
  redisSentinelName?: string;
  trustedProxies: string[];
  /** Web Push, when the VAPID keys are set. */
  push?: PushOptions;
}

/** Web Push from CONSULT_VAPID_*: all three keys, or none. */
function readPushEnv(env: NodeJS.ProcessEnv, problems: string[]): PushOptions | undefined {
  const publicKey = env['CONSULT_VAPID_PUBLIC_KEY']?.trim();
  const privateKey = env['CONSULT_VAPID_PRIVATE_KEY']?.trim();
  const subject = env['CONSULT_VAPID_SUBJECT']?.trim();
  if (!publicKey && !privateKey && !subject) return undefined;
  const page = env['CONSULT_PUSH_PAGE']?.trim();
  const push: PushOptions = {
    vapid: { publicKey: publicKey ?? '', privateKey: privateKey ?? '', subject: subject ?? '' },
    ...(page ? { page } : {}),
  };
  for (const problem of pushOptionsProblems(push))
    problems.push(
      problem
        .replace('push.vapid.publicKey', 'CONSULT_VAPID_PUBLIC_KEY')
        .replace('push.vapid.privateKey', 'CONSULT_VAPID_PRIVATE_KEY')
        .replace('push.vapid.subject', 'CONSULT_VAPID_SUBJECT')
        .replace('push.page', 'CONSULT_PUSH_PAGE'),
    );
  return push;
}

/** `host:port` or `[ipv6]:port`, or undefined when it is neither. */
function hostAndPort(entry: string): { host: string; port: number } | undefined {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(entry);
  const port = Number(match?.[3]);
  const host = match?.[1] ?? match?.[2];
  return host && port > 0 && port <= 65535 ? { host, port } : undefined;
}

/** Reads the environment; a list of everything missing or wrong, each with what to set. */
export function readProxyEnv(env: NodeJS.ProcessEnv): { config?: CliConfig; problems: string[] } {
  const problems: string[] = [];
  const need = (name: string, what: string): string => {
    const value = env[name]?.trim();
    if (!value) problems.push(`${name} is not set: ${what}`);
    return value ?? '';
  };
  const upstreamUrl = need(
    'CONSULT_UPSTREAM_URL',
    'the URL of the consultation service, e.g. http://127.0.0.1:8788 for the sandbox',
  );
  const apiKey = need('CONSULT_API_KEY', 'the partner API key (sandbox-api-key for the sandbox)');
  const sessionSecret = need(
    'CONSULT_SESSION_SECRET',
    'a random secret of 32+ characters, e.g. `openssl rand -base64 48`',
  );
  if (sessionSecret && sessionSecret.length < 32)
    problems.push('CONSULT_SESSION_SECRET must be at least 32 characters');
  // Unset or blank is the default; otherwise plain digits (not "", "0x50" or "1e3", which Number() accepts).
  const portText = env['PORT']?.trim() || '8787';
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    problems.push(`PORT must be a port number; got "${env['PORT']}"`);
  const basePath = env['CONSULT_BASE_PATH'] ?? '/consult';
  if (!/^\/[A-Za-z0-9/_-]*$/.test(basePath))
    problems.push('CONSULT_BASE_PATH must start with / and hold only letters, digits, /, _ and -');
  const redisUrl = env['CONSULT_REDIS_URL']?.trim();
  if (redisUrl && !/^rediss?:\/\/[^\s]+$/.test(redisUrl))
    problems.push('CONSULT_REDIS_URL must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379');
  const sentinelEntries = (env['CONSULT_REDIS_SENTINELS'] ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const redisSentinels: { host: string; port: number }[] = [];
  for (const entry of sentinelEntries) {
    const sentinel = hostAndPort(entry);
    if (sentinel) redisSentinels.push(sentinel);
    else
      problems.push(
        `CONSULT_REDIS_SENTINELS must list host:port pairs, e.g. 10.0.0.5:26379,10.0.0.6:26379; got "${entry.slice(0, 80)}"`,
      );
  }
  const redisSentinelName = env['CONSULT_REDIS_SENTINEL_NAME']?.trim();
  if (sentinelEntries.length && !redisSentinelName)
    problems.push(
      'CONSULT_REDIS_SENTINEL_NAME is not set: the name the Sentinels monitor the primary under (sentinel monitor NAME …), e.g. mymaster',
    );
  if (redisSentinelName && !sentinelEntries.length)
    problems.push(
      'CONSULT_REDIS_SENTINEL_NAME is set but CONSULT_REDIS_SENTINELS is not: list the Sentinels as host:port',
    );
  const trustedProxies = (env['CONSULT_TRUSTED_PROXIES'] ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of trustedProxies) {
    try {
      trustedProxyList([entry]);
    } catch {
      problems.push(
        `CONSULT_TRUSTED_PROXIES must list addresses or ranges like 10.0.0.0/8 or 2001:db8::/32; got "${entry.slice(0, 60)}"`,
      );
    }
  }
  const webhookSecret = env['CONSULT_WEBHOOK_SECRET']?.trim();
  if (webhookSecret) problems.push(...webhookSecretsProblems(webhookSecret, 'CONSULT_WEBHOOK_SECRET'));
  const demo = env['CONSULT_DEMO_SIGN_IN'];
  if (demo !== undefined && !['0', '1', 'true', 'false', ''].includes(demo))
    problems.push('CONSULT_DEMO_SIGN_IN must be 1 or 0');
  const push = readPushEnv(env, problems);
  if (problems.length) return { problems };
  return {
    problems,
    config: {
      upstreamUrl,
      apiKey,
      sessionSecret,
      ...(env['CONSULT_SUB_PARTNER'] ? { subPartnerName: env['CONSULT_SUB_PARTNER'] } : {}),
      allowedOrigins: (env['CONSULT_ALLOWED_ORIGINS'] ?? '')
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
      ...(env['CONSULT_PUBLIC_URL'] ? { publicUrl: env['CONSULT_PUBLIC_URL'] } : {}),
      ...(webhookSecret ? { webhookSecret } : {}),
      demoSignIn: demo === '1' || demo === 'true',
      basePath: basePath.replace(/\/$/, '') || '/',
      port,
      ...(redisUrl ? { redisUrl } : {}),
      ...(redisSentinels.length && redisSentinelName ? { redisSentinels, redisSentinelName } : {}),
      trustedProxies,
      ...(push ? { push } : {}),
    },
  };
}

/** Demo sign-in lets anyone be anyone: only a sandbox upstream (which answers its controls) may have it. */
export { isSandbox };

export const HELP = `consult-proxy: the partner proxy for demos and trials, configured from the environment. It signs
members in with {"demoUser": "alex"} against a sandbox; a real deployment calls startProxyServer()
from its own code with an authenticate hook that checks the portal's session (see the README).

Usage: consult-proxy [--help]

Environment:
  CONSULT_UPSTREAM_URL      the upstream service (or the sandbox)                   required
  CONSULT_API_KEY           the partner API key                                      required
  CONSULT_SESSION_SECRET    signs widget tokens, 32+ characters                      required
  CONSULT_DEMO_SIGN_IN      1: sign in with {"demoUser": "alex"} (sandbox upstream only)
  CONSULT_SUB_PARTNER       subPartnerName for the access token                      optional
  CONSULT_ALLOWED_ORIGINS   comma-separated browser origins allowed across origins   optional
  CONSULT_PUBLIC_URL        this proxy's public URL with its base path; answers are pushed live
                            (without it the elements poll). Without CONSULT_WEBHOOK_SECRET the
                            proxy registers its webhook itself (sandbox, demo)
  CONSULT_WEBHOOK_SECRET    the secret \`consult-admin webhooks register\` printed (production);
                            during a rotation old and new, comma-separated           optional
  CONSULT_REDIS_URL         shared state for several instances (redis://host:6379)   optional
  CONSULT_REDIS_SENTINELS   with a primary and replicas under Redis Sentinel: the Sentinels as
                            host:port,host:port (CONSULT_REDIS_URL then gives only the password
                            and db)                                                  optional
  CONSULT_REDIS_SENTINEL_NAME  the primary's name in the Sentinels' configuration (mymaster)
  CONSULT_TRUSTED_PROXIES   comma-separated addresses or ranges (10.0.0.0/8, 2001:db8::/32) of
                            the load balancers in front, whose X-Forwarded-For names the client
  CONSULT_BASE_PATH         where the proxy is mounted                               default /consult
  CONSULT_VAPID_PUBLIC_KEY  Web Push: the VAPID key pair (npx web-push generate-vapid-keys) and
  CONSULT_VAPID_PRIVATE_KEY a mailto: or https: subject; members can then be told on their device
  CONSULT_VAPID_SUBJECT     that an answer waits (needs web-push installed)          optional
  CONSULT_PUSH_PAGE         the page a notification opens with no tab open           optional
  PORT                      where to listen                                          default 8787`;

async function main(): Promise<void> {
  helpOrNothing('consult-proxy', HELP);
  // The server-side packages are optional peers of consult-elements: first, say which are missing.
  const [{ demoSignIn }, { forwardedClientAddress, startProxyServer }] = await commandNeeds(
    'consult-proxy',
    () => Promise.all([import('./demo.js'), import('./node.js')]),
  );
  const { config, problems } = readProxyEnv(process.env);
  if (!config) {
    console.error(`consult-proxy cannot start:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    process.exit(1);
  }
  const redis =
    config.redisUrl || config.redisSentinels
      ? await commandNeeds('consult-proxy with CONSULT_REDIS_URL', () => import('./redis-store.js'))
      : undefined;
  // Web Push sends with web-push: said at start when it is missing, not at the first answer.
  if (config.push)
    await commandNeeds('consult-proxy with CONSULT_VAPID_PUBLIC_KEY', () => import('web-push'));
  const sandbox = config.demoSignIn ? await isSandbox(config.upstreamUrl) : false;
  if (sandbox === 'unreachable') {
    console.error(
      `consult-proxy cannot start: ${config.upstreamUrl} could not be reached, and CONSULT_DEMO_SIGN_IN=1 needs to see that it is a sandbox.\n` +
        '  Start the sandbox (npx consult-sandbox) or set CONSULT_UPSTREAM_URL to where it runs.',
    );
    process.exit(1);
  }
  if (config.demoSignIn && !sandbox) {
    console.error(
      `consult-proxy cannot start: CONSULT_DEMO_SIGN_IN=1 lets anyone sign in as any member, and ${config.upstreamUrl} is not a sandbox.\n` +
        '  Unset CONSULT_DEMO_SIGN_IN, and call startProxyServer() from your own code with an authenticate hook that checks your portal session.',
    );
    process.exit(1);
  }
  if (!config.demoSignIn) {
    console.error(
      'consult-proxy cannot start: without CONSULT_DEMO_SIGN_IN there is no way to know who is signed in.\n' +
        '  Call startProxyServer() from your own code with an authenticate hook that checks your portal session (see README).',
    );
    process.exit(1);
  }
  const server = await startProxyServer({
    upstreamUrl: config.upstreamUrl,
    apiKey: config.apiKey,
    sessionSecret: config.sessionSecret,
    ...(config.subPartnerName ? { subPartnerName: config.subPartnerName } : {}),
    allowedOrigins: config.allowedOrigins,
    ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
    ...(config.webhookSecret ? { webhookSecret: config.webhookSecret } : {}),
    authenticate: demoSignIn(),
    basePath: config.basePath,
    port: config.port,
    ...(redis && config.redisSentinels
      ? {
          store: redis.redisStore({
            sentinels: config.redisSentinels,
            name: config.redisSentinelName ?? '',
            ...(config.redisUrl ? { url: config.redisUrl } : {}),
          }),
        }
      : redis && config.redisUrl
        ? { store: redis.redisStore({ url: config.redisUrl }) }
        : {}),
    ...(config.trustedProxies.length ? { clientAddress: forwardedClientAddress(config.trustedProxies) } : {}),
    ...(config.push ? { push: config.push } : {}),
  });
  // A refused API key stops the proxy with the setting to fix, rather than a 502 on every sign-in.
  server.proxy.apiKeyChecked.catch((error: Error) => {
    console.error(`consult-proxy cannot start: ${error.message}`);
    void server.close().finally(() => process.exit(1));
  });
  await server.proxy.ready.catch(() => undefined);
  // Ready to stop cleanly before saying it has started: whoever read that line may stop it at once.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void server.close().then(() => process.exit(0)));
  }
  console.log(`consult-proxy on ${server.url}${config.basePath} (demo sign-in) → ${config.upstreamUrl}`);
}

/** Run as a command (npm links bins through a symlink, so real paths are compared), not imported. */
function isMain(): boolean {
  const invoked = process.argv[1];
  if (!invoked) return false;
  try {
    return realpathSync(invoked) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) await main();
