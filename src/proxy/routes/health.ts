import { Hono } from 'hono';
import type { ProxyCore, ProxyEnv } from '../context.js';
import { json } from '../http.js';
import { STORE_RETRY_AFTER_SECONDS, StoreUnavailableError } from '../store.js';

/**
 * A load balancer's health checks, never rate limited.
 * `/healthz`: the process is up. `/readyz`: it can serve, its store answering too; a balancer
 * that routes by it stops sending requests while the store is down, and resumes by itself.
 */
export const healthRoutes = (core: ProxyCore) =>
  new Hono<ProxyEnv>()
    .get('/healthz', () => json({ ok: true }))
    .get('/readyz', async () => {
      try {
        await core.store.ping?.();
        return json({ ok: true });
      } catch (error) {
        const reason = error instanceof StoreUnavailableError ? error.reason : 'error';
        const down = json({ ok: false, store: reason }, 503);
        down.headers.set('retry-after', String(STORE_RETRY_AFTER_SECONDS));
        return down;
      }
    });
