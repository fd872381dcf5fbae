import { webhookSecretsProblems } from './webhook-secrets.js';
import { pushOptionsProblems, type PushOptions } from './push/options.js';
import type { Context } from 'hono';
import type { FetchLike } from '../client/client.js';
import type { ProxyStore } from './store.js';

/** The partner's signed-in member, as the `authenticate` hook returns it. */
export interface Member {
  /** The partner's own id for the member; the upstream user is found or created by it. */
  uniqueId: string;
  email?: string;
  /** E.164. */
  phone?: string;
  /** BCP 47, for example `de` or `ar`. */
  language?: string;
  /** ISO 3166-1 alpha-2 country whose professionals should answer. */
  physicianCountry?: string;
  /** Whether the service notifies the member itself (e-mail, text) when a question is answered. */
  shouldNotify?: boolean;
}

export interface ProxyLimits {
  /** Largest request body accepted from a browser. Default 16 KiB. */
  bodyBytes: number;
  /** Requests per member per minute. Default 120. */
  perMemberPerMinute: number;
  /** Requests that are not a signed-in member's (no valid widget token) per client address per minute. Default 3000. */
  perAddressPerMinute: number;
  /** Successful sign-ins (`POST /session`) per client address per minute. Default 600. */
  sessionsPerAddressPerMinute: number;
  /**
   * Sign-ins (`POST /session`) per member per minute, counted across every instance sharing the
   * store: each looks the member up upstream. Past it they are answered 429 with Retry-After. A
   * page signs in once per widget token (10 minutes) and again on a reload, so a member with a few
   * tabs stays far below it. Default 30.
   */
  signInsPerMemberPerMinute: number;
  /** Failed sign-ins per client address per minute; past it they are answered 429 instead of 401. Default 120. */
  failedSignInsPerAddressPerMinute: number;
  /**
   * @deprecated No longer used: webhooks are not counted per address. A genuine delivery is
   * signed by the service and is never refused for its address; a badly signed one is refused with
   * 401 before anything is counted (see docs/security.md S6 and S10).
   */
  webhooksPerAddressPerMinute: number;
  /**
   * Longest wait for one upstream attempt. Default 6 s: with its one retry, the proxy answers
   * before the browser's own 15 s timeout, so a slow upstream is not asked again and again.
   */
  upstreamTimeoutMs: number;
  /** How often the service is tried again at start while it cannot be reached, to check the API key. Default 5 s. */
  apiKeyCheckRetryMs: number;
  /** Open event streams per member, counted across every instance sharing the store. Default 5. */
  streamsPerMember: number;
  /**
   * Open event streams per client address, counted across every instance sharing the store (each
   * stream leases its place, so the places of an instance that died free up). Default 50.
   */
  streamsPerAddress: number;
  /**
   * How often an instance that registered its webhook itself (no `webhookSecret`) checks that the
   * shared store still holds the registration, and puts it back if the store lost it. Default 2 s.
   */
  webhookRegistrationCheckMs: number;
}

/** One line of the proxy's log. It never holds a header, a body, a token or a question. */
export interface ProxyLogEntry {
  level: 'info' | 'warn' | 'error';
  message: string;
  method?: string;
  path?: string;
  status?: number;
  durationMs?: number;
  userId?: string;
  code?: string;
  /** How many times it happened since the last line about it (for bounded logs). */
  count?: number;
}

export interface ProxyOptions {
  /** The upstream service (or the sandbox), for example `https://api.partner-health.example`. */
  upstreamUrl: string;
  /** The partner's API key; it never leaves this process. */
  apiKey: string;
  subPartnerName?: string;
  /** Signs widget tokens; at least 32 characters. */
  sessionSecret: string;
  /** Browser origins allowed to call the proxy across origins, for example `https://portal.example.com`. */
  allowedOrigins?: readonly string[];
  /**
   * Names the partner's signed-in member for `POST {base}/session`, from the partner's own session
   * (a cookie, a header): return the member, or nothing for "not signed in".
   */
  authenticate: (request: Request) => Promise<Member | null | undefined> | Member | null | undefined;
  limits?: Partial<ProxyLimits>;
  /** Shared state; default one `MemoryStore` for this process. */
  store?: ProxyStore;
  /** Widget token lifetime in seconds; at most 900 (15 minutes). Default 600. */
  widgetTokenTtlSeconds?: number;
  /**
   * The signing secret of the webhook registered for this proxy (`consult-admin webhooks register`
   * prints it; Standard Webhooks `whsec_…`): the production setting, which nothing in the store can
   * lose. Several during a rotation (an array, or comma-separated), each accepted. Given it, the
   * proxy registers nothing at start; without it, a proxy with `publicUrl` registers its own (the
   * sandbox, the demo).
   */
  webhookSecret?: string | readonly string[];
  /**
   * This proxy's public URL including its base path; given it (and no `webhookSecret`), the proxy
   * registers its webhook upstream at start, and either way it pushes answers to the member's open elements. Without it, the event stream's
   * `ready` says `webhooks: false`, the elements poll open consultations, and the proxy logs a
   * warning at start.
   */
  publicUrl?: string;
  /** Heartbeat interval of event streams. Default 15 s. */
  heartbeatMs?: number;
  /** The client address for per-address limits; default none (only per-member limits apply). */
  clientAddress?: (c: Context) => string | undefined;
  /** Receives log lines; default JSON lines on the console. */
  logger?: (entry: ProxyLogEntry) => void;
  /**
   * The fetch used for upstream calls. Default the global fetch; on Node, `startProxyServer` uses
   * a pool of keep-alive connections.
   */
  fetch?: FetchLike;
  /**
   * Web Push: with VAPID keys, a member can ask to be told on their device when a professional
   * answers (README "Notifications"). Without it the push routes answer 404.
   */
  push?: PushOptions;
  /**
   * Lets members turn the service's own notifications (e-mail, text: `shouldNotify`) on or off for
   * themselves at `{base}/service-notifications`; only that field of their user record is written.
   * Default off (404).
   */
  serviceNotifications?: boolean;
}

export const DEFAULT_LIMITS: ProxyLimits = {
  bodyBytes: 16 * 1024,
  perMemberPerMinute: 120,
  // Sized for many members behind one address (an office, a campus, a carrier's NAT); the
  // per-member limit carries the protection for each of them.
  perAddressPerMinute: 3000,
  sessionsPerAddressPerMinute: 600,
  signInsPerMemberPerMinute: 30,
  failedSignInsPerAddressPerMinute: 120,
  webhooksPerAddressPerMinute: 1200,
  upstreamTimeoutMs: 6_000,
  apiKeyCheckRetryMs: 5_000,
  streamsPerMember: 5,
  streamsPerAddress: 50,
  webhookRegistrationCheckMs: 2_000,
};

/** Checks the options once, at creation, with messages that say exactly what to set. */
export function checkOptions(options: ProxyOptions): void {
  const problems: string[] = [];
  try {
    const url = new URL(options.upstreamUrl);
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      problems.push('upstreamUrl must be an http(s) URL');
  } catch {
    problems.push(`upstreamUrl must be an absolute URL; got "${options.upstreamUrl}"`);
  }
  if (!options.apiKey) problems.push('apiKey is required (the partner API key)');
  if (!options.sessionSecret || options.sessionSecret.length < 32) {
    problems.push('sessionSecret must be at least 32 characters (for example `openssl rand -base64 48`)');
  }
  if (typeof options.authenticate !== 'function') problems.push('authenticate must be a function');
  for (const origin of options.allowedOrigins ?? []) {
    if (origin === '*' || !/^https?:\/\/[^/]+$/.test(origin)) {
      problems.push(
        `allowedOrigins holds "${origin}"; give exact origins such as https://portal.example.com`,
      );
    }
  }
  problems.push(...webhookSecretsProblems(options.webhookSecret, 'webhookSecret'));
  problems.push(...pushOptionsProblems(options.push));
  if (options.widgetTokenTtlSeconds !== undefined && !(options.widgetTokenTtlSeconds > 0)) {
    problems.push('widgetTokenTtlSeconds must be positive');
  }
  if (problems.length) throw new TypeError(`consult-proxy: ${problems.join('; ')}.`);
}
