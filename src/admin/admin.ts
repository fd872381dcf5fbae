/**
 * `consult-admin`: the partner's back office for the operations that belong on a server, on the
 * typed client with the API key. Readable tables by default, the service's JSON unchanged with
 * `--json`. Exit codes: 0 done, 1 the service refused (its problem details printed), 2 a bad
 * argument, 3 the service could not be reached. The API key and tokens are never printed.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConsultClient } from '../client/client.js';
import { ApiError } from '../client/errors.js';
import type { Consultation, Subscription, User, Webhook, WebhookEvent } from '../client/types.js';
import { StoreUnavailableError } from '../proxy/store.js';
import { explainMissingPeer } from '../server/peers.js';
import {
  announceSecret,
  ROTATION_PENDING_KEY,
  ROTATION_PENDING_TTL_MS,
  WEBHOOK_ID_PATTERN,
} from '../proxy/webhook-secret-format.js';

export const DEFAULT_UPSTREAM_URL = 'http://127.0.0.1:8788';
export const DEFAULT_API_KEY = 'sandbox-api-key';

export const EXIT = { ok: 0, refused: 1, usage: 2, unreachable: 3 } as const;

export interface AdminIO {
  env: Record<string, string | undefined>;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Default the global fetch. */
  fetch?: typeof fetch;
}

/** A mistake in how the command was called: printed with a pointer to `--help`, exit 2. */
class UsageError extends Error {
  constructor(
    message: string,
    /** Exit code: a bad argument unless said otherwise. */
    readonly exit: number = EXIT.usage,
  ) {
    super(message);
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | undefined>;

interface Command {
  /** `users create`, as typed. */
  name: string;
  /** Positional arguments, in order, as shown in the usage line. */
  args: string[];
  /** The rest of the usage line: `[--email E]`. */
  usage: string;
  summary: string;
  options?: Options;
  /** `arg(0)` is the first positional argument, checked present before `run` is called. */
  run(client: ConsultClient, arg: (index: number) => string, values: Values, io: AdminIO): Promise<unknown>;
  /** The result as a table or lines of text. */
  show(result: unknown): string;
  /** What `--json` prints, when not the result itself: the service's JSON, unchanged. */
  json?(result: unknown): unknown;
}

const USER_FIELDS: Options = {
  email: { type: 'string' },
  phone: { type: 'string' },
  language: { type: 'string' },
  'physician-country': { type: 'string' },
  notify: { type: 'boolean' },
  'no-notify': { type: 'boolean' },
};

function userBody(values: Values): Record<string, string | boolean> {
  const body: Record<string, string | boolean> = {};
  if (typeof values['email'] === 'string') body['email'] = values['email'];
  if (typeof values['phone'] === 'string') body['phone'] = values['phone'];
  if (typeof values['language'] === 'string') body['language'] = values['language'];
  if (typeof values['physician-country'] === 'string') body['physicianCountry'] = values['physician-country'];
  if (values['notify'] && values['no-notify'])
    throw new UsageError('--notify and --no-notify contradict each other');
  if (values['notify']) body['shouldNotify'] = true;
  if (values['no-notify']) body['shouldNotify'] = false;
  return body;
}

/** A date as the service takes it: `2026-12-31` is the start of that day, UTC. */
function dateTime(value: string | boolean | undefined, flag: string): string | undefined {
  if (typeof value !== 'string') return undefined;
  const time = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(time))
    throw new UsageError(`${flag} must be a date such as 2026-12-31 or an ISO date-time; got "${value}"`);
  return new Date(time).toISOString();
}

/** Rows of cells as an aligned table, with a header. */
export function table(header: string[], rows: string[][]): string {
  if (rows.length === 0) return '(none)';
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const day = (iso: string | undefined) => (iso ? iso.slice(0, 10) : '');

const usersTable = (users: User[]) =>
  table(
    ['id', 'unique id', 'email', 'phone', 'language', 'physician country', 'status'],
    users.map((u) => [
      u.id,
      u.uniqueId ?? '',
      u.email ?? '',
      u.phone ?? '',
      u.language,
      u.physicianCountry,
      u.userStatus ?? '',
    ]),
  );

const subscriptionsTable = (subscriptions: Subscription[]) =>
  table(
    ['subscription', 'active', 'start', 'end', 'canceled', 'renews'],
    subscriptions.map((s) => [
      s.subscriptionId,
      s.active === 1 ? 'yes' : 'no',
      day(s.startSubscription),
      day(s.endSubscription),
      day(s.canceledAt),
      s.renewFrom ?? '',
    ]),
  );

const oneLine = (text: string, max = 60) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

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

const COMMANDS: Command[] = [
  {
    name: 'users create',
    args: [],
    usage: '--unique-id ID [--email E] [--phone P] [--language L] [--physician-country C] [--notify]',
    summary: 'Create a user account (operation 2).',
    options: { 'unique-id': { type: 'string' }, ...USER_FIELDS },
    run: (client, _arg, values) => {
      if (typeof values['unique-id'] !== 'string') throw new UsageError('--unique-id is required');
      return client.createUser({ uniqueId: values['unique-id'], ...userBody(values) });
    },
    show: (user) => usersTable([user as User]),
  },
  {
    name: 'users get',
    args: ['USER_ID'],
    usage: '',
    summary: 'Show a user account (operation 3).',
    run: (client, arg) => client.getUser(arg(0)),
    show: (user) => usersTable([user as User]),
  },
  {
    name: 'users update',
    args: ['USER_ID'],
    usage: '[--email E] [--phone P] [--language L] [--physician-country C] [--notify | --no-notify]',
    summary: 'Change a user account (operation 4).',
    options: USER_FIELDS,
    run: (client, arg, values) => {
      const body = userBody(values);
      if (Object.keys(body).length === 0)
        throw new UsageError('say what to change, for example --language de');
      return client.updateUser(arg(0), body);
    },
    show: (user) => usersTable([user as User]),
  },
  {
    name: 'users search',
    args: [],
    usage: '(--unique-id ID | --email E)',
    summary: 'Find user accounts (operation 5 by unique id, 6 by email).',
    // The service cannot search by phone: `--phone` is not offered, and says so rather than "unknown option".
    options: { 'unique-id': { type: 'string' }, email: { type: 'string' }, phone: { type: 'string' } },
    run: (client, _arg, values) => {
      if (typeof values['phone'] === 'string')
        throw new UsageError(
          'the service searches by unique id or email only (operations 5 and 6); use --unique-id or --email',
        );
      const given = ['unique-id', 'email'].filter((key) => typeof values[key] === 'string');
      if (given.length !== 1) throw new UsageError('give exactly one of --unique-id or --email');
      if (typeof values['unique-id'] === 'string') return client.searchUsersByQuery(values['unique-id']);
      return client.searchUsersByBody({ email: values['email'] as string });
    },
    show: (users) => usersTable(users as User[]),
  },
  {
    name: 'subscriptions create',
    args: ['USER_ID'],
    usage: '[--start DATE] [--end DATE]',
    summary: 'Give a user a plan (operation 7); without dates, the service chooses them.',
    options: { start: { type: 'string' }, end: { type: 'string' } },
    run: (client, arg, values) => {
      const start = dateTime(values['start'], '--start');
      const end = dateTime(values['end'], '--end');
      if (start && end && end <= start) throw new UsageError('--end must be after --start');
      return client.createSubscription(arg(0), {
        ...(start ? { subscriptionStartDate: start } : {}),
        ...(end ? { subscriptionEndDate: end } : {}),
      });
    },
    show: (subscription) => subscriptionsTable([subscription as Subscription]),
  },
  {
    name: 'subscriptions list',
    args: ['USER_ID'],
    usage: '',
    summary: "A user's subscriptions (operation 8).",
    run: (client, arg) => client.getUserSubscriptions(arg(0)),
    show: (subscriptions) => subscriptionsTable(subscriptions as Subscription[]),
  },
  {
    name: 'subscriptions get',
    args: ['USER_ID', 'SUBSCRIPTION_ID'],
    usage: '',
    summary: 'One subscription (operation 9).',
    run: (client, arg) => client.getSubscription(arg(0), arg(1)),
    show: (subscription) => subscriptionsTable([subscription as Subscription]),
  },
  {
    name: 'subscriptions history',
    args: ['USER_ID', 'SUBSCRIPTION_ID'],
    usage: '',
    summary: 'The renewal history of a subscription (operation 10).',
    run: (client, arg) => client.getSubscriptionHistory(arg(0), arg(1)),
    show: (subscriptions) => subscriptionsTable(subscriptions as Subscription[]),
  },
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
  {
    name: 'consultations history',
    args: ['USER_ID'],
    usage: '',
    summary: "A user's consultations, newest first (operation 14).",
    run: (client, arg) => client.getCaseHistory(arg(0)),
    show: (result) =>
      table(
        ['consultation', 'status', 'created', 'questions', 'first question'],
        (result as Consultation[]).map((c) => [
          c.consultationId,
          c.status,
          day(c.createdAt),
          `${c.questions.length}/3`,
          oneLine(c.questions[0]?.question ?? ''),
        ]),
      ),
  },
];

const GLOBAL_HELP = `consult-admin: the partner's back office for the consultation service.

Usage: consult-admin <group> <command> [arguments] [--json]

${COMMANDS.map((c) => `  ${`${c.name} ${c.args.join(' ')}`.trim().padEnd(48)} ${c.summary}`).join('\n')}

Every command takes --json (the service's JSON, unchanged) and --help.

Environment:
  CONSULT_UPSTREAM_URL   the service (default ${DEFAULT_UPSTREAM_URL}, the sandbox of npm run sandbox)
  CONSULT_API_KEY        the partner API key (default ${DEFAULT_API_KEY}, the sandbox's)
  CONSULT_SUB_PARTNER    subPartnerName for the access token (optional)
  CONSULT_REDIS_URL      the proxies' Redis, for webhooks rotate (optional; CONSULT_REDIS_PREFIX if not consult:)

Exit codes: 0 done, 1 the service refused, 2 a bad argument, 3 the service could not be reached.`;

const helpFor = (
  command: Command,
) => `Usage: consult-admin ${[command.name, ...command.args, command.usage].filter(Boolean).join(' ')} [--json]

${command.summary}`;

/** Runs one command; answers its exit code. */
export async function runAdmin(argv: string[], io: AdminIO): Promise<number> {
  const words = argv.filter((a) => !a.startsWith('-'));
  const wantsHelp = argv.includes('--help') || argv.includes('-h');
  if (argv.length === 0 || (wantsHelp && words.length === 0) || words[0] === 'help') {
    io.out(GLOBAL_HELP);
    return argv.length === 0 ? EXIT.usage : EXIT.ok;
  }
  const name = words.slice(0, 2).join(' ');
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    const group = COMMANDS.filter((c) => c.name.startsWith(`${words[0]} `));
    if (group.length && (wantsHelp || words.length === 1)) {
      io.out(group.map(helpFor).join('\n\n'));
      return wantsHelp ? EXIT.ok : EXIT.usage;
    }
    io.err(`consult-admin: unknown command "${name}". Run consult-admin --help for the list.`);
    return EXIT.usage;
  }
  if (wantsHelp) {
    io.out(helpFor(command));
    return EXIT.ok;
  }

  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: { ...command.options, json: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    }) as { values: Values; positionals: string[] });
  } catch (error) {
    io.err(`consult-admin ${command.name}: ${(error as Error).message.split('\n')[0]}\n${helpFor(command)}`);
    return EXIT.usage;
  }
  const args = positionals.slice(2);
  if (args.length !== command.args.length || args.some((a) => a.trim() === '')) {
    io.err(
      `consult-admin ${command.name}: expected ${command.args.join(' ') || 'no arguments'}, got ${args.length ? args.map((a) => JSON.stringify(a)).join(' ') : 'none'}\n${helpFor(command)}`,
    );
    return EXIT.usage;
  }

  const baseUrl = io.env['CONSULT_UPSTREAM_URL']?.trim() || DEFAULT_UPSTREAM_URL;
  try {
    new URL(baseUrl);
  } catch {
    io.err(`consult-admin: CONSULT_UPSTREAM_URL must be an absolute URL; got "${baseUrl}"`);
    return EXIT.usage;
  }
  const subPartnerName = io.env['CONSULT_SUB_PARTNER']?.trim();
  const client = new ConsultClient({
    baseUrl,
    apiKey: io.env['CONSULT_API_KEY']?.trim() || DEFAULT_API_KEY,
    ...(subPartnerName ? { subPartnerName } : {}),
    ...(io.fetch ? { fetch: io.fetch } : {}),
    // A command answers promptly or says why: a short retry, not minutes of waiting.
    retry: { retries: 1, unreachableWindowMs: 0 },
    timeoutMs: 10_000,
  });

  try {
    const result = await command.run(client, (index) => args[index] ?? '', values, io);
    const json = command.json ? command.json(result) : result;
    io.out(values['json'] ? JSON.stringify(json ?? null, null, 2) : command.show(result));
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      // A bad argument comes with the usage; what the service or the store said, on its own.
      io.err(
        `consult-admin ${command.name}: ${error.message}${error.exit === EXIT.usage ? `\n${helpFor(command)}` : ''}`,
      );
      return error.exit;
    }
    if (error instanceof ApiError && (error.kind === 'network' || error.kind === 'timeout')) {
      io.err(
        `consult-admin: ${baseUrl} could not be reached (${error.title.toLowerCase()}). Is the service running?`,
      );
      return EXIT.unreachable;
    }
    if (error instanceof ApiError) {
      const fields = error.errors.map((e) => `\n  ${e.field}: ${e.message}`).join('');
      io.err(
        `consult-admin ${command.name}: the service refused (${error.status} ${error.code}): ${error.detail || error.title}${fields}`,
      );
      return EXIT.refused;
    }
    throw error;
  }
}
