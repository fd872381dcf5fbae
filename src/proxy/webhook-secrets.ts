/**
 * Webhook secrets: the ones configured (`webhookSecret`, `CONSULT_WEBHOOK_SECRET`, one or several
 * during a rotation), checked at start, and the ones a rotation announces through the store
 * (`consult-admin webhooks rotate`) so every instance verifies a new registration's deliveries
 * from its first one, before its configuration names the new secret.
 */
import { WebhookVerifier } from './webhook-signature.js';

// What needs no library (the secrets' format, the store's keys) is apart, for the commands.
export * from './webhook-secret-format.js';

export interface DeliveryHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** A verifier per secret in use, its key imported once; a handful at most (rotations are rare). */
const verifiers = new Map<string, WebhookVerifier>();

/** Which of `secrets` signed the delivery (Standard Webhooks: constant-time, ±5 minutes), if one did. */
export async function signerOf(
  secrets: Iterable<string>,
  raw: string,
  headers: DeliveryHeaders,
): Promise<string | undefined> {
  for (const secret of secrets) {
    let verifier = verifiers.get(secret);
    if (!verifier) {
      if (verifiers.size >= 16) verifiers.clear();
      verifiers.set(secret, (verifier = new WebhookVerifier(secret)));
    }
    if (await verifier.verify(raw, headers)) return secret;
  }
  return undefined;
}

/** A short name for a secret that reveals nothing of it: which registration signed a delivery. */
export async function secretTag(secret: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`consult-signer:${secret}`));
  return [...new Uint8Array(digest).slice(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
