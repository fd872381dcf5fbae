/**
 * Web Push from the proxy (docs/security.md S28–S30): the member's devices are told that a
 * professional answered, with nothing of the consultation but its id.
 */
import type { PushPayload, PushSender } from './send.js';

/** The VAPID key pair (RFC 8292) the push services know this proxy by; make one with `npx web-push generate-vapid-keys`. */
export interface VapidKeys {
  /** The public key, base64url (65 bytes, uncompressed P-256): the browser subscribes with it. */
  publicKey: string;
  /** The private key, base64url (32 bytes); it never leaves this process. */
  privateKey: string;
  /** Who runs this proxy, for the push services: `mailto:…` or an `https:` URL. */
  subject: string;
}

export interface PushOptions {
  vapid: VapidKeys;
  /**
   * The portal page a notification opens when no tab with the elements is open, for example
   * `https://portal.example.com/doctor`; the consultation's id is added as `?consultation=<id>`.
   * Default: the page that subscribed.
   */
  page?: string;
  /**
   * Also accept subscriptions whose push service is on this machine (https on a loopback address,
   * any port): for tests and the sandbox only. Otherwise only the browsers' own push services are
   * accepted (see `PUSH_SERVICE_HOSTS`), so no member can make the proxy post to another address.
   */
  allowLoopbackEndpoints?: boolean;
  /** More push service hosts to accept (a name, or `.example.com` for every name under it). */
  endpointHosts?: readonly string[];
  /**
   * The service worker's code, served at `{base}/push/sw.js` (a worker must come from the page's
   * origin). The Node entry reads the package's own `dist/browser/consult-push-sw.js`; elsewhere,
   * give it, or host that file yourself (README "Notifications"). Without it, that path is a 404.
   */
  serviceWorker?: string | undefined;
  /**
   * Sends one message. The Node entry (`startProxyServer`) uses `webPushSender()` from
   * `consult-elements/proxy/node` (the `web-push` library, installed beside the package) unless
   * given one; `createProxy` needs it given.
   */
  send?: PushSender;
}

export type { PushPayload, PushSender };

/** What is wrong with the push options, each in words that say what to set. */
export function pushOptionsProblems(push: PushOptions | undefined): string[] {
  if (!push) return [];
  const problems: string[] = [];
  const { publicKey, privateKey, subject } = push.vapid ?? ({} as Partial<VapidKeys>);
  if (!publicKey || base64UrlBytes(publicKey) !== 65)
    problems.push('push.vapid.publicKey must be a base64url P-256 public key (65 bytes)');
  if (!privateKey || base64UrlBytes(privateKey) !== 32)
    problems.push('push.vapid.privateKey must be a base64url P-256 private key (32 bytes)');
  if (!subject || !/^(mailto:|https:\/\/)/.test(subject))
    problems.push('push.vapid.subject must be a mailto: address or an https: URL');
  if (push.page !== undefined && !/^https?:\/\//.test(push.page))
    problems.push('push.page must be an absolute http(s) URL');
  return problems;
}

/** How many bytes a base64url string (padding allowed) decodes to, or -1 when it is not base64url. */
export function base64UrlBytes(value: string): number {
  const bare = value.replace(/={0,2}$/, '');
  if (!/^[A-Za-z0-9_-]*$/.test(bare) || bare.length % 4 === 1) return -1;
  return Math.floor((bare.length * 3) / 4);
}
