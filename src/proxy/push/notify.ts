/**
 * Which changes of a consultation reach the member's devices, and sending them (S28). A push says
 * only that there is news: `answer` when a professional answered a question of it (each answer
 * once), `closed` when the service closed it (no follow-up is possible any more). Being claimed is
 * not worth waking a phone for, and a cancellation is the member's own doing.
 */
import type { Consultation } from '../../client/types.js';
import type { ProxyCore } from '../context.js';
import type { PushPayload } from './send.js';
import { removeSubscription, subscriptionsOf } from './subscriptions.js';

/** An answer is worth telling for two days; a device offline longer learns of it on its next visit. */
export const ANSWER_TTL_SECONDS = 2 * 24 * 60 * 60;
/** A closed case, for a day. */
export const CLOSED_TTL_SECONDS = 24 * 60 * 60;
/** Each change is told once, however many times its event is delivered. */
const TOLD_TTL_MS = 7 * 24 * 60 * 60_000;

/**
 * What news the event `type` brings the member about the case as it now stands, if any: an answer
 * only for `questionResolved` (a claim of a follow-up is none, though an earlier answer stands),
 * a close only for `consultationClosed`.
 */
export function newsOf(
  type: string,
  consultation: Consultation,
): { kind: PushPayload['kind']; mark: string } | undefined {
  const answered = consultation.questions.filter((q) => q.answer).length;
  if (type === 'questionResolved' && answered > 0) return { kind: 'answer', mark: `answer:${answered}` };
  if (type === 'consultationClosed' && consultation.status === 'closed')
    return { kind: 'closed', mark: 'closed' };
  return undefined;
}

/**
 * Tells the member's devices of the news event `type` brings about the case, once per change; forgets each subscription its
 * push service says is gone (404, 410). Never throws: a push is a courtesy, the answer is kept.
 */
export async function notifyMember(core: ProxyCore, type: string, consultation: Consultation): Promise<void> {
  const push = core.options.push;
  if (!push) return;
  try {
    const news = newsOf(type, consultation);
    if (!news) return;
    const { userId, consultationId } = consultation;
    const subscriptions = await subscriptionsOf(core, userId);
    if (subscriptions.length === 0) return;
    if (!(await core.store.setIfAbsent(`push-told:${consultationId}:${news.mark}`, '1', TOLD_TTL_MS))) return;
    const { send } = push;
    if (!send) {
      core.log({ level: 'warn', message: 'push not sent: no push.send (the Node entry uses web-push)' });
      return;
    }
    await Promise.all(
      subscriptions.map(async (subscription) => {
        const payload: PushPayload = { kind: news.kind, consultationId, lang: subscription.lang };
        try {
          const status = await send(
            { endpoint: subscription.endpoint, keys: subscription.keys },
            JSON.stringify(payload),
            {
              vapid: push.vapid,
              ttlSeconds: news.kind === 'answer' ? ANSWER_TTL_SECONDS : CLOSED_TTL_SECONDS,
              urgency: news.kind === 'answer' ? 'normal' : 'low',
            },
          );
          if (status === 404 || status === 410) {
            await removeSubscription(core, userId, subscription.endpoint);
            core.log({ level: 'info', message: 'push subscription gone', userId, status });
          } else if (status >= 400) {
            core.log({ level: 'warn', message: 'push refused', userId, status });
          }
        } catch (error) {
          core.log({
            level: 'warn',
            message: 'push failed',
            userId,
            code: (error as { code?: string }).code ?? (error as Error)?.name ?? 'error',
          });
        }
      }),
    );
  } catch (error) {
    core.log({ level: 'warn', message: 'push failed', code: (error as Error)?.name ?? 'error' });
  }
}
