/**
 * `createSandbox()`: a faithful simulation of the partner health consultation service as a plain
 * fetch handler. It has no Node imports, so it runs in Node (see `node.ts`) and in a browser
 * (Storybook, browser tests) alike.
 */
import { Hono } from 'hono';
import { limitBody } from '../server/body-limit.js';
import { SandboxClock } from './clock.js';
import type {
  FaultsConfig,
  ProfessionalsConfig,
  SandboxCore,
  SandboxEnv,
  PartnerSession,
} from './context.js';
import {
  faults,
  requestLog,
  requireToken,
  type IdempotencyRecords,
  type RequestLogEntry,
} from './middleware.js';
import { openApiDocument } from './openapi.js';
import { ProblemError, problemResponse } from '../server/problems.js';
import { consultationRoutes } from './routes/consultations.js';
import { controlRoutes } from './routes/controls.js';
import { navigatorRoutes } from './routes/navigator.js';
import { tokenRoutes } from './routes/token.js';
import { userRoutes } from './routes/users.js';
import { webhookRoutes } from './routes/webhooks.js';
import { seedDemoData } from './seed.js';
import { SandboxState, type StoredConsultation } from './state.js';
import { WebhookDispatcher, type DeliveryAttempt } from './webhook-delivery.js';

export const DEFAULT_API_KEY = 'sandbox-api-key';
export const MAX_BODY_BYTES = 64 * 1024;

export interface SandboxOptions {
  /** API keys the token operation accepts. Default: `['sandbox-api-key']`. */
  apiKeys?: readonly string[];
  /** Access token lifetime. Default: one hour. */
  tokenTtlMs?: number;
  /** The simulated professionals. Default: `auto`, claiming after 3 s and answering 6 s later. */
  professionals?: Partial<ProfessionalsConfig>;
  /** Waits before webhook redelivery attempts. Default: 5 s, 30 s, 2 min, 10 min, 1 h. */
  webhookRetryDelaysMs?: readonly number[];
  /** How long a webhook receiver may take to answer. Default: 5 s. */
  webhookTimeoutMs?: number;
  /** The fetch used for webhook delivery. Default: the global fetch. */
  fetch?: typeof fetch;
  /** `partnerName` recorded on users. Default: `Sandbox Health Partner`. */
  partnerName?: string;
  /** Load the demo members `alex`, `sam` and `noor`. Default: true. */
  seed?: boolean;
  /** Randomness for injected faults. Default: Math.random. */
  random?: () => number;
}

export interface Sandbox {
  /** The Hono app; `app.fetch` is the web-standard handler. */
  readonly app: Hono<SandboxEnv>;
  /**
   * A `fetch`-compatible function answered by the sandbox in-process: hand it to a client as its
   * `fetch`. Relative URLs resolve against `http://sandbox.local`.
   */
  readonly fetch: typeof fetch;
  readonly state: SandboxState;
  readonly clock: SandboxClock;
  readonly apiKeys: readonly string[];
  /** Every request received, oldest first. */
  readonly requests: readonly RequestLogEntry[];
  /** Every webhook delivery attempt, oldest first. */
  readonly webhookDeliveries: readonly DeliveryAttempt[];
  /** Back to the demo data; see `POST /_sandbox/reset`. */
  reset(): void;
  /** Stops timers (pending answers and webhook retries). */
  close(): void;
}

/** Waits before the 2nd, 3rd, … delivery attempt of a webhook the receiver did not take (2xx). */
export const DEFAULT_WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [
  5_000, 30_000, 120_000, 600_000, 3_600_000,
];

const DEFAULT_PROFESSIONALS: ProfessionalsConfig = { mode: 'auto', claimAfterMs: 3000, answerAfterMs: 6000 };
const NO_FAULTS: FaultsConfig = { latencyMs: 0, errorRate: 0, rateLimitRate: 0 };

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const clock = new SandboxClock();
  const requests: RequestLogEntry[] = [];
  const idempotencyRecords: IdempotencyRecords = new Map();
  const tokens = new Map<string, PartnerSession>();
  const webhookFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  const dispatcher = new WebhookDispatcher(
    clock,
    {
      retryDelaysMs: options.webhookRetryDelaysMs ?? DEFAULT_WEBHOOK_RETRY_DELAYS_MS,
      timeoutMs: options.webhookTimeoutMs ?? 5_000,
      fetch: webhookFetch,
    },
    (webhookId) => state.webhooks.has(webhookId),
  );

  const core: SandboxCore = {
    clock,
    tokens,
    apiKeys: options.apiKeys ?? [DEFAULT_API_KEY],
    tokenTtlMs: options.tokenTtlMs ?? 60 * 60 * 1000,
    professionals: { ...DEFAULT_PROFESSIONALS, ...options.professionals },
    faults: { ...NO_FAULTS },
    get state() {
      return state;
    },
  };

  /** Consultations the professionals have picked up, so that reading one again does not restart the work. */
  const pickedUp = new Set<string>();

  /** In auto mode, a professional claims a new question and later answers it. */
  const scheduleProfessionals = (consultation: StoredConsultation): void => {
    const { mode, claimAfterMs, answerAfterMs } = core.professionals;
    if (mode !== 'auto') return;
    const id = consultation.consultationId;
    pickedUp.add(id);
    clock.schedule(
      claimAfterMs,
      () => {
        if (state.consultations.get(id)?.status === 'open') state.claim(id);
      },
      'professionals',
    );
    clock.schedule(
      claimAfterMs + answerAfterMs,
      () => {
        const current = state.consultations.get(id);
        const waiting = current?.questions.some((q) => q.answer === undefined);
        if (current && waiting && current.status !== 'canceled' && current.status !== 'closed')
          state.answer(id);
      },
      'professionals',
    );
  };

  /**
   * A seeded question that is still waiting is picked up when the member first opens it, so the
   * demo's member watches it being claimed and answered instead of finding it answered already.
   */
  const consultationRead = (consultation: StoredConsultation): void => {
    const waiting = consultation.questions.some((q) => q.answer === undefined);
    if (waiting && consultation.status === 'open' && !pickedUp.has(consultation.consultationId)) {
      scheduleProfessionals(consultation);
    }
  };

  const state: SandboxState = new SandboxState(
    clock,
    options.partnerName ?? 'Sandbox Health Partner',
    dispatcher,
    scheduleProfessionals,
    consultationRead,
  );

  /** Picks up every question still waiting, for example after switching to auto mode. */
  const professionalsChanged = (): void => {
    clock.cancel('professionals');
    pickedUp.clear();
    for (const consultation of state.consultations.values()) {
      const waiting = consultation.questions.some((q) => q.answer === undefined);
      if (waiting && consultation.status !== 'canceled' && consultation.status !== 'closed') {
        scheduleProfessionals(consultation);
      }
    }
  };

  // Reset restores member data; the partner's own setup (access tokens, webhooks) stays.
  const reset = (): void => {
    const webhooks = new Map(state.webhooks);
    state.clear();
    for (const [id, webhook] of webhooks) state.webhooks.set(id, webhook);
    clock.reset();
    dispatcher.clear();
    requests.length = 0;
    idempotencyRecords.clear();
    Object.assign(core.faults, NO_FAULTS);
    if (options.seed !== false) seedDemoData(state);
    // Seeded questions wait for the member to open them (see consultationRead).
    clock.cancel('professionals');
    pickedUp.clear();
  };

  const app = new Hono<SandboxEnv>();
  app.onError((error, c) => {
    if (error instanceof ProblemError) return problemResponse(c, error);
    console.error('sandbox: unexpected error', error);
    return problemResponse(c, ProblemError.internal('The sandbox failed unexpectedly.'));
  });
  app.notFound((c) =>
    problemResponse(c, ProblemError.notFound(`No operation ${c.req.method} ${c.req.path}.`)),
  );
  app.use(requestLog(requests));
  app.use(limitBody(MAX_BODY_BYTES));

  app.get('/', (c) =>
    c.json({
      name: 'Partner health consultation service (sandbox)',
      openapi: '/openapi.json',
      controls: '/_sandbox',
      apiKeys:
        core.apiKeys.length === 1 && core.apiKeys[0] === DEFAULT_API_KEY ? [DEFAULT_API_KEY] : undefined,
    }),
  );
  app.get('/openapi.json', (c) => c.json(openApiDocument()));
  app.route('/', controlRoutes(core, { reset, professionalsChanged, dispatcher, requests }));

  // The service's own operations: faults first (they fail before any work), then the token rule.
  const api = new Hono<SandboxEnv>();
  api.use(faults(core, options.random ?? Math.random));
  api.route('/', tokenRoutes(core));
  api.use(requireToken(core));
  api.route('/', userRoutes(core, idempotencyRecords));
  api.route('/', consultationRoutes(core, idempotencyRecords));
  api.route('/', webhookRoutes(core, idempotencyRecords));
  api.route('/', navigatorRoutes(core, idempotencyRecords));
  app.route('/', api);

  reset();

  const sandboxFetch: typeof fetch = async (input, init) => {
    if (input instanceof Request) return app.fetch(init ? new Request(input, init) : input);
    return app.fetch(new Request(new URL(String(input), 'http://sandbox.local'), init));
  };

  return {
    app,
    fetch: sandboxFetch,
    state,
    clock,
    apiKeys: core.apiKeys,
    requests,
    webhookDeliveries: dispatcher.attempts,
    reset,
    close: () => clock.cancel(),
  };
}
