/**
 * The webhook secrets' format, and how a rotation announces them in the store: plain code with no
 * library, so that `consult-admin` and `consult-proxy`'s start-up checks need none of the proxy's
 * packages.
 */
import type { ProxyStore } from './store.js';

/** Secrets announced by `consult-admin webhooks rotate`: a JSON array of `whsec_…` strings. */
export const ANNOUNCED_SECRETS_KEY = 'webhook-secrets:announced';
/** Set by `consult-admin webhooks rotate` just before it registers: the announcement is on its way. */
export const ROTATION_PENDING_KEY = 'webhook-secrets:rotation-pending';
/** How long an announced secret is accepted: time enough to put it in every instance's configuration. */
export const ANNOUNCED_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** How long a rotation may take between its announcement and its registration. */
export const ROTATION_PENDING_TTL_MS = 30_000;

/** A webhook id as the service makes them: letters, digits, `_` and `-`. */
export const WEBHOOK_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * What is wrong with a signing secret, or undefined when it is usable: `whsec_` and the base64 of
 * 16 to 128 random bytes, as the service returns it. The secret itself is never part of the answer.
 */
export function webhookSecretProblem(secret: string): string | undefined {
  if (!secret.startsWith('whsec_')) return 'does not start with whsec_';
  const body = secret.slice('whsec_'.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body) || body.length % 4 !== 0)
    return 'is not whsec_ followed by base64 (it may be cut short or have a character too many)';
  const bytes = (body.length / 4) * 3 - (body.endsWith('==') ? 2 : body.endsWith('=') ? 1 : 0);
  if (bytes < 16 || bytes > 128) return `holds ${bytes} bytes, not 16 to 128`;
  return undefined;
}

/** `a,b` or `['a', 'b']` as a list of secrets (blank entries dropped). */
export function splitWebhookSecrets(value: string | readonly string[] | undefined): string[] {
  const list = typeof value === 'string' ? value.split(',') : [...(value ?? [])];
  return list.map((secret) => secret.trim()).filter(Boolean);
}

/** Problems with a configured list, each naming `name` and the entry by position (never its value). */
export function webhookSecretsProblems(
  value: string | readonly string[] | undefined,
  name: string,
): string[] {
  if (value === undefined) return [];
  const secrets = splitWebhookSecrets(value);
  if (secrets.length === 0) return [`${name} is empty: give one or more whsec_… secrets, comma-separated`];
  return secrets.flatMap((secret, index) => {
    const problem = webhookSecretProblem(secret);
    if (!problem) return [];
    const which = secrets.length > 1 ? `entry ${index + 1} of ${secrets.length} of ${name}` : name;
    return [
      `${which} ${problem}: use the secret \`consult-admin webhooks register\` printed (whsec_…), several separated by commas during a rotation`,
    ];
  });
}

/** The usable secrets a rotation announced in the store. */
export async function announcedSecrets(store: ProxyStore): Promise<string[]> {
  const raw = await store.get(ANNOUNCED_SECRETS_KEY);
  if (!raw) return [];
  try {
    const list = JSON.parse(raw) as unknown;
    return Array.isArray(list)
      ? list.filter((s): s is string => typeof s === 'string' && !webhookSecretProblem(s))
      : [];
  } catch {
    return [];
  }
}

/** Adds `secret` to the announced ones, for every instance sharing `store`. */
export async function announceSecret(store: ProxyStore, secret: string): Promise<void> {
  const list = await announcedSecrets(store);
  if (!list.includes(secret)) list.push(secret);
  // A handful at most: the newest few rotations.
  await store.set(ANNOUNCED_SECRETS_KEY, JSON.stringify(list.slice(-4)), ANNOUNCED_TTL_MS);
}
