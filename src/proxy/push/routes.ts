/**
 * The member's own push routes (S29): `GET {base}/push` (whether push is on, and the key to
 * subscribe with), `PUT {base}/push/subscription` (this device's subscription, for the member the
 * widget token names, never another) and `DELETE {base}/push/subscription` (this device's, at
 * sign-out, or when another member signs in on it). Nothing is stored unless the whole body is valid.
 */
import { Hono } from 'hono';
import { ProblemError } from '../../server/problems.js';
import { readUtf8 } from '../../server/validation.js';
import type { ProxyCore, ProxyEnv } from '../context.js';
import { json, noContent } from '../http.js';
import { member, requireMember } from '../middleware.js';
import {
  addSubscription,
  EndpointBody,
  parseSmallJson,
  parseSubscription,
  releaseEndpoint,
} from './subscriptions.js';

export function pushRoutes(core: ProxyCore) {
  const auth = requireMember(core);
  const configured = () => {
    const push = core.options.push;
    if (!push) throw ProblemError.notFound('Notifications are not configured on this proxy.');
    return push;
  };
  return (
    new Hono<ProxyEnv>()
      .get('/push', auth, () => {
        const push = configured();
        return json({ publicKey: push.vapid.publicKey, ...(push.page ? { page: push.page } : {}) });
      })
      // Fetched by the browser's service worker registration, which carries no token.
      .get('/push/sw.js', () => {
        const code = configured().serviceWorker;
        if (code === undefined) throw ProblemError.notFound('The push service worker is not served here.');
        return new Response(code, {
          headers: {
            'content-type': 'text/javascript; charset=utf-8',
            // Registered at its own folder's scope it controls no page; this lets a portal that
            // registers it itself choose a wider scope, whatever path the proxy is mounted at.
            'service-worker-allowed': '/',
          },
        });
      })
      .put('/push/subscription', auth, async (c) => {
        const push = configured();
        const body = parseSubscription(await readUtf8(c), push);
        await addSubscription(core, member(c).userId, {
          endpoint: body.endpoint,
          keys: body.keys,
          lang: body.lang ?? 'en',
          at: Date.now(),
        });
        return noContent();
      })
      .delete('/push/subscription', auth, async (c) => {
        configured();
        const { endpoint } = parseSmallJson(await readUtf8(c), EndpointBody);
        await releaseEndpoint(core, member(c).userId, endpoint);
        return noContent();
      })
  );
}
