/**
 * The service's own notifications (operation 4's `shouldNotify`): with `serviceNotifications` on
 * the proxy, the member turns them on or off for themselves. Only that field of the member's own
 * user record is written (S29); nothing else of it is read or changed. The service does not say
 * the field back, so the member's last choice is kept in the store to show it again.
 */
import { Hono } from 'hono';
import * as z from 'zod/mini';
import { ProblemError } from '../../server/problems.js';
import { readUtf8 } from '../../server/validation.js';
import type { ProxyCore, ProxyEnv } from '../context.js';
import { fromUpstream } from '../errors.js';
import { json } from '../http.js';
import { member, requireMember } from '../middleware.js';
import { parseSmallJson } from './subscriptions.js';

const ServiceNotificationsBody = z.strictObject({ shouldNotify: z.boolean('must be true or false') });
const CHOICE_TTL_MS = 365 * 24 * 60 * 60_000;
const choiceKey = (userId: string) => `service-notify:${userId}`;

export function serviceNotificationRoutes(core: ProxyCore) {
  const auth = requireMember(core);
  const allowed = () => {
    if (!core.options.serviceNotifications)
      throw ProblemError.notFound('The service’s notifications are not offered here.');
  };
  return new Hono<ProxyEnv>()
    .get('/service-notifications', auth, async (c) => {
      allowed();
      const choice = await core.store.get(choiceKey(member(c).userId));
      return json({ shouldNotify: choice === undefined ? null : choice === '1' });
    })
    .put('/service-notifications', auth, async (c) => {
      allowed();
      const { shouldNotify } = parseSmallJson(await readUtf8(c), ServiceNotificationsBody);
      const { userId } = member(c);
      try {
        await core.upstream.updateUser(userId, { shouldNotify });
      } catch (error) {
        throw fromUpstream(error, core.log);
      }
      await core.store.set(choiceKey(userId), shouldNotify ? '1' : '0', CHOICE_TTL_MS);
      return json({ shouldNotify });
    });
}
