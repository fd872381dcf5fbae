/**
 * `POST {base}/webhooks`: the upstream's events. The signature is checked over the raw body (S10;
 * Standard Webhooks: constant-time, ±5 minutes), each message is handled once, and the owner is
 * found by re-reading the consultation, never taken from the payload. Then
 * `{ type, consultationId, status }` goes to that member's open streams.
 *
 * Nothing is counted per address here (S6): every genuine delivery comes from the service's one
 * address (or the load balancer's), so a per-address count would refuse the service's deliveries
 * under load, or let a flood of forged ones from the same address refuse them. The body size limit
 * runs before (a body is read at most that far), the signature is checked first, and a request
 * that fails it is refused with 401 after at most one HMAC per secret in use, with no store call
 * (a store read only while a rotation is pending): refusing it costs less than counting it would.
 */
import { Hono } from 'hono';
import { ApiError } from '../../client/errors.js';
import { ProblemError } from '../../server/problems.js';
import { WEBHOOK_EVENT_TYPES } from '../../client/types.js';
import type { ProxyCore, ProxyEnv } from '../context.js';
import { json } from '../http.js';
import { header } from '../../server/request-header.js';

/** How often refused webhook signatures are logged at most. */
const REFUSAL_LOG_WINDOW_MS = 10_000;
import { BrowserEvent } from '../schemas.js';
import { recordEvent } from '../event-log.js';
import { MemberMemory } from '../member-memory.js';
import { notifyMember } from '../push/notify.js';
import { StoreUnavailableError } from '../store.js';

const SEEN_TTL_MS = 24 * 60 * 60 * 1000;

export function webhookRoutes(core: ProxyCore) {
  const memory = new MemberMemory(core.store);
  /** The work in progress for each case: the next event for it waits for the one before. */
  const queues = new Map<string, Promise<unknown>>();
  const inOrder = (key: string, task: () => Promise<void>): Promise<void> => {
    const next = (queues.get(key) ?? Promise.resolve()).catch(() => undefined).then(task);
    queues.set(key, next);
    void next
      .catch(() => undefined)
      .finally(() => {
        if (queues.get(key) === next) queues.delete(key);
      });
    return next;
  };

  /** Refused signatures are logged once per window, with how many there were: a flood cannot fill the log. */
  let refusedSince = 0;
  let lastRefusalLog = 0;
  const logRefusal = () => {
    refusedSince++;
    const now = Date.now();
    if (now - lastRefusalLog < REFUSAL_LOG_WINDOW_MS) return;
    core.log({ level: 'warn', message: 'webhook signature rejected', count: refusedSince });
    lastRefusalLog = now;
    refusedSince = 0;
  };

  return new Hono<ProxyEnv>().post('/webhooks', async (c) => {
    const raw = await c.req.text();
    const headers = {
      'webhook-id': header(c, 'webhook-id') ?? '',
      'webhook-timestamp': header(c, 'webhook-timestamp') ?? '',
      'webhook-signature': header(c, 'webhook-signature') ?? '',
    };
    const verdict = await core.verifyWebhook(raw, headers);
    if (verdict === 'no-secret') {
      // No secret yet (registration pending) or none configured: nothing can be verified, so
      // nothing is trusted; the upstream delivers again later.
      core.log({ level: 'warn', message: 'webhook refused: no webhook secret' });
      throw ProblemError.unavailable({
        code: 'webhook_not_configured',
        detail: 'Webhooks cannot be verified yet.',
      });
    }
    if (typeof verdict !== 'object') {
      logRefusal();
      throw ProblemError.unauthorized({
        code: 'invalid_signature',
        detail: 'The webhook signature is not valid.',
      });
    }
    let event: { type?: unknown; caseId?: unknown };
    try {
      event = JSON.parse(raw) as typeof event;
    } catch {
      throw ProblemError.badRequest({ code: 'invalid_json', detail: 'The webhook body is not JSON.' });
    }
    if (
      typeof event.caseId !== 'string' ||
      !/^[A-Za-z0-9_-]{1,128}$/.test(event.caseId) ||
      typeof event.type !== 'string'
    ) {
      throw ProblemError.badRequest({
        code: 'invalid_event',
        detail: 'The event needs a type and a caseId.',
      });
    }

    const messageId =
      headers['webhook-id'] || `${event.type}:${event.caseId}:${headers['webhook-timestamp']}`;
    const seenKey = `webhook-seen:${messageId}`;
    const handlingKey = `webhook-handling:${messageId}`;
    // Marked handled only once its event is recorded (Standard Webhooks: a 2xx means "done").
    // Until then a claim that ends by itself keeps two instances from handling one message at
    // once; an instance that dies holding it leaves nothing marked, and a redelivery after the
    // claim lapses is handled in full.
    if (await core.store.get(seenKey)) return json({ received: true, duplicate: true });
    const claimMs = core.limits.upstreamTimeoutMs * 3;
    if (!(await core.store.setIfAbsent(handlingKey, '1', claimMs))) {
      throw ProblemError.conflict({
        code: 'in_progress',
        title: 'Being handled',
        detail: 'This message is being handled; deliver it again later.',
        headers: { 'retry-after': String(Math.ceil(claimMs / 1000)) },
      });
    }
    const { caseId, type } = event;
    let outcome: Record<string, unknown> = { received: true };
    try {
      // One case's events are read and numbered one after another, in the order they came, so
      // "resolved" never reaches a member before the "claimed" that preceded it.
      await inOrder(caseId, async () => {
        const consultation = await core.upstream.getConsultation(caseId);
        const message = BrowserEvent.parse({
          // Browsers hear the known types only; anything newer is a plain "it changed".
          type: (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type) ? type : 'consultationChanged',
          consultationId: consultation.consultationId,
          status: consultation.status,
        });
        // While two registrations overlap (a rotation, or two that met after the store was
        // emptied) the service sends each event once per registration, under different
        // message ids: one event is recorded once, whichever copy comes first. An event is named
        // by its case, its type and its round: an answer by how many questions are answered, a
        // claim (or anything else) by how many were asked. A copy that comes later, after the case
        // moved on (claimed, then resolved; or a follow-up asked), still names the same event.
        const answered = consultation.questions.filter((q) => q.answer).length;
        const round = type === 'questionResolved' ? answered : consultation.questions.length;
        const eventKey = `webhook-event:${caseId}:${type}:${round}`;
        const first = await core.store.setIfAbsent(eventKey, verdict.signer, SEEN_TTL_MS);
        if (!first && (await core.store.get(eventKey)) !== verdict.signer) {
          outcome = { received: true, duplicate: true };
          return;
        }
        try {
          // The newest answer arrived now (times only, S27): an answer before it that no event
          // brought keeps no time, rather than this one.
          if (type === 'questionResolved' && answered > 0)
            await memory.answerArrived(consultation.userId, consultation.consultationId, answered - 1);
          // Kept for replay whether or not the member has a stream open right now.
          await recordEvent(core, consultation.userId, JSON.stringify(message));
        } catch (error) {
          if (first) await core.store.delete(eventKey).catch(() => undefined);
          throw error;
        }
        // The member's devices hear that there is news (never what it is), once per change, while
        // the service's delivery is answered: a slow push service never delays it (S28).
        void notifyMember(core, type, consultation);
      });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        outcome = { received: true, ignored: 'unknown consultation' };
      } else {
        // Not handled: let the upstream deliver it again.
        await core.store.delete(handlingKey).catch(() => undefined);
        core.log({
          level: 'error',
          message: 'webhook handling failed',
          code:
            error instanceof ApiError
              ? error.code
              : error instanceof StoreUnavailableError
                ? 'store_unavailable'
                : 'error',
        });
        throw ProblemError.unavailable({
          code: 'try_again',
          detail: 'The event could not be handled now.',
          retryAfter: 5,
        });
      }
    }
    // Only now is it handled. Should this write fail, the event is already recorded and a
    // redelivery records it once more: the member reads the same status twice, never none.
    await core.store.set(seenKey, '1', SEEN_TTL_MS);
    await core.store.delete(handlingKey).catch(() => undefined);
    return json(outcome);
  });
}
