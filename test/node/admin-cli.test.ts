/**
 * `consult-admin` against the real sandbox on a loopback port: every command as a partner types
 * it, its table and its `--json`, bad arguments (exit 2), refusals (exit 1, with the service's
 * problem details), an unreachable service (exit 3), and never the API key or a token in what it
 * prints. One run goes through the built command's entry as a child process.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { EXIT, runAdmin } from '../../src/admin/admin.js';
import { startSandboxServer, type SandboxServer } from '../../src/sandbox/node.js';

const API_KEY = 'admin-test-api-key-7f3a';
let sandbox: SandboxServer;
/** Every bearer token a command sent: none may ever be printed. */
const tokensSent = new Set<string>();
const recordingFetch: typeof fetch = (input, init) => {
  const token = new Headers(init?.headers).get('authorization')?.replace(/^Bearer /, '');
  if (token) tokensSent.add(token);
  return fetch(input, init);
};

interface Run {
  code: number;
  out: string;
  err: string;
}

async function admin(line: string | string[], env: Record<string, string> = {}): Promise<Run> {
  const argv = Array.isArray(line) ? line : line.split(' ').filter(Boolean);
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, {
    env: { CONSULT_UPSTREAM_URL: sandbox.url, CONSULT_API_KEY: API_KEY, ...env },
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    fetch: recordingFetch,
  });
  const run = { code, out: out.join('\n'), err: err.join('\n') };
  assert.doesNotMatch(run.out + run.err, new RegExp(API_KEY), 'the API key is never printed');
  for (const token of tokensSent) assert.ok(!(run.out + run.err).includes(token), 'no token printed');
  return run;
}

const json = async <T>(line: string): Promise<T> => {
  const run = await admin(`${line} --json`);
  assert.equal(run.code, EXIT.ok, run.err);
  return JSON.parse(run.out) as T;
};

describe('consult-admin', () => {
  before(async () => {
    sandbox = await startSandboxServer({ port: 0, apiKeys: [API_KEY], professionals: { mode: 'manual' } });
  });
  after(async () => sandbox?.close());

  describe('users', () => {
    it('creates a user and shows it as a table, then as the service’s JSON', async () => {
      const created = await admin(
        'users create --unique-id member-42 --email m42@example.org --language de --physician-country DE --notify',
      );
      assert.equal(created.code, EXIT.ok, created.err);
      assert.match(created.out, /^id\s+unique id\s+email/m);
      assert.match(created.out, /member-42\s+m42@example\.org/);
      const [user] = await json<{ id: string; language: string }[]>('users search --unique-id member-42');
      assert.equal(user?.language, 'de');
      const got = await json<{ id: string; uniqueId: string }>(`users get ${user!.id}`);
      assert.equal(got.uniqueId, 'member-42');
    });

    it('updates a user, and refuses to update nothing', async () => {
      const [user] = await json<{ id: string }[]>('users search --unique-id alex');
      const updated = await json<{ language: string; email: string }>(
        `users update ${user!.id} --language fr --email alex.new@example.org --no-notify`,
      );
      assert.equal(updated.language, 'fr');
      assert.equal(updated.email, 'alex.new@example.org');
      const nothing = await admin(`users update ${user!.id}`);
      assert.equal(nothing.code, EXIT.usage);
      assert.match(nothing.err, /say what to change/);
      const both = await admin(`users update ${user!.id} --notify --no-notify`);
      assert.equal(both.code, EXIT.usage);
      assert.match(both.err, /contradict/);
    });

    it('searches by unique id and by email, and says why not by phone', async () => {
      const byEmail = await json<{ uniqueId: string }[]>('users search --email sam.rivera@example.com');
      assert.deepEqual(
        byEmail.map((u) => u.uniqueId),
        ['sam'],
      );
      const none = await admin('users search --unique-id nobody-here');
      assert.equal(none.code, EXIT.ok);
      assert.equal(none.out, '(none)');
      const byPhone = await admin('users search --phone +447700900123');
      assert.equal(byPhone.code, EXIT.usage);
      assert.match(byPhone.err, /unique id or email only/);
      const two = await admin('users search --unique-id a --email b@example.org');
      assert.equal(two.code, EXIT.usage);
      assert.match(two.err, /exactly one/);
    });

    it('passes the service’s refusal on with its problem details, exit 1', async () => {
      const missing = await admin('users get usr_nobody');
      assert.equal(missing.code, EXIT.refused);
      assert.match(missing.err, /refused \(404 not_found\)/);
      const invalid = await admin('users create --unique-id x --email not-an-email');
      assert.equal(invalid.code, EXIT.refused);
      assert.match(invalid.err, /400/);
      assert.match(invalid.err, /email/);
    });
  });

  describe('subscriptions', () => {
    it('gives a user a plan with dates, lists it, reads it and its history', async () => {
      const [user] = await json<{ id: string }[]>('users search --unique-id sam');
      const created = await json<{ subscriptionId: string; active: number; startSubscription: string }>(
        `subscriptions create ${user!.id} --start 2026-01-01 --end 2027-12-31`,
      );
      assert.equal(created.active, 1);
      assert.equal(created.startSubscription.slice(0, 10), '2026-01-01');
      const list = await admin(`subscriptions list ${user!.id}`);
      assert.equal(list.code, EXIT.ok);
      assert.match(list.out, new RegExp(`${created.subscriptionId}\\s+yes\\s+2026-01-01\\s+2027-12-31`));
      const one = await json<{ subscriptionId: string }>(
        `subscriptions get ${user!.id} ${created.subscriptionId}`,
      );
      assert.equal(one.subscriptionId, created.subscriptionId);
      const history = await admin(`subscriptions history usr_demo_alex sub_demo_alex_2026`);
      assert.equal(history.code, EXIT.ok);
      assert.match(history.out, /sub_demo_alex_2026/);
      assert.match(history.out, /sub_demo_alex_2025/);
    });

    it('refuses dates it cannot read, or an end before the start', async () => {
      const bad = await admin('subscriptions create usr_demo_sam --start soon');
      assert.equal(bad.code, EXIT.usage);
      assert.match(bad.err, /--start must be a date/);
      const backwards = await admin('subscriptions create usr_demo_sam --start 2027-01-01 --end 2026-01-01');
      assert.equal(backwards.code, EXIT.usage);
      assert.match(backwards.err, /--end must be after --start/);
    });
  });

  describe('webhooks', () => {
    it('registers one with chosen events, shows its secret once, formats an event, deletes it', async () => {
      const created = await admin(
        'webhooks create https://portal.example/consult/webhooks --events questionResolved',
      );
      assert.equal(created.code, EXIT.ok, created.err);
      assert.match(created.out, /questionResolved/);
      assert.match(created.out, /signing secret \(shown once\): whsec_/);
      const id = /^(wh\S+)/m.exec(created.out.split('\n')[2] ?? '')?.[1];
      assert.ok(id, created.out);
      const event = await json<{ type: string; caseId: string }>(
        `webhooks format-event {"type":"questionResolved","caseId":"cns_1","userId":"usr_1"}`,
      );
      assert.equal(event.caseId, 'cns_1');
      const deleted = await admin(`webhooks delete ${id}`);
      assert.equal(deleted.code, EXIT.ok, deleted.err);
      assert.equal(deleted.out, `deleted ${id}`);
      const again = await admin(`webhooks delete ${id}`);
      assert.equal(again.code, EXIT.refused);
    });

    it('refuses a URL that is not one, an empty event list and JSON that is not an object', async () => {
      for (const [line, message] of [
        ['webhooks create not-a-url', /absolute URL/],
        ['webhooks create https://portal.example/h --events ,', /at least one event/],
        ['webhooks format-event {oops', /must be a JSON object/],
        ['webhooks format-event [1,2]', /not an array/],
      ] as const) {
        const run = await admin(line);
        assert.equal(run.code, EXIT.usage, line);
        assert.match(run.err, message, line);
      }
    });
  });

  describe('consultations', () => {
    it('lists a user’s consultations, newest first', async () => {
      const run = await admin('consultations history usr_demo_alex');
      assert.equal(run.code, EXIT.ok);
      const rows = run.out.split('\n').slice(2);
      assert.match(rows[0] ?? '', /^cns_demo_alex_vitamin\s+open/);
      assert.match(run.out, /cns_demo_alex_rash\s+resolved\s+\S+\s+2\/3/);
      const [first] = await json<{ consultationId: string }[]>('consultations history usr_demo_alex');
      assert.equal(first?.consultationId, 'cns_demo_alex_vitamin');
    });
  });

  describe('its own manners', () => {
    it('prints help for everything, a group and a command', async () => {
      const all = await admin('--help');
      assert.equal(all.code, EXIT.ok);
      for (const name of [
        'users create',
        'subscriptions history',
        'webhooks format-event',
        'consultations history',
      ])
        assert.ok(all.out.includes(name), name);
      assert.match(all.out, /Exit codes: 0 done, 1 the service refused, 2 a bad argument, 3/);
      const group = await admin('subscriptions --help');
      assert.equal(group.code, EXIT.ok);
      assert.match(group.out, /subscriptions create USER_ID \[--start DATE\]/);
      const one = await admin('users update --help');
      assert.match(one.out, /--notify \| --no-notify/);
    });

    it('accepts every flag its help names, on every command', async () => {
      const [subscription] = await json<{ subscriptionId: string }[]>('subscriptions list usr_demo_alex');
      let n = 0;
      /** A value a partner might type for a placeholder of the usage line. */
      const sample = async (placeholder: string, flag?: string): Promise<string> => {
        n += 1;
        switch (placeholder) {
          case 'USER_ID':
            return 'usr_demo_alex';
          case 'SUBSCRIPTION_ID':
            return subscription!.subscriptionId;
          case 'WEBHOOK_ID': {
            const created = await json<{ webhookId: string }>('webhooks create https://portal.example/h');
            return created.webhookId;
          }
          case 'URL':
            return 'https://portal.example/consult/webhooks';
          case 'JSON':
            return '{"type":"questionResolved","caseId":"cns_1","userId":"usr_1"}';
          case 'ID':
            return `flag-check-${n}`;
          case 'E':
            return `flag-check-${n}@example.org`;
          case 'P':
            return '+447700900123';
          case 'L':
            return 'de';
          case 'C':
            return 'DE';
          case 'DATE':
            return flag === '--end' ? '2027-12-31' : '2027-01-01';
          case 'E1,E2':
            return 'questionResolved,consultationClaimed';
          default:
            throw new Error(`no sample for ${placeholder}`);
        }
      };

      // Every help text: everything, each group, each command.
      const all = (await admin('--help')).out;
      const names = [...all.matchAll(/^ {2}([a-z]+ [a-z-]+)\b/gm)].map((m) => m[1]!);
      assert.ok(names.length >= 12, all);
      const everyCommand = [...new Set([...all.matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0]))];
      assert.deepEqual(
        everyCommand.sort(),
        ['--help', '--json'],
        'the general help names what every command takes',
      );
      const usages = new Map<string, string>();
      for (const group of new Set(names.map((name) => name.split(' ')[0]!))) {
        const help = await admin(`${group} --help`);
        assert.equal(help.code, EXIT.ok, help.err);
        for (const [, name, rest] of help.out.matchAll(/^Usage: consult-admin ([a-z]+ [a-z-]+)(.*)$/gm)) {
          usages.set(name!, rest!);
        }
      }
      assert.deepEqual([...usages.keys()].sort(), [...names].sort(), 'each group’s help has each command');

      const tried: string[] = [];
      for (const name of names) {
        const own = await admin(`${name} --help`);
        assert.equal(own.code, EXIT.ok, own.err);
        const usage = usages.get(name)!;
        assert.ok(own.out.includes(usage.trim()), `${name}: its help and its group's agree`);
        // `USER_ID`, `--flag VALUE`, `[--flag VALUE]`, `(--a A | --b B)`, `[--x | --y]`.
        const positionals =
          usage.replace(/[[(][^\])]*[\])]|--[a-z-]+( [A-Z][A-Z0-9_,]*)?/g, '').match(/[A-Z][A-Z_]*/g) ?? [];
        const flags = [...usage.matchAll(/(--[a-z][a-z-]*)(?: ([A-Z][A-Z0-9_,]*))?/g)].map(
          ([, flag, value]) => ({
            flag: flag!,
            value,
          }),
        );
        const required = [...usage.replace(/\[[^\]]*\]/g, '').matchAll(/\(([^)]*)\)|(--[a-z][a-z-]*)/g)];
        for (const { flag, value } of [
          ...flags,
          { flag: '--json', value: undefined },
          { flag: '--help', value: undefined },
        ]) {
          const argv = [...name.split(' ')];
          for (const positional of positionals) argv.push(await sample(positional));
          // What the command needs besides: a required flag, or the first of a required choice.
          for (const [, choice, alone] of required) {
            const options = choice ? [...choice.matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0]) : [alone!];
            if (options.includes(flag) || flags.some((f) => f.flag === options[0] && f.flag === flag))
              continue;
            const needed = flags.find((f) => f.flag === options[0])!;
            argv.push(needed.flag, ...(needed.value ? [await sample(needed.value, needed.flag)] : []));
          }
          // `--json` beside something to do: `users update` with nothing to change is refused.
          const first = flags[0];
          if (flag === '--json' && first && !argv.some((word) => word.startsWith('--'))) {
            argv.push(first.flag, ...(first.value ? [await sample(first.value, first.flag)] : []));
          }
          argv.push(flag, ...(value ? [await sample(value, flag)] : []));
          const run = await admin(argv);
          tried.push(`${name} ${flag}`);
          assert.doesNotMatch(run.err, /unknown option/i, argv.join(' '));
          assert.equal(run.code, EXIT.ok, `${argv.join(' ')}\n${run.err}`);
        }
      }
      assert.ok(
        tried.includes('users search --email') && tried.includes('users update --no-notify'),
        tried.join('\n'),
      );
    });

    it('says what is wrong with a bad call, exit 2', async () => {
      for (const [line, message] of [
        ['', /Usage: consult-admin/],
        ['users', /Usage: consult-admin users create/],
        ['users delete usr_1', /unknown command "users delete"/],
        ['users get', /expected USER_ID, got none/],
        ['users get a b', /expected USER_ID, got "a" "b"/],
        ['users get usr_1 --colour', /Unknown option '--colour'/],
        ['subscriptions get usr_1', /expected USER_ID SUBSCRIPTION_ID/],
      ] as const) {
        const run = await admin(line);
        assert.equal(run.code, EXIT.usage, line);
        assert.match(run.out + run.err, message, line);
      }
    });

    it('says the service cannot be reached, exit 3, and refuses an address that is not one', async () => {
      const down = await admin('users get usr_1', { CONSULT_UPSTREAM_URL: 'http://127.0.0.1:9' });
      assert.equal(down.code, EXIT.unreachable);
      assert.match(down.err, /http:\/\/127\.0\.0\.1:9 could not be reached/);
      const bad = await admin('users get usr_1', { CONSULT_UPSTREAM_URL: 'nowhere' });
      assert.equal(bad.code, EXIT.usage);
      assert.match(bad.err, /CONSULT_UPSTREAM_URL must be an absolute URL/);
    });

    it('says the API key was refused, without printing it', async () => {
      const run = await admin('users get usr_demo_alex', { CONSULT_API_KEY: 'wrong-key-123' });
      assert.equal(run.code, EXIT.refused);
      assert.match(run.err, /refused \(401/);
      assert.doesNotMatch(run.err, /wrong-key-123/);
    });

    it('has been checking real tokens all along', () => {
      assert.ok(tokensSent.size > 0, 'commands sent access tokens, and none was printed');
    });

    it('runs as the consult-admin command', async () => {
      const run = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'src/admin/cli.ts', 'users', 'search', '--unique-id', 'noor', '--json'],
        { env: { ...process.env, CONSULT_UPSTREAM_URL: sandbox.url, CONSULT_API_KEY: API_KEY } },
      );
      assert.equal((JSON.parse(run.stdout) as { uniqueId: string }[])[0]?.uniqueId, 'noor');
      const failed = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'src/admin/cli.ts', 'users', 'get'],
        {
          env: process.env,
        },
      ).catch((error: { code: number; stderr: string }) => error);
      assert.equal((failed as { code: number }).code, EXIT.usage);
    });
  });
});
