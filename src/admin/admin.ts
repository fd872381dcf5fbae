/**
 * `consult-admin`: the partner's back office for the operations that belong on a server, on the
 * typed client with the API key. Readable tables by default, the service's JSON unchanged with
 * `--json`. Exit codes: 0 done, 1 the service refused (its problem details printed), 2 a bad
 * argument, 3 the service could not be reached. The API key and tokens are never printed.
 *
 * This file reads the command line and reports the outcome; the commands are in
 * member-commands.ts and webhook-commands.ts, their tables in tables.ts.
 */
import { parseArgs } from 'node:util';
import { ConsultClient } from '../client/client.js';
import { ApiError } from '../client/errors.js';
import { EXIT, UsageError, type AdminIO, type Command, type Values } from './command.js';
import { CONSULTATION_COMMANDS, SUBSCRIPTION_COMMANDS, USER_COMMANDS } from './member-commands.js';
import { WEBHOOK_COMMANDS } from './webhook-commands.js';

export { EXIT, type AdminIO } from './command.js';

export const DEFAULT_UPSTREAM_URL = 'http://127.0.0.1:8788';
export const DEFAULT_API_KEY = 'sandbox-api-key';

const COMMANDS: Command[] = [
  ...USER_COMMANDS,
  ...SUBSCRIPTION_COMMANDS,
  ...WEBHOOK_COMMANDS,
  ...CONSULTATION_COMMANDS,
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
