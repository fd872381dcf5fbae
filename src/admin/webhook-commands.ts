/**
 * `consult-admin webhooks …`: registering the proxy's webhook, rotating its signing secret (told to
 * the proxies through their Redis when CONSULT_REDIS_URL is set), deleting one, formatting an event.
 */
import { ApiError } from '../client/errors.js';
import type { Webhook, WebhookEvent } from '../client/types.js';
import { StoreUnavailableError } from '../proxy/store.js';
import {
  announceSecret,
  ROTATION_PENDING_KEY,
  ROTATION_PENDING_TTL_MS,
  WEBHOOK_ID_PATTERN,
} from '../proxy/webhook-secret-format.js';
import { explainMissingPeer } from '../server/peers.js';
import { EXIT, UsageError, type Command, type Values } from './command.js';
import { table } from './tables.js';

/** An absolute http(s) URL for a webhook, or a usage error saying what is expected. */
function webhookUrl(url: string | boolean | undefined, flag: string): string {
  if (typeof url !== 'string')
    throw new UsageError(`${flag} is required: the proxy's public URL and /webhooks`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(
      `${flag} must be an absolute URL such as https://portal.example/consult/webhooks; got "${url}"`,
    );
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new UsageError(`${flag} must be an http or https URL; got "${url}"`);
  return url;
}

function eventList(values: Values): Webhook['events'] | undefined {
  if (typeof values['events'] !== 'string') return undefined;
  const events = values['events']
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (events.length === 0) throw new UsageError('--events needs at least one event type');
  return events as Webhook['events'];
}

/** A webhook id as `webhooks register` printed it, or a usage error saying what it looks like. */
function webhookId(id: string): string {
  if (id.startsWith('whsec_'))
    throw new UsageError(
      'that is a signing secret, not a webhook id: give the id (whk_…) `webhooks register` printed',
    );
  if (!WEBHOOK_ID_PATTERN.test(id))
    throw new UsageError(
      `WEBHOOK_ID must be an id such as whk_3f9a…, as \`webhooks register\` printed it (letters, digits, _ and -); got ${JSON.stringify(id)}`,
    );
  return id;
}

/** The service's 404 for a webhook id, said as what it means. */
function unknownWebhook(id: string, error: unknown): never {
  if (error instanceof ApiError && error.status === 404)
    throw new UsageError(
      `no webhook ${id} is registered with the service (deleted already, or another id?); nothing was changed`,
      EXIT.refused,
    );
  throw error;
}

interface Registered {
  webhook: Webhook;
  /** Secrets the proxies should accept, in CONSULT_WEBHOOK_SECRET order. */
  secrets: string[];
  /** Whether the proxies sharing CONSULT_REDIS_URL were told the new secret. */
  announced?: boolean;
  /** Why they could not be told, when their Redis stopped answering after the registration. */
  unannounced?: string;
  replaces?: string;
}

const registrationShow = (result: unknown) => {
  const { webhook, announced, unannounced, replaces } = result as Registered;
  const lines = [
    table(['webhook', 'url', 'events'], [[webhook.webhookId, webhook.url, webhook.events.join(', ')]]),
    '',
    `signing secret (shown once): ${webhook.secret ?? ''}`,
    '',
  ];
  if (!replaces) {
    lines.push(
      'Give every proxy instance this secret, then restart them:',
      `  CONSULT_WEBHOOK_SECRET=${webhook.secret ?? ''}`,
      `Keep the webhook id ${webhook.webhookId} to rotate or delete it (consult-admin webhooks rotate|delete).`,
    );
  } else {
    lines.push(
      announced
        ? 'The proxies sharing CONSULT_REDIS_URL accept the new secret already.'
        : unannounced
          ? `The proxies' Redis stopped answering (${unannounced}) and was not told the new secret: until every instance has it, deliveries to the new webhook are refused (the old one still brings every event, and the service delivers the refused ones again).`
          : 'CONSULT_REDIS_URL is not set: until every instance has the new secret, deliveries to the new webhook are refused (the old one still brings every event, and the service delivers the refused ones again).',
      'Then:',
      `  1. give every instance CONSULT_WEBHOOK_SECRET=<the old secret>,${webhook.secret ?? ''} and restart them one by one`,
      `  2. consult-admin webhooks delete ${replaces}`,
      `  3. set CONSULT_WEBHOOK_SECRET=${webhook.secret ?? ''} and restart them one by one`,
    );
  }
  return lines.join('\n');
};

export const WEBHOOK_COMMANDS: Command[] = [
  {
    name: 'webhooks create',
    args: ['URL'],
    usage: '[--events E1,E2]',
    summary: 'Register a webhook (operation 15); prints its signing secret once.',
    options: { events: { type: 'string' } },
    run: (client, arg, values) => {
      const url = arg(0);
      try {
        new URL(url);
      } catch {
        throw new UsageError(
          `URL must be an absolute URL such as https://portal.example/consult/webhooks; got "${url}"`,
        );
      }
      const events =
        typeof values['events'] === 'string'
          ? values['events']
              .split(',')
              .map((e) => e.trim())
              .filter(Boolean)
          : undefined;
      if (events?.length === 0) throw new UsageError('--events needs at least one event type');
      return client.createWebhook({ url, ...(events ? { events: events as Webhook['events'] } : {}) });
    },
    show: (result) => {
      const webhook = result as Webhook;
      return [
        table(['webhook', 'url', 'events'], [[webhook.webhookId, webhook.url, webhook.events.join(', ')]]),
        ...(webhook.secret ? ['', `signing secret (shown once): ${webhook.secret}`] : []),
      ].join('\n');
    },
  },
  {
    name: 'webhooks register',
    args: [],
    usage: '--url URL [--events E1,E2]',
    summary:
      "Register the proxy's webhook (operation 15); prints its id and the secret for CONSULT_WEBHOOK_SECRET.",
    options: { url: { type: 'string' }, events: { type: 'string' } },
    run: async (client, _arg, values): Promise<Registered> => {
      const url = webhookUrl(values['url'], '--url');
      const events = eventList(values);
      const webhook = await client.createWebhook({ url, ...(events ? { events } : {}) });
      return { webhook, secrets: webhook.secret ? [webhook.secret] : [] };
    },
    show: registrationShow,
    json: (result) => (result as Registered).webhook,
  },
  {
    name: 'webhooks rotate',
    args: ['WEBHOOK_ID'],
    usage: '--url URL [--events E1,E2]',
    summary:
      'Register a new webhook to replace WEBHOOK_ID; with CONSULT_REDIS_URL the proxies accept its secret at once.',
    options: { url: { type: 'string' }, events: { type: 'string' } },
    run: async (client, arg, values, io): Promise<Registered> => {
      const replaces = webhookId(arg(0));
      const url = webhookUrl(values['url'], '--url');
      const events = eventList(values);
      const redisUrl = io.env['CONSULT_REDIS_URL']?.trim();
      if (redisUrl && !/^rediss?:\/\/[^\s]+$/.test(redisUrl))
        throw new UsageError(
          'CONSULT_REDIS_URL must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379',
        );
      if (!redisUrl) {
        const webhook = await client.createWebhook({ url, ...(events ? { events } : {}) });
        return { webhook, secrets: webhook.secret ? [webhook.secret] : [], announced: false, replaces };
      }
      // The proxies' store: told a rotation is coming before the service can deliver anything
      // signed with the new secret, then the secret itself (see src/proxy/webhook-secrets.ts).
      // Only here does the command need a server package (ioredis): said so when it is missing.
      const { RedisProxyStore } = await import('../proxy/redis-store.js').catch((error: unknown) => {
        const explained = explainMissingPeer('consult-admin webhooks rotate with CONSULT_REDIS_URL', error);
        throw explained === error ? error : new UsageError((explained as Error).message);
      });
      const prefix = io.env['CONSULT_REDIS_PREFIX']?.trim();
      const store = new RedisProxyStore({ url: redisUrl, ...(prefix ? { prefix } : {}) });
      try {
        await store.set(ROTATION_PENDING_KEY, '1', ROTATION_PENDING_TTL_MS);
        try {
          const webhook = await client.createWebhook({ url, ...(events ? { events } : {}) });
          const secrets = webhook.secret ? [webhook.secret] : [];
          try {
            if (webhook.secret) await announceSecret(store, webhook.secret);
          } catch (error) {
            // Registered all the same: its secret must still be shown, with what did not happen.
            const reason = error instanceof StoreUnavailableError ? error.reason : 'error';
            return { webhook, secrets, announced: false, unannounced: reason, replaces };
          }
          return { webhook, secrets, announced: true, replaces };
        } finally {
          await store.delete(ROTATION_PENDING_KEY).catch(() => undefined);
        }
      } catch (error) {
        if (error instanceof StoreUnavailableError)
          throw new UsageError(
            `the proxies' Redis at CONSULT_REDIS_URL did not answer (${error.reason}); nothing was registered unless shown above`,
            EXIT.unreachable,
          );
        throw error;
      } finally {
        await store.close();
      }
    },
    show: registrationShow,
    json: (result) => (result as Registered).webhook,
  },
  {
    name: 'webhooks delete',
    args: ['WEBHOOK_ID'],
    usage: '',
    summary: 'Remove a webhook (operation 16).',
    run: async (client, arg) => {
      const id = webhookId(arg(0));
      await client.deleteWebhook(id).catch((error: unknown) => unknownWebhook(id, error));
      return { deleted: id };
    },
    show: (result) => `deleted ${(result as { deleted: string }).deleted}`,
  },
  {
    name: 'webhooks format-event',
    args: ['JSON'],
    usage: '',
    summary: 'Format an event from a JSON object (operation 17).',
    run: (client, arg) => {
      const json = arg(0);
      let payload: unknown;
      try {
        payload = JSON.parse(json);
      } catch {
        throw new UsageError(`JSON must be a JSON object such as '{"type":"questionResolved"}'; got ${json}`);
      }
      if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
        throw new UsageError('JSON must be a JSON object, not an array or a single value');
      return client.formatWebhookEvent(payload as Record<string, unknown>);
    },
    show: (result) => {
      const event = result as WebhookEvent;
      return table(['type', 'case', 'user'], [[event.type, event.caseId, event.userId]]);
    },
  },
];
