import { Hono } from 'hono';
import { z } from 'zod';
import type { SandboxCore, SandboxEnv } from '../context.js';
import type { RequestLogEntry } from '../middleware.js';
import { ProfessionalSchema } from '../../server/schemas.js';
import type { WebhookDispatcher } from '../webhook-delivery.js';
import { readBody } from '../../server/validation.js';

const ProfessionalsBody = z.strictObject({
  mode: z.enum(['auto', 'manual']).optional(),
  claimAfterMs: z.number().int().min(0).max(86_400_000).optional(),
  answerAfterMs: z.number().int().min(0).max(86_400_000).optional(),
});
const ClaimBody = z.strictObject({ professional: ProfessionalSchema.optional() });
const AnswerBody = z.strictObject({
  answer: z.string().min(1).max(20_000).optional(),
  professional: ProfessionalSchema.optional(),
});
const ClockBody = z.strictObject({ advanceMs: z.number().int().min(0) });
const UserStatusBody = z.strictObject({
  status: z.enum(['activeUser', 'pendingActivation', 'deactivatedUser']),
});
const NavigatorReplyBody = z.strictObject({
  text: z.string().min(1).max(20_000),
  suggestsDoctor: z.boolean().optional(),
  urgent: z.boolean().optional(),
});
const Rate = z.number().min(0).max(1);
const FaultsBody = z.strictObject({
  latencyMs: z.number().int().min(0).max(60_000).optional(),
  errorRate: Rate.optional(),
  rateLimitRate: Rate.optional(),
});

export interface ControlHooks {
  reset(): void;
  professionalsChanged(): void;
  dispatcher: WebhookDispatcher;
  requests: RequestLogEntry[];
}

/** Sandbox-only controls under `/_sandbox`: tests and the demo drive the professionals' side here. */
export function controlRoutes(core: SandboxCore, hooks: ControlHooks) {
  const { state } = core;
  const id = (c: { req: { param(name: 'id'): string } }) => c.req.param('id');
  return (
    new Hono<SandboxEnv>()
      .post('/_sandbox/reset', (c) => {
        hooks.reset();
        return c.json({ ok: true, now: core.clock.nowIso() });
      })
      .get('/_sandbox/professionals', (c) => c.json(core.professionals))
      .post('/_sandbox/professionals', async (c) => {
        Object.assign(core.professionals, await readBody(c, ProfessionalsBody));
        hooks.professionalsChanged();
        return c.json(core.professionals);
      })
      .post('/_sandbox/consultations/:id/claim', async (c) => {
        const { professional } = await readBody(c, ClaimBody, { emptyAs: {} });
        return c.json(state.claim(id(c), professional));
      })
      .post('/_sandbox/consultations/:id/answer', async (c) => {
        const { answer, professional } = await readBody(c, AnswerBody, { emptyAs: {} });
        return c.json(state.answer(id(c), answer, professional));
      })
      .post('/_sandbox/consultations/:id/cancel', (c) => c.json(state.cancel(id(c))))
      .post('/_sandbox/consultations/:id/close', (c) => c.json(state.close(id(c))))
      .get('/_sandbox/clock', (c) => c.json({ now: core.clock.nowIso() }))
      .post('/_sandbox/clock', async (c) => {
        core.clock.advance((await readBody(c, ClockBody)).advanceMs);
        return c.json({ now: core.clock.nowIso() });
      })
      .get('/_sandbox/faults', (c) => c.json(core.faults))
      .post('/_sandbox/faults', async (c) => {
        Object.assign(core.faults, await readBody(c, FaultsBody));
        return c.json(core.faults);
      })
      // A member's world changes during a demo or a test: their plan ends, their account is
      // suspended, the navigator says something in particular.
      .post('/_sandbox/subscriptions/:id/cancel', (c) => c.json(state.endSubscription(id(c), 'cancel')))
      .post('/_sandbox/subscriptions/:id/expire', (c) => c.json(state.endSubscription(id(c), 'expire')))
      .post('/_sandbox/users/:id/status', async (c) => {
        const { status } = await readBody(c, UserStatusBody);
        return c.json(state.setUserStatus(id(c), status));
      })
      .post('/_sandbox/navigator/replies', async (c) => {
        const reply = await readBody(c, NavigatorReplyBody);
        state.navigatorReplies.push({ suggestsDoctor: false, urgent: false, ...reply });
        return c.json({ queued: state.navigatorReplies.length });
      })
      .get('/_sandbox/webhook-deliveries', (c) => c.json(hooks.dispatcher.attempts))
      .get('/_sandbox/requests', (c) => c.json(hooks.requests))
  );
}
