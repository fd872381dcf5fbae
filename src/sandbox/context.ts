import type { Hono } from 'hono';
import type { SandboxClock } from './clock.js';
import type { SandboxState } from './state.js';

/** What a signed-in partner's access token stands for. */
export interface PartnerSession {
  token: string;
  expiresAt: number;
  subPartnerName?: string;
}

export interface SandboxEnv {
  Variables: {
    partner: PartnerSession;
    /** The user a request concerns, recorded in the request log. */
    subjectUserId: string;
  };
}

export type SandboxApp = Hono<SandboxEnv>;

export interface ProfessionalsConfig {
  mode: 'auto' | 'manual';
  claimAfterMs: number;
  answerAfterMs: number;
}

export interface FaultsConfig {
  latencyMs: number;
  errorRate: number;
  rateLimitRate: number;
}

/** The pieces route modules work with. */
export interface SandboxCore {
  state: SandboxState;
  clock: SandboxClock;
  tokens: Map<string, PartnerSession>;
  apiKeys: readonly string[];
  tokenTtlMs: number;
  professionals: ProfessionalsConfig;
  faults: FaultsConfig;
}
