/**
 * Which secrets verify the service's webhook deliveries, and the automatic registration.
 *
 * Production configures the registration (`consult-admin webhooks register` prints its secret for
 * `webhookSecret` / `CONSULT_WEBHOOK_SECRET`, several during a rotation): nothing then depends on
 * the store, and no instance registers anything.
 *
 * Without a configured secret, a proxy with `publicUrl` registers its webhook itself (the sandbox,
 * the demo). The registration is kept in the store and in each instance's memory, so a store
 * emptied or replaced does not lose it: running instances put it back within
 * `limits.webhookRegistrationCheckMs`, an instance starting on a shared store with no record waits
 * that long (twice) for them before it registers, and should two registrations meet anyway, the
 * one in the store stays, the other is deleted upstream and its secret kept for a while, so its
 * deliveries still in flight verify on every instance.
 */
import { ApiError } from '../client/errors.js';
import type { ProxyCore } from './context.js';
import { MemoryStore } from './store.js';
import { offeredSignatures } from './webhook-signature.js';
import {
  announcedSecrets,
  ROTATION_PENDING_KEY,
  secretTag,
  signerOf,
  splitWebhookSecrets,
  type DeliveryHeaders,
} from './webhook-secrets.js';

interface Retired {
  webhookId: string;
  secret: string;
  /** Until when (ms) its deliveries are still accepted. */
  until: number;
}

interface Registration {
  webhookId: string;
  secret: string;
  url: string;
  /** Registrations deleted after two met, whose deliveries may still be on their way. */
  retired?: Retired[];
}

/** Kept for years: a registration ends by `unregisterWebhook`, not by time. */
const REGISTRATION_TTL_MS = 10 * 365 * 24 * 60 * 60 * 1000;
/** How long a deleted registration's deliveries are still accepted. */
const RETIRED_MS = 10 * 60_000;
/** How long a delivery waits for a rotation's announced secret. */
const ROTATION_WAIT_MS = 3_000;
/** How often a failed verification may read the store again: a flood of forged deliveries shares it. */
const REFRESH_MS = 250;

/** The stored record as far as it can be read: it may be partial, or not JSON at all. */
function readRegistration(raw: string | undefined): Partial<Registration> | undefined {
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw) as unknown;
    return typeof value === 'object' && value !== null ? (value as Partial<Registration>) : {};
  } catch {
    return {};
  }
}

/** A stored registration the proxy can verify deliveries with, or undefined. */
function parseRegistration(raw: string | undefined): Registration | undefined {
  const value = readRegistration(raw);
  if (
    typeof value?.webhookId !== 'string' ||
    typeof value.secret !== 'string' ||
    typeof value.url !== 'string'
  )
    return undefined;
  const retired = Array.isArray(value.retired)
    ? value.retired.filter(
        (r): r is Retired =>
          typeof r?.webhookId === 'string' && typeof r.secret === 'string' && typeof r.until === 'number',
      )
    : [];
  return { webhookId: value.webhookId, secret: value.secret, url: value.url, retired };
}

/**
 * Verified, with a tag naming the secret (so the registration) that signed it: while two
 * registrations overlap (a rotation, or two that met after the store was emptied) the service
 * sends each event once per registration, under different message ids.
 */
export type Verdict = { signer: string } | 'unverified' | 'no-secret';

export interface WebhookRegistration {
  /** Settles once the secrets are known (registered, when that is this instance's job). */
  readonly ready: Promise<void>;
  /** Whether a delivery is signed with a secret of ours. */
  verify(raw: string, headers: DeliveryHeaders): Promise<Verdict>;
  /** Deletes the automatic registration upstream and in the store; false when there was none. */
  unregister(): Promise<boolean>;
  close(): void;
}

export function webhookRegistration(core: ProxyCore): WebhookRegistration {
  const configured = splitWebhookSecrets(core.options.webhookSecret);
  const { publicUrl } = core.options;
  const automatic = configured.length === 0 && Boolean(publicUrl);
  const key = `webhook-registration:${publicUrl ?? ''}`;
  const url = `${(publicUrl ?? '').replace(/\/$/, '')}/webhooks`;
  const checkMs = core.limits.webhookRegistrationCheckMs;
  // Another instance can share the store only when it is not this process's memory.
  const shared = !(core.store instanceof MemoryStore);

  /** The registration this instance uses, and the secrets of ones retired lately. */
  let mine: Registration | undefined;
  const retired = new Map<string, Retired>();
  let announced: string[] = [];
  let rotationPending = false;
  /** The store's view (registration, announced secrets, a pending rotation), read once per REFRESH_MS. */
  let refreshing: Promise<void> | undefined;
  let refreshedAt = 0;
  const refresh = (): Promise<void> => {
    if (refreshing) return refreshing;
    if (Date.now() - refreshedAt < REFRESH_MS) return Promise.resolve();
    refreshing = (async () => {
      if (automatic) await reconcile();
      announced = await announcedSecrets(core.store);
      rotationPending = Boolean(await core.store.get(ROTATION_PENDING_KEY));
    })().finally(() => {
      refreshedAt = Date.now();
      refreshing = undefined;
    });
    return refreshing;
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let failing = false;

  const retire = (entries: Iterable<Retired>) => {
    const now = Date.now();
    for (const entry of entries) if (entry.until > now) retired.set(entry.webhookId, entry);
    for (const [id, entry] of retired) if (entry.until <= now) retired.delete(id);
  };
  const secrets = (): string[] => [
    ...new Set([
      ...configured,
      ...(mine ? [mine.secret] : []),
      ...[...retired.values()].map((r) => r.secret),
      ...announced,
    ]),
  ];
  const tags = new Map<string, string>();
  const verified = async (raw: string, headers: DeliveryHeaders): Promise<Verdict | undefined> => {
    const secret = await signerOf(secrets(), raw, headers);
    if (secret === undefined) return undefined;
    let tag = tags.get(secret);
    if (!tag) tags.set(secret, (tag = await secretTag(secret)));
    return { signer: tag };
  };
  const adopt = (stored: Registration) => {
    if (mine && mine.webhookId !== stored.webhookId)
      retire([{ webhookId: mine.webhookId, secret: mine.secret, until: Date.now() + RETIRED_MS }]);
    retire(stored.retired ?? []);
    mine = stored;
  };
  const deleteUpstream = (webhookId: string) =>
    core.upstream.deleteWebhook(webhookId).catch((error: unknown) => {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    });

  /**
   * Brings this instance and the store into agreement: puts its registration back into a store
   * that lost it; adopts the stored one when another instance registered meanwhile, deleting its
   * own upstream and keeping its secret for the deliveries still on their way.
   */
  const reconcile = async (): Promise<void> => {
    if (!mine) return;
    if (await core.store.get(`webhook-unregistered:${mine.webhookId}`)) {
      // Retired for good by another instance: nothing to put back.
      mine = undefined;
      return;
    }
    const raw = await core.store.get(key);
    const stored = parseRegistration(raw);
    if (stored && stored.url === url) {
      if (stored.webhookId === mine.webhookId) {
        retire(stored.retired ?? []);
        mine = stored;
        return;
      }
      const loser = mine;
      adopt(stored);
      const record: Registration = {
        ...stored,
        retired: [...retired.values()].filter((r) => r.webhookId !== stored.webhookId),
      };
      await core.store.set(key, JSON.stringify(record), REGISTRATION_TTL_MS);
      await deleteUpstream(loser.webhookId);
      core.log({
        level: 'warn',
        message: 'two webhook registrations met: kept the stored one, deleted the other',
      });
      return;
    }
    const record: Registration = { ...mine, retired: [...retired.values()] };
    if (raw !== undefined) await core.store.delete(key);
    if (await core.store.setIfAbsent(key, JSON.stringify(record), REGISTRATION_TTL_MS)) {
      core.log({ level: 'info', message: 'webhook registration restored in the store' });
    } else {
      await reconcile();
    }
  };

  const schedule = () => {
    // A store of this process's own cannot lose the record while it runs.
    if (closed || !automatic || !shared) return;
    timer = setTimeout(() => {
      reconcile()
        .then(() => (failing = false))
        .catch(() => {
          // Once per outage, not every check: the store's own failures are logged where they hurt.
          if (!failing) core.log({ level: 'warn', message: 'webhook registration check failed' });
          failing = true;
        })
        .finally(schedule);
    }, checkMs);
    timer.unref?.();
  };

  /** The stored registration, the one a live instance puts back, or a new one. */
  const obtain = async (): Promise<void> => {
    let raw = await core.store.get(key);
    if (raw === undefined && shared) {
      // The store may have just lost it while other instances run with it: give them time to
      // put it back before registering a second one.
      const deadline = Date.now() + 2 * checkMs;
      while (raw === undefined && Date.now() < deadline && !closed) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(250, checkMs)));
        raw = await core.store.get(key);
      }
    }
    const stored = parseRegistration(raw);
    if (stored && stored.url === url) {
      adopt(stored);
      core.log({ level: 'info', message: 'webhook registration reused' });
      return;
    }
    if (raw !== undefined) {
      // A record it cannot trust: its webhook (if it names one) goes, and a new one replaces it.
      const untrusted = readRegistration(raw)?.webhookId;
      if (typeof untrusted === 'string') await core.upstream.deleteWebhook(untrusted).catch(() => undefined);
      await core.store.delete(key);
    }
    const webhook = await core.upstream.createWebhook({ url });
    if (!webhook.secret) throw new Error('the service returned no webhook secret');
    const registration: Registration = { webhookId: webhook.webhookId, secret: webhook.secret, url };
    if (await core.store.setIfAbsent(key, JSON.stringify(registration), REGISTRATION_TTL_MS)) {
      mine = registration;
      core.log({ level: 'info', message: 'webhook registered upstream' });
      return;
    }
    // Another instance registered first: use theirs, and take ours back.
    await core.upstream.deleteWebhook(webhook.webhookId).catch(() => undefined);
    const winner = parseRegistration(await core.store.get(key));
    if (!winner) throw new Error('the webhook registration could not be agreed');
    adopt(winner);
  };

  const ready = automatic ? obtain().then(schedule) : Promise.resolve();
  if (configured.length > 0 && publicUrl) {
    core.log({ level: 'info', message: 'webhook secret configured: no webhook is registered at start' });
  }

  return {
    ready,
    async verify(raw, headers) {
      // Headers that fail the cheap checks cost no HMAC and no store call.
      if (!offeredSignatures(headers)) return secrets().length ? 'unverified' : 'no-secret';
      let tried = secrets().join(' ');
      let verdict = await verified(raw, headers);
      if (verdict) return verdict;
      // Another instance may have registered, or a rotation announced its secret, a moment ago:
      // learnt from the store at most every REFRESH_MS, however many deliveries fail meanwhile.
      const retry = async (): Promise<Verdict | undefined> => {
        await refresh();
        const now = secrets().join(' ');
        if (now === tried) return undefined;
        tried = now;
        return verified(raw, headers);
      };
      if ((verdict = await retry())) return verdict;
      // A rotation is registering right now: its secret is announced within moments.
      const waitUntil = Date.now() + ROTATION_WAIT_MS;
      while (rotationPending && Date.now() < waitUntil) {
        await new Promise((resolve) => setTimeout(resolve, REFRESH_MS));
        if ((verdict = await retry())) return verdict;
      }
      return secrets().length ? 'unverified' : 'no-secret';
    },
    async unregister() {
      if (!automatic) return false;
      const stored = parseRegistration(await core.store.get(key));
      if (!stored) return false;
      await deleteUpstream(stored.webhookId);
      await core.store.set(`webhook-unregistered:${stored.webhookId}`, '1', REGISTRATION_TTL_MS);
      await core.store.delete(key);
      mine = undefined;
      return true;
    },
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
