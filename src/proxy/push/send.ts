/**
 * Sending one Web Push message. The default sender is the `web-push` library (RFC 8030, 8291,
 * 8292: encryption and VAPID), a Node library: it is loaded by name when the first message goes,
 * so no bundle of the proxy (the edge one included) carries it.
 */
import type * as WebPush from 'web-push';
import type { VapidKeys } from './options.js';

/** What a push may carry: that there is news, of which kind, for which consultation, in which language. */
export interface PushPayload {
  kind: 'answer' | 'closed';
  consultationId: string;
  lang: string;
}

export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface PushSendOptions {
  vapid: VapidKeys;
  /** How long the push service keeps the message for a device that is offline. */
  ttlSeconds: number;
  urgency: 'very-low' | 'low' | 'normal' | 'high';
}

/** Sends `payload` to one subscription; resolves with the push service's status (404 and 410: gone). */
export type PushSender = (target: PushTarget, payload: string, options: PushSendOptions) => Promise<number>;

type WebPushModule = typeof WebPush;

/** Named in a variable, so bundlers leave the import to run time. */
const WEB_PUSH = 'web-push';

/**
 * The `web-push` library as a {@link PushSender}. `agent` is for an https agent of your own (a
 * corporate proxy's, or a test's that trusts its own push service stand-in).
 */
export function webPushSender(extra: { agent?: unknown } = {}): PushSender {
  let library: Promise<WebPushModule> | undefined;
  return async (target, payload, options) => {
    library ??= import(/* @vite-ignore */ WEB_PUSH).then(
      (loaded: WebPushModule & { default?: WebPushModule }) => loaded.default ?? loaded,
      (error: unknown) => {
        library = undefined;
        throw Object.assign(
          new Error('Web Push needs the web-push library on Node: npm install web-push', { cause: error }),
          { code: 'CONSULT_MISSING_PEER', missing: 'web-push' },
        );
      },
    );
    const webPush = await library;
    try {
      const result = await webPush.sendNotification(target, payload, {
        vapidDetails: options.vapid,
        TTL: options.ttlSeconds,
        urgency: options.urgency,
        timeout: 10_000,
        ...(extra.agent ? { agent: extra.agent as never } : {}),
      });
      return result.statusCode;
    } catch (error) {
      const status = (error as { statusCode?: unknown }).statusCode;
      if (typeof status === 'number') return status;
      throw error;
    }
  };
}
