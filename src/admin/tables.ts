/** How `consult-admin` shows what the service answered when `--json` is not given: aligned tables. */
import type { Subscription, User } from '../client/types.js';

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

export const day = (iso: string | undefined) => (iso ? iso.slice(0, 10) : '');

export const usersTable = (users: User[]) =>
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

export const subscriptionsTable = (subscriptions: Subscription[]) =>
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

export const oneLine = (text: string, max = 60) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};
