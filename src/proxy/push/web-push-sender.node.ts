/**
 * The `web-push` library (RFC 8030, 8291, 8292: encryption and VAPID) as the proxy's sender, on
 * Node. It is loaded by name when the first message goes, so no bundle carries it, and the proxy
 * runs without it until push is configured.
 */
import type * as WebPush from 'web-push';
import type { PushSender } from './send.js';

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
