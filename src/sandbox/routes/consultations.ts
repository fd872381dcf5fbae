import { Hono } from 'hono';
import type { SandboxCore, SandboxEnv } from '../context.js';
import { idempotency, type IdempotencyRecords } from '../middleware.js';
import { AddFollowUpBody, CreateConsultationBody } from '../../server/schemas.js';
import { readBody } from '../../server/validation.js';

/** Operations 11–14: consultations, follow-ups and case history. */
export function consultationRoutes(core: SandboxCore, records: IdempotencyRecords) {
  const { state } = core;
  const once = idempotency(core, records);
  return new Hono<SandboxEnv>()
    .post('/consultation', once, async (c) => {
      const { userId, questions } = await readBody(c, CreateConsultationBody);
      c.set('subjectUserId', userId);
      return c.json(state.createConsultation(userId, questions), 201);
    })
    .get('/consultation/:consultationId', (c) => {
      const consultation = state.getConsultation(c.req.param('consultationId'));
      c.set('subjectUserId', consultation.userId);
      return c.json(consultation);
    })
    .post('/consultation/:consultationId', once, async (c) => {
      const id = c.req.param('consultationId');
      c.set('subjectUserId', state.consultation(id).userId);
      const { question } = await readBody(c, AddFollowUpBody);
      return c.json(state.addFollowUp(id, question));
    })
    .get('/user/:userId/case-history', (c) => {
      c.set('subjectUserId', c.req.param('userId'));
      return c.json(state.getCaseHistory(c.req.param('userId')));
    });
}
