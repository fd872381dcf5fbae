/**
 * `POST {base}/session`: the partner's `authenticate` hook names the signed-in member; the proxy
 * finds the upstream user by `uniqueId` or creates it, and mints a widget token bound to that user.
 */
import { Hono, type Context } from 'hono';
import { ApiError } from '../../client/errors.js';
import type { User } from '../../client/types.js';
import { ProblemError } from '../../server/problems.js';
import type { ProxyCore, ProxyEnv } from '../context.js';
import { fromUpstream } from '../errors.js';
import { json, noContent } from '../http.js';
import { sha256Hex } from '../idempotency.js';
import { enforceRateLimit, member, requireMember } from '../middleware.js';
import { endSession } from '../sessions.js';
import { releaseEndpoint } from '../push/subscriptions.js';
import { readUtf8 } from '../../server/validation.js';
import type { Member } from '../options.js';
import { MemberView } from '../schemas.js';
import { DEFAULT_WIDGET_TOKEN_TTL_SECONDS, mintWidgetToken } from '../widget-token.js';
import { currentGeneration } from '../generation.js';

const USER_CACHE_TTL_MS = 60 * 60 * 1000;

/**
 * A hook's error message, fit for the log: its words up to the first quote, `=`, `(`, `:` or `@`
 * (where a parser or a database starts quoting what it was given, which may be a cookie or an
 * address), without anything long enough to be a token.
 */
export function withoutQuotedInput(message: string): string {
  const words = /^[^"'`=(:@]*/.exec(message)?.[0] ?? '';
  const kept = words
    .replace(/[\w+/=.-]{24,}/g, '…')
    .trim()
    .slice(0, 120);
  return words.trim().length < message.trim().length ? `${kept} …` : kept;
}

export function sessionRoutes(core: ProxyCore) {
  const { upstream, store, options } = core;
  const ttlSeconds = options.widgetTokenTtlSeconds ?? DEFAULT_WIDGET_TOKEN_TTL_SECONDS;

  async function findOrCreateUser(member: Member, signal: AbortSignal): Promise<User> {
    const cachedId = await store.get(`user:${member.uniqueId}`);
    if (cachedId) {
      try {
        return await upstream.getUser(cachedId, { signal });
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      }
    }
    const find = async () =>
      (await upstream.searchUsersByQuery(member.uniqueId, { signal })).find(
        (u) => u.uniqueId === member.uniqueId,
      );
    let user = await find();
    if (!user) {
      try {
        user = await upstream.createUser(
          {
            uniqueId: member.uniqueId,
            ...(member.email ? { email: member.email } : {}),
            ...(member.phone ? { phone: member.phone } : {}),
            ...(member.language ? { language: member.language } : {}),
            ...(member.physicianCountry ? { physicianCountry: member.physicianCountry } : {}),
            ...(member.shouldNotify !== undefined ? { shouldNotify: member.shouldNotify } : {}),
          },
          // A digest of the whole id: unique per member whatever its length or characters.
          { signal, idempotencyKey: `create-member-${await sha256Hex(member.uniqueId)}` },
        );
      } catch (error) {
        // Two first sessions at once: the other one created the user.
        if (!(error instanceof ApiError && error.code === 'unique_id_taken')) throw error;
        user = await find();
        if (!user) throw error;
      }
    }
    await store.set(`user:${member.uniqueId}`, user.id, USER_CACHE_TTL_MS);
    return user;
  }

  return (
    new Hono<ProxyEnv>()
      .post('/session', async (c) => {
        const address = core.options.clientAddress?.(c);
        let signedIn: Member | null | undefined;
        try {
          signedIn = await options.authenticate(c.req.raw);
        } catch (error) {
          if (error instanceof ProblemError) throw error;
          // Its own message: the partner's hook, the partner's words (a missing secret, a database down).
          core.log({
            level: 'error',
            message: `authenticate hook failed: ${withoutQuotedInput(error instanceof Error ? error.message : String(error))}`,
            code: (error as Error)?.name ?? 'Error',
          });
          throw new ProblemError(500, {
            code: 'authenticate_failed',
            title: 'Sign-in check failed',
            detail: 'The portal could not check the sign-in.',
          });
        }
        if (!signedIn?.uniqueId) {
          // Failed sign-ins are counted apart: past the limit they are answered 429, and they
          // never use up the sign-ins of the members behind the same address.
          if (address)
            await enforceRateLimit(
              core,
              `signin-failed:${address}`,
              core.limits.failedSignInsPerAddressPerMinute,
            );
          throw ProblemError.unauthorized({
            code: 'not_signed_in',
            detail: 'Sign in to the portal to ask a doctor.',
            headers: { 'www-authenticate': 'Bearer realm="consult"' },
          });
        }
        // Sign-ins that succeed, per address and per member: each looks the member up upstream.
        if (address)
          await enforceRateLimit(core, `session:${address}`, core.limits.sessionsPerAddressPerMinute);
        await enforceRateLimit(
          core,
          `signin-member:${await sha256Hex(signedIn.uniqueId)}`,
          core.limits.signInsPerMemberPerMinute,
        );
        let user: User;
        try {
          user = await findOrCreateUser(signedIn, c.req.raw.signal);
        } catch (error) {
          throw fromUpstream(error, core.log);
        }
        // The store's generation exists before the token is issued: a token is refused only if
        // it is older than the store's data.
        await currentGeneration(core);
        const { token, expiresAt } = await mintWidgetToken(
          options.sessionSecret,
          { userId: user.id, uniqueId: signedIn.uniqueId },
          ttlSeconds,
        );
        return json({
          token,
          expiresAt: new Date(expiresAt).toISOString(),
          user: MemberView.parse(user),
        });
      })
      // The member signed out here: this token is refused from now on, by every instance sharing
      // the store, and its open streams close.
      .delete('/session', requireMember(core), async (c) => {
        const signedOut = member(c);
        // The page names its device's push subscription, which ends with the session (S30). The
        // session ends whatever the body: a malformed one is no reason to keep a token alive.
        const pushEndpoint = await pushEndpointOf(c).catch(() => undefined);
        if (pushEndpoint && core.options.push) await releaseEndpoint(core, signedOut.userId, pushEndpoint);
        await endSession(core, signedOut);
        return noContent();
      })
  );
}

/** The push endpoint a sign-out names in its body (`{"pushEndpoint": "…"}`), if any. */
async function pushEndpointOf(c: Context<ProxyEnv>): Promise<string | undefined> {
  const text = await readUtf8(c);
  if (!text || text.length > 2048) return undefined;
  const { pushEndpoint } = JSON.parse(text) as { pushEndpoint?: unknown };
  return typeof pushEndpoint === 'string' && pushEndpoint.length <= 1024 ? pushEndpoint : undefined;
}
