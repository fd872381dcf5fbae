import type { SandboxServerOptions } from './node.js';

/** Sandbox options from the environment; a bad value stops the start with a message that says which. */
export function readSandboxEnv(env: NodeJS.ProcessEnv): SandboxServerOptions {
  const int = (name: string, fallback: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0)
      throw new Error(`${name} must be a whole number of 0 or more; got "${raw}".`);
    return value;
  };
  const mode = env['SANDBOX_PROFESSIONALS'] ?? 'auto';
  if (mode !== 'auto' && mode !== 'manual') {
    throw new Error(`SANDBOX_PROFESSIONALS must be "auto" or "manual"; got "${mode}".`);
  }
  const keys = (env['SANDBOX_API_KEYS'] ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  return {
    port: int('SANDBOX_PORT', 8788),
    tokenTtlMs: int('SANDBOX_TOKEN_TTL_SECONDS', 3600) * 1000,
    ...(keys.length ? { apiKeys: keys } : {}),
    professionals: {
      mode,
      claimAfterMs: int('SANDBOX_CLAIM_AFTER_MS', 3000),
      answerAfterMs: int('SANDBOX_ANSWER_AFTER_MS', 6000),
    },
  };
}
