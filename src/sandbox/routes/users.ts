import { Hono } from 'hono';
import type { SandboxCore, SandboxEnv } from '../context.js';
import { idempotency, type IdempotencyRecords } from '../middleware.js';
import { ProblemError } from '../../server/problems.js';
import {
  CreateSubscriptionBody,
  CreateUserBody,
  SearchUsersBody,
  UpdateUserBody,
} from '../../server/schemas.js';
import { readBody } from '../../server/validation.js';

/** Operations 2–10: users and their subscriptions. */
export function userRoutes(core: SandboxCore, records: IdempotencyRecords) {
  const { state } = core;
  const once = idempotency(core, records);
  return (
    new Hono<SandboxEnv>()
      .post('/user', once, async (c) => {
        const body = await readBody(c, CreateUserBody);
        const user = state.createUser(body, c.get('partner').subPartnerName);
        c.set('subjectUserId', user.id);
        return c.json(user, 201);
      })
      // The search paths come before /user/:userId so that "search" is never taken for an id.
      .get('/user/search', (c) => {
        const uniqueId = c.req.query('uniqueId');
        if (!uniqueId)
          throw ProblemError.invalid([{ field: 'uniqueId', message: 'is required as a query parameter' }]);
        return c.json(state.findUsers({ uniqueId }));
      })
      .post('/user/search', async (c) => c.json(state.findUsers(await readBody(c, SearchUsersBody))))
      .get('/user/:userId', (c) => {
        c.set('subjectUserId', c.req.param('userId'));
        return c.json(state.getUser(c.req.param('userId')));
      })
      .put('/user/:userId', async (c) => {
        c.set('subjectUserId', c.req.param('userId'));
        return c.json(state.updateUser(c.req.param('userId'), await readBody(c, UpdateUserBody)));
      })
      .post('/user/:userId/subscription', once, async (c) => {
        c.set('subjectUserId', c.req.param('userId'));
        const body = await readBody(c, CreateSubscriptionBody);
        return c.json(state.createSubscription(c.req.param('userId'), body), 201);
      })
      .get('/user/:userId/subscriptions', (c) => {
        c.set('subjectUserId', c.req.param('userId'));
        return c.json(state.getUserSubscriptions(c.req.param('userId')));
      })
      .get('/user/:userId/subscription/:subscriptionId', (c) => {
        c.set('subjectUserId', c.req.param('userId'));
        return c.json(state.getSubscription(c.req.param('userId'), c.req.param('subscriptionId')));
      })
      .get('/user/:userId/subscription/:subscriptionId/history', (c) => {
        c.set('subjectUserId', c.req.param('userId'));
        return c.json(state.getSubscriptionHistory(c.req.param('userId'), c.req.param('subscriptionId')));
      })
  );
}
