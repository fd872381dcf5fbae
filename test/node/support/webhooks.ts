/** Webhook deliveries as the service sends them: a JSON body signed as Standard Webhooks do. */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export interface SignedDelivery {
  headers: Record<string, string>;
  rawBody: string;
}

/** `payload` signed with `secret`; `id` and `at` default to a fresh message id and now. */
export function signedDelivery(
  payload: unknown,
  secret: string,
  options: { id?: string; at?: Date } = {},
): SignedDelivery {
  const id = options.id ?? `msg_${randomBytes(8).toString('hex')}`;
  const at = options.at ?? new Date();
  const rawBody = JSON.stringify(payload);
  return {
    rawBody,
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(id, at, rawBody),
    },
  };
}
