import { Hono } from 'hono';
import type { SandboxCore, SandboxEnv } from '../context.js';
import { idempotency, type IdempotencyRecords } from '../middleware.js';
import { unknownId } from '../../server/problems.js';
import { CreatePrescriptionBody, SendMessageBody, StartConversationBody } from '../../server/schemas.js';
import { readBody } from '../../server/validation.js';

/** Operations 18–20: health navigator conversations and prescription requests. */
export function navigatorRoutes(core: SandboxCore, records: IdempotencyRecords) {
  const { state } = core;
  const once = idempotency(core, records);
  return new Hono<SandboxEnv>()
    .post('/v2/health-navigator/users/:userId/conversations', once, async (c) => {
      c.set('subjectUserId', c.req.param('userId'));
      // The body is free-form (spec 4, operation 18) and may be empty; a malformed one is a 400.
      await readBody(c, StartConversationBody, { emptyAs: {} });
      return c.json(state.startConversation(c.req.param('userId')), 201);
    })
    .post('/v2/health-navigator/messages', once, async (c) => {
      const { conversationId, message } = await readBody(c, SendMessageBody);
      const conversation = state.conversations.get(conversationId);
      if (!conversation) throw unknownId('conversation', conversationId);
      c.set('subjectUserId', conversation.userId);
      return c.json(state.sendMessage(conversationId, message));
    })
    .post('/prescription', once, async (c) => {
      const { userId, indicationSurvey } = await readBody(c, CreatePrescriptionBody);
      c.set('subjectUserId', userId);
      return c.json(state.createPrescription(userId, indicationSurvey), 201);
    });
}
