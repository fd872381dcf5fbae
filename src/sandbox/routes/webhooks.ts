import { Hono } from 'hono';
import type { SandboxCore, SandboxEnv } from '../context.js';
import { formatEvent } from '../format-event.js';
import { idempotency, type IdempotencyRecords } from '../middleware.js';
import { CreateWebhookBody, FormatEventBody } from '../../server/schemas.js';
import { readBody } from '../../server/validation.js';

/** Operations 15–17: webhooks and event formatting. */
export function webhookRoutes(core: SandboxCore, records: IdempotencyRecords) {
  const { state } = core;
  return new Hono<SandboxEnv>()
    .post('/webhook', idempotency(core, records), async (c) => {
      const { url, events } = await readBody(c, CreateWebhookBody);
      return c.json(state.createWebhook(url, events), 201);
    })
    .delete('/webhook/:webhookId', (c) => {
      state.deleteWebhook(c.req.param('webhookId'));
      return c.body(null, 204);
    })
    .post('/webhook/format-event', async (c) => c.json(formatEvent(await readBody(c, FormatEventBody))));
}
