/**
 * Webhook delivery, signed the Standard Webhooks way: headers `webhook-id`, `webhook-timestamp`
 * and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`), keyed with the
 * base64 part of the `whsec_…` secret. Signing uses WebCrypto so the sandbox runs in a browser
 * too; the tests verify signatures with the `standardwebhooks` package.
 */
import type { WebhookEvent, WebhookEventType } from '../client/types.js';
import type { SandboxClock } from './clock.js';

export interface StoredWebhook {
  webhookId: string;
  url: string;
  events: WebhookEventType[];
  secret: string;
  createdAt: string;
}

/** One delivery attempt, as `GET /_sandbox/webhook-deliveries` lists it. */
export interface DeliveryAttempt {
  messageId: string;
  webhookId: string;
  url: string;
  event: WebhookEvent;
  attempt: number;
  /** HTTP status of the receiver's answer; absent when there was none. */
  status?: number;
  ok: boolean;
  error?: string;
  at: string;
  /** When the next attempt is due, if one is scheduled. */
  nextAttemptAt?: string;
}

export interface DeliveryOptions {
  /** Waits before the 2nd, 3rd, … attempt. Defaults to 5 s, 30 s, 2 min, 10 min, 1 h. */
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  fetch: typeof fetch;
}

const encoder = new TextEncoder();

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(length));
}

export function newWebhookSecret(): string {
  return `whsec_${toBase64(randomBytes(24))}`;
}

/** Each secret's key, imported once: a webhook signs every delivery with the same one. */
const signingKeys = new Map<string, Promise<CryptoKey>>();

function signingKey(secret: string): Promise<CryptoKey> {
  let key = signingKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey(
      'raw',
      fromBase64(secret.replace(/^whsec_/, '')),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    // A secret that cannot be imported is tried again next time, not kept.
    const imported = key;
    imported.catch(() => {
      if (signingKeys.get(secret) === imported) signingKeys.delete(secret);
    });
    // A sandbox that rotates its webhooks without end holds a bounded number of keys.
    if (signingKeys.size >= 64) signingKeys.delete(signingKeys.keys().next().value ?? '');
    signingKeys.set(secret, key);
  }
  return key;
}

export async function signWebhook(
  secret: string,
  messageId: string,
  timestampSeconds: number,
  body: string,
): Promise<string> {
  const key = await signingKey(secret);
  const signature = await crypto.subtle.sign(
    'HMAC',
    key,
    encoder.encode(`${messageId}.${timestampSeconds}.${body}`),
  );
  return `v1,${toBase64(new Uint8Array(signature))}`;
}

export class WebhookDispatcher {
  readonly attempts: DeliveryAttempt[] = [];
  #nextMessage = 1;

  constructor(
    private readonly clock: SandboxClock,
    private readonly options: DeliveryOptions,
    /** Retries stop once a webhook has been deleted. */
    private readonly isRegistered: (webhookId: string) => boolean,
  ) {}

  /** Sends `event` to every webhook subscribed to its type. */
  dispatch(webhooks: Iterable<StoredWebhook>, event: WebhookEvent): void {
    for (const webhook of webhooks) {
      if (!webhook.events.includes(event.type as WebhookEventType)) continue;
      const messageId = `msg_${Date.now().toString(36)}${(this.#nextMessage++).toString(36).padStart(4, '0')}`;
      void this.#attempt(webhook, event, messageId, 1);
    }
  }

  clear(): void {
    this.attempts.length = 0;
    this.clock.cancel('webhook');
  }

  async #attempt(
    webhook: StoredWebhook,
    event: WebhookEvent,
    messageId: string,
    attempt: number,
  ): Promise<void> {
    if (!this.isRegistered(webhook.webhookId)) return;
    const body = JSON.stringify(event);
    // Signatures carry real time, not sandbox time: receivers check them against their own clocks.
    const timestamp = Math.floor(Date.now() / 1000);
    const record: DeliveryAttempt = {
      messageId,
      webhookId: webhook.webhookId,
      url: webhook.url,
      event,
      attempt,
      ok: false,
      at: this.clock.nowIso(),
    };
    try {
      const response = await this.options.fetch(webhook.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(this.options.timeoutMs),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'consult-sandbox-webhooks/1',
          'webhook-id': messageId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': await signWebhook(webhook.secret, messageId, timestamp, body),
        },
        body,
      });
      await response.body?.cancel();
      record.status = response.status;
      record.ok = response.status >= 200 && response.status < 300;
      if (!record.ok) record.error = `receiver answered ${response.status}`;
    } catch (error) {
      record.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
    const delay = this.options.retryDelaysMs[attempt - 1];
    if (!record.ok && delay !== undefined) {
      // Exponential schedule with ±10% jitter, so many failing receivers do not retry in lockstep.
      const jittered = Math.round(delay * (0.9 + Math.random() * 0.2));
      record.nextAttemptAt = new Date(this.clock.now() + jittered).toISOString();
      this.clock.schedule(
        jittered,
        () => void this.#attempt(webhook, event, messageId, attempt + 1),
        'webhook',
      );
    }
    this.attempts.push(record);
  }
}
