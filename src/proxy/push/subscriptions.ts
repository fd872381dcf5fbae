/**
 * The member's push subscriptions, kept in the proxy's store (so every instance sharing it sends
 * to them): one list per member, and for each endpoint the one member it belongs to. A browser's
 * subscription belongs to whoever subscribed it last: when another member signs in on the device
 * and subscribes, it is taken from the member before (S29).
 */
import * as z from 'zod/mini';
import { ProblemError } from '../../server/problems.js';
import { fieldErrors } from '../../server/validation.js';
import type { ProxyCore } from '../context.js';
import { sha256Hex } from '../idempotency.js';
import { base64UrlBytes, type PushOptions } from './options.js';
import type { PushTarget } from './send.js';

/** A subscription is kept this long after its last renewal (each page with the elements renews it). */
export const SUBSCRIPTION_TTL_MS = 60 * 24 * 60 * 60_000;
/** Devices per member: a new one past this many pushes out the one renewed longest ago. */
export const MAX_DEVICES_PER_MEMBER = 10;
/** Longest subscription body: a real one is about 500 bytes. */
export const MAX_SUBSCRIPTION_BYTES = 2048;
/** The languages the service worker has words for (src/elements/shared/localize.ts). */
export const PUSH_LANGUAGES = ['en', 'de', 'fr', 'es', 'nl', 'ar'] as const;

/** The browsers' push services (Chrome, Firefox, Edge, Safari); `.name` accepts every name under it. */
export const PUSH_SERVICE_HOSTS: readonly string[] = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'updates.push.services.mozilla.com',
  '.notify.windows.com',
  '.push.apple.com',
];

export interface StoredSubscription extends PushTarget {
  lang: string;
  /** When it was last renewed (ms). */
  at: number;
}

const base64Url = (bytes: number, name: string) =>
  z.string().check(z.refine((value) => base64UrlBytes(value) === bytes, `must be ${name} (base64url)`));

/** A `PushSubscription.toJSON()`, and the language its notifications are to be in. */
export const SubscriptionBody = z.strictObject({
  endpoint: z.string('must be a string').check(z.maxLength(1024, 'must be at most 1024 characters')),
  expirationTime: z.optional(z.nullable(z.number())),
  keys: z.strictObject({
    p256dh: base64Url(65, 'a P-256 public key of 65 bytes'),
    auth: base64Url(16, 'an authentication secret of 16 bytes'),
  }),
  lang: z.optional(z.enum(PUSH_LANGUAGES)),
});

export const EndpointBody = z.strictObject({
  endpoint: z.string('must be a string').check(z.maxLength(1024, 'must be at most 1024 characters')),
});

const LOOPBACK = /^(127(?:\.\d{1,3}){3}|\[::1\]|localhost)$/;

/** Why `endpoint` is not one this proxy posts to, or undefined when it is (S29). */
export function endpointRefusal(endpoint: string, push: PushOptions): string | undefined {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:') return 'must be an https URL';
  if (url.username || url.password) return 'must not carry credentials';
  if (push.allowLoopbackEndpoints && LOOPBACK.test(url.hostname)) return undefined;
  if (url.port) return "must be on the push service's default port";
  const host = url.hostname.toLowerCase();
  const known = [...PUSH_SERVICE_HOSTS, ...(push.endpointHosts ?? [])].some((allowed) =>
    allowed.startsWith('.') ? host.endsWith(allowed) && host.length > allowed.length : host === allowed,
  );
  return known ? undefined : "must be a browser's push service";
}

/** The body as a subscription this proxy takes, or a 400 that names what is wrong. */
export function parseSubscription(text: string, push: PushOptions): z.output<typeof SubscriptionBody> {
  const body = parseSmallJson(text, SubscriptionBody);
  const refusal = endpointRefusal(body.endpoint, push);
  if (refusal) throw ProblemError.invalid([{ field: 'endpoint', message: refusal }]);
  return body;
}

/** A small JSON body, validated: too long, not JSON or not the shape is a 400. */
export function parseSmallJson<S extends z.ZodMiniType>(text: string, schema: S): z.output<S> {
  if (new TextEncoder().encode(text).byteLength > MAX_SUBSCRIPTION_BYTES)
    throw ProblemError.badRequest({
      code: 'body_too_large',
      detail: `A push subscription is at most ${MAX_SUBSCRIPTION_BYTES} bytes.`,
    });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw ProblemError.badRequest({ code: 'invalid_json', detail: 'The request body is not valid JSON.' });
  }
  const result = z.safeParse(schema, value);
  if (!result.success) throw ProblemError.invalid(fieldErrors(result.error.issues));
  return result.data;
}

const listKey = (userId: string) => `push-subscriptions:${userId}`;
const ownerKey = async (endpoint: string) => `push-endpoint:${await sha256Hex(endpoint)}`;

/**
 * The member's subscriptions, each renewed within {@link SUBSCRIPTION_TTL_MS} (an unreadable record
 * is none). The list's own lifetime starts again whenever any device is given, so each device's
 * 60 days are counted from its own renewal here.
 */
export async function subscriptionsOf(core: ProxyCore, userId: string): Promise<StoredSubscription[]> {
  const raw = await core.store.get(listKey(userId));
  if (!raw) return [];
  try {
    const list = JSON.parse(raw) as unknown;
    const oldest = Date.now() - SUBSCRIPTION_TTL_MS;
    return Array.isArray(list)
      ? (list as StoredSubscription[]).filter((s) => typeof s.at === 'number' && s.at > oldest)
      : [];
  } catch {
    return [];
  }
}

async function save(core: ProxyCore, userId: string, list: StoredSubscription[]): Promise<void> {
  if (list.length === 0) await core.store.delete(listKey(userId));
  else await core.store.set(listKey(userId), JSON.stringify(list), SUBSCRIPTION_TTL_MS);
}

/** Keeps `subscription` for the member, taking its endpoint from any member who had it before. */
export async function addSubscription(
  core: ProxyCore,
  userId: string,
  subscription: StoredSubscription,
): Promise<void> {
  const owner = await ownerKey(subscription.endpoint);
  const previous = await core.store.get(owner);
  if (previous && previous !== userId) await removeSubscription(core, previous, subscription.endpoint);
  const others = (await subscriptionsOf(core, userId)).filter((s) => s.endpoint !== subscription.endpoint);
  const kept = [...others, subscription].sort((a, b) => b.at - a.at).slice(0, MAX_DEVICES_PER_MEMBER);
  await core.store.set(owner, userId, SUBSCRIPTION_TTL_MS);
  await save(core, userId, kept);
}

/** Forgets the member's subscription at `endpoint`; true when there was one. */
export async function removeSubscription(
  core: ProxyCore,
  userId: string,
  endpoint: string,
): Promise<boolean> {
  const list = await subscriptionsOf(core, userId);
  const kept = list.filter((s) => s.endpoint !== endpoint);
  const owner = await ownerKey(endpoint);
  if ((await core.store.get(owner)) === userId) await core.store.delete(owner);
  if (kept.length === list.length) return false;
  await save(core, userId, kept);
  return true;
}

/**
 * This device's subscription ends, for whichever member it was subscribed for: the member signing
 * out, or the one who signed in after them on the device (whose page cannot use the previous
 * member's token). Only the device knows its endpoint, and subscribing it would take it anyway (S29).
 */
export async function releaseEndpoint(core: ProxyCore, userId: string, endpoint: string): Promise<void> {
  const owner = await core.store.get(await ownerKey(endpoint));
  if (owner && owner !== userId) await removeSubscription(core, owner, endpoint);
  await removeSubscription(core, userId, endpoint);
}

/** Forgets every subscription of the member (the portal signed them out everywhere). */
export async function removeAllSubscriptions(core: ProxyCore, userId: string): Promise<void> {
  for (const subscription of await subscriptionsOf(core, userId))
    await removeSubscription(core, userId, subscription.endpoint);
  await core.store.delete(listKey(userId));
}
