/** `consult-admin users …`, `subscriptions …` and `consultations …`: a member's account, plans and cases. */
import type { Consultation, Subscription, User } from '../client/types.js';
import { UsageError, type Command, type Options, type Values } from './command.js';
import { day, oneLine, subscriptionsTable, table, usersTable } from './tables.js';

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

export const USER_COMMANDS: Command[] = [
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
];

export const SUBSCRIPTION_COMMANDS: Command[] = [
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
];

export const CONSULTATION_COMMANDS: Command[] = [
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
