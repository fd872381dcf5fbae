/**
 * Sending one Web Push message: what a sender is given. The Node entry's sender is the `web-push`
 * library (web-push-sender.node.ts); an edge runtime brings its own.
 */
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
