/**
 * The spec's own paths, narrowed to the signed-in member (docs/architecture.md 2.1). Identity comes only
 * from the widget token (S2); every id is checked against the upstream record or the store before
 * anything of it is returned (S3); bodies are closed (S5) and responses projected.
 */
import { Hono, type Context } from 'hono';
import type { $ZodType } from 'zod/v4/core';
import { ProblemError } from '../../server/problems.js';
import { parseWith, readJson, readUtf8 } from '../../server/validation.js';
import type { ProxyCore, ProxyEnv } from '../context.js';
import {
  FINAL_CONSULTATION_STATUSES,
  MAX_QUESTIONS_PER_CONSULTATION,
  type Consultation,
} from '../../client/types.js';
import { fromUpstream, notYours, refusal } from '../errors.js';
import { json } from '../http.js';
import { header } from '../../server/request-header.js';
import { once } from '../idempotency.js';
import { recordEvent } from '../event-log.js';
import { MemberMemory } from '../member-memory.js';
import { view } from '../views.js';
import { member, requireMember } from '../middleware.js';
import {
  BrowserCreateConsultation,
  BrowserCreatePrescription,
  BrowserFollowUp,
  BrowserSeen,
  BrowserSendMessage,
  BrowserEvent,
  BrowserStartConversation,
  ConversationView,
  IdParam,
  MemberView,
  PrescriptionView,
  ReplyView,
  SubscriptionView,
  ConsultationView,
} from '../schemas.js';
import type { ConsultationView as RememberedConsultation } from '../../client/browser-types.js';

const CONVERSATION_OWNER_TTL_MS = 90 * 24 * 60 * 60 * 1000;
/** As long as an Idempotency-Key's outcome is kept. */
const FOLLOW_UP_PENDING_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Whether the case already holds the question a keyed follow-up asked: at the place noted before
 * it was sent (`pendingAt`), or, with no note (the store lost it), as its newest question at the
 * limit: a case that is full and ends with this very question took it.
 */
function recordedUpstream(
  questions: readonly { question: string }[],
  question: string,
  pendingAt: string | undefined,
): boolean {
  if (pendingAt !== undefined) return questions[Number(pendingAt)]?.question === question;
  return questions.length >= MAX_QUESTIONS_PER_CONSULTATION && questions.at(-1)?.question === question;
}

/** A path id: well-formed, or the same 404 as any record that is not the member's. */
function pathId(c: Context<ProxyEnv>, name: string): string {
  const value = c.req.param(name) ?? '';
  if (!IdParam.safeParse(value).success) throw notYours();
  return value;
}

/** The member's own user id in the path, or 404 with no upstream call. */
function ownUserId(c: Context<ProxyEnv>): string {
  const userId = pathId(c, 'userId');
  if (userId !== member(c).userId) throw notYours();
  return userId;
}

/** A body userId, when given, must be the member's own. */
function assertOwnBodyUser(c: Context<ProxyEnv>, userId: string | undefined): void {
  if (userId !== undefined && userId !== member(c).userId) {
    throw ProblemError.forbidden({
      code: 'not_your_user',
      detail: 'Requests can only be made for the signed-in member.',
      errors: [{ field: 'userId', message: 'must be the signed-in member' }],
    });
  }
}

export function memberRoutes(core: ProxyCore) {
  const upstreamCall = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      throw fromUpstream(error, core.log);
    }
  };
  const { upstream, store } = core;
  const memory = new MemberMemory(store);

  /** The consultations as the elements get them: projected, with what the proxy remembers of each. */
  const remembered = async (
    userId: string,
    records: readonly unknown[],
  ): Promise<RememberedConsultation[]> => {
    const views = records.map((record) => view(ConsultationView, record));
    const facts = await memory.of(userId, views);
    return views.map((v) => ({ ...v, ...facts.get(v.consultationId) }));
  };
  const rememberedOne = async (userId: string, record: unknown) =>
    (await remembered(userId, [record]))[0] as RememberedConsultation;
  // Reads are not cancelled when the browser goes away: each ends within the upstream timeout
  // anyway, and watching every request's signal would cost about a tenth of a read's CPU.

  /** The consultation, if it is the member's; else the same 404 as an unknown id. */
  const ownConsultation = async (c: Context<ProxyEnv>) => {
    const id = pathId(c, 'consultationId');
    let consultation: Consultation;
    try {
      consultation = await upstream.getConsultation(id);
    } catch (error) {
      const failure = fromUpstream(error, core.log);
      // Until ownership is known, any refusal but a rate limit is the same 404: nothing about
      // another member's record (that it exists, its state) may show through.
      const status = (failure as { status?: number }).status ?? 0;
      throw status >= 400 && status < 500 && status !== 429 ? notYours() : failure;
    }
    if (consultation.userId !== member(c).userId) throw notYours();
    return consultation;
  };

  const body = async <S extends $ZodType>(c: Context, schema: S, emptyAs?: unknown) => {
    const text = await readUtf8(c);
    if (text.trim() === '' && emptyAs !== undefined) return parseWith(schema, emptyAs);
    return parseWith(schema, await readJson(c));
  };

  /**
   * A create, once per member and Idempotency-Key (S14): `run` calls the upstream with the
   * options it is given (the signal, and the upstream key derived from the browser's).
   */
  const createOnce = async (
    c: Context<ProxyEnv>,
    route: string,
    request: unknown,
    status: 200 | 201,
    run: (options: { signal: AbortSignal; idempotencyKey?: string }) => Promise<unknown>,
  ) => {
    const outcome = await once(
      core,
      member(c).userId,
      header(c, 'idempotency-key'),
      { route, body: request },
      async (key) => ({
        status,
        // Not the request's own signal: a create shared by concurrent repeats must not end because
        // the first of them went away.
        body: await upstreamCall(() =>
          run({
            signal: AbortSignal.timeout(core.limits.upstreamTimeoutMs * 2),
            ...(key ? { idempotencyKey: key } : {}),
          }),
        ),
      }),
    );
    return json(outcome.body, outcome.status);
  };

  const auth = requireMember(core);
  return new Hono<ProxyEnv>()
    .get('/user/:userId', auth, async (c) => {
      const user = await upstreamCall(() => upstream.getUser(ownUserId(c)));
      return json(view(MemberView, user));
    })
    .get('/user/:userId/subscriptions', auth, async (c) => {
      const userId = ownUserId(c);
      const subscriptions = await upstreamCall(() => upstream.getUserSubscriptions(userId));
      return json(subscriptions.filter((s) => s.userId === userId).map((s) => view(SubscriptionView, s)));
    })
    .get('/user/:userId/subscription/:subscriptionId', auth, async (c) => {
      const userId = ownUserId(c);
      const subscription = await upstreamCall(() =>
        upstream.getSubscription(userId, pathId(c, 'subscriptionId')),
      );
      if (subscription.userId !== userId) throw notYours();
      return json(view(SubscriptionView, subscription));
    })
    .get('/user/:userId/subscription/:subscriptionId/history', auth, async (c) => {
      const userId = ownUserId(c);
      const history = await upstreamCall(() =>
        upstream.getSubscriptionHistory(userId, pathId(c, 'subscriptionId')),
      );
      if (history.some((s) => s.userId !== userId)) throw notYours();
      return json(history.map((s) => view(SubscriptionView, s)));
    })
    .post('/consultation', auth, async (c) => {
      const request = await body(c, BrowserCreateConsultation);
      assertOwnBodyUser(c, request.userId);
      const { userId } = member(c);
      return createOnce(c, 'createConsultation', request.questions, 201, async (options) => {
        const created = view(
          ConsultationView,
          await upstream.createConsultation({ userId, questions: request.questions }, options),
        );
        // Every question of a new consultation went out now.
        await Promise.all(
          created.questions.map((_, i) => memory.questionSent(userId, created.consultationId, i)),
        );
        return rememberedOne(userId, created);
      });
    })
    .get('/consultation/:consultationId', auth, async (c) =>
      json(await rememberedOne(member(c).userId, await ownConsultation(c))),
    )
    .post('/consultation/:consultationId', auth, async (c) => {
      // The id first: a malformed one is the same 404 as any record that is not the member's.
      pathId(c, 'consultationId');
      const request = await body(c, BrowserFollowUp);
      const consultation = await ownConsultation(c);
      const id = consultation.consultationId;
      const browserKey = header(c, 'idempotency-key');
      const { userId } = member(c);
      return createOnce(c, `followUp:${id}`, request, 200, async (options) => {
        // A keyed repeat whose outcome was never recorded here (the instance that sent it died
        // after the upstream took it): if the case already holds this key's question, that is
        // the answer, the limit notwithstanding. Only a new question can be refused at the limit.
        const pendingKey = browserKey && `followup-pending:${userId}:${browserKey}`;
        if (
          pendingKey &&
          recordedUpstream(consultation.questions, request.question, await store.get(pendingKey))
        )
          return rememberedOne(userId, consultation);
        // The proxy has just read the case: a fourth question, or one on an ended case, is refused
        // here in the upstream's own words, without asking it. A repeat of a follow-up that was
        // already made never gets here: its recorded answer is given again.
        if (FINAL_CONSULTATION_STATUSES.includes(consultation.status)) throw refusal('consultation_closed');
        if (consultation.questions.length >= MAX_QUESTIONS_PER_CONSULTATION)
          throw refusal('question_limit_reached');
        // Where this question will stand, noted before the upstream is asked, for such a repeat.
        if (pendingKey)
          await store.set(pendingKey, String(consultation.questions.length), FOLLOW_UP_PENDING_TTL_MS);
        const updated = view(ConsultationView, await upstream.addConsultationFollowUp(id, request, options));
        await memory.questionSent(userId, id, updated.questions.length - 1);
        return rememberedOne(userId, updated);
      });
    })
    .put('/consultations/:consultationId/seen', auth, async (c) => {
      // The id first: a malformed one is the same 404 as any record that is not the member's.
      pathId(c, 'consultationId');
      const request = await body(c, BrowserSeen);
      const consultation = await ownConsultation(c);
      const answered = consultation.questions.filter((q) => q.answer !== undefined).length;
      const { userId } = member(c);
      const id = consultation.consultationId;
      const before = (await memory.of(userId, [consultation])).get(id)?.seenAnswers ?? 0;
      // Read marks only grow, up to the answers there are: a tab that was behind (another tab or
      // device read further) hears how far, and nothing changes.
      const over = request.answers > answered;
      if (over || request.answers < before) {
        const count = over ? answered : before;
        const answers = `${count} answer${count === 1 ? '' : 's'}`;
        throw ProblemError.conflict({
          code: over ? 'answers_not_available' : 'answers_seen_already',
          title: over ? 'Not that many answers' : 'Seen already',
          detail: over
            ? `The consultation has ${answers}; more cannot have been seen.`
            : `${answers} of the consultation seen already; the count cannot go down.`,
          errors: [{ field: 'answers', message: `must be at ${over ? 'most' : 'least'} ${count}` }],
        });
      }
      const answers = await memory.seen(userId, id, request.answers);
      if (answers > before) {
        // The member's other tabs and devices hear it, as they hear a webhook's event: a hint to read again.
        const message = BrowserEvent.parse({
          type: 'consultationSeen',
          consultationId: id,
          status: consultation.status,
          answers,
        });
        await recordEvent(core, userId, JSON.stringify(message));
      }
      return json({ consultationId: id, answers });
    })
    .get('/user/:userId/case-history', auth, async (c) => {
      const userId = ownUserId(c);
      const history = await upstreamCall(() => upstream.getCaseHistory(userId));
      return json(
        await remembered(
          userId,
          history.filter((h) => h.userId === userId),
        ),
      );
    })
    .get('/prescriptions', auth, async (c) => json(await memory.prescriptions(member(c).userId)))
    .post('/v2/health-navigator/users/:userId/conversations', auth, async (c) => {
      const userId = ownUserId(c);
      const request = await body(c, BrowserStartConversation, {});
      return createOnce(c, 'startConversation', request, 201, async (options) => {
        const conversation = await upstream.startNavigatorConversation(userId, request, options);
        if (conversation.userId !== userId) throw notYours();
        await store.set(`conversation:${conversation.conversationId}`, userId, CONVERSATION_OWNER_TTL_MS);
        return view(ConversationView, conversation);
      });
    })
    .post('/v2/health-navigator/messages', auth, async (c) => {
      const request = await body(c, BrowserSendMessage);
      const { userId } = member(c);
      // Conversations are the member's only if this proxy started them for the member.
      if ((await store.get(`conversation:${request.conversationId}`)) !== userId) throw notYours();
      return createOnce(c, 'sendMessage', request, 200, async (options) =>
        view(ReplyView, await upstream.sendNavigatorMessage(request, options)),
      );
    })
    .post('/prescription', auth, async (c) => {
      const request = await body(c, BrowserCreatePrescription);
      assertOwnBodyUser(c, request.userId);
      const { userId } = member(c);
      const survey = request.indicationSurvey ? { indicationSurvey: request.indicationSurvey } : {};
      return createOnce(c, 'createPrescription', request, 201, async (options) => {
        const created = view(
          PrescriptionView,
          await upstream.createPrescriptionRequest({ userId, ...survey }, options),
        );
        // Kept so the member finds it again (never the survey: security.md S27).
        await memory.prescriptionSent(userId, created);
        return created;
      });
    });
}
