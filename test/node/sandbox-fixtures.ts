/** Shared assertions and waits for the sandbox tests (`sandbox-*.test.ts`). */
import assert from 'node:assert/strict';
import { ProblemSchema } from '../../src/server/schemas.js';

export interface CallResult {
  status: number;
  body: unknown;
  headers: Headers;
}

/**
 * Asserts an `application/problem+json` error with `type, title, status, code`; for a 400, that
 * `errors` names every field in `fields` (and only fields that exist when `exactFields` is set).
 */
export function assertProblem(
  res: CallResult,
  status: number,
  code: string,
  fields: readonly string[] = [],
  options: { exactFields?: boolean } = {},
): void {
  const context = JSON.stringify(res.body);
  assert.equal(res.status, status, `status: ${context}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/, context);
  const problem = ProblemSchema.parse(res.body);
  assert.equal(problem.status, status, context);
  assert.equal(problem.code, code, context);
  assert.ok(problem.type.length > 0, context);
  assert.ok(problem.title.length > 0, context);
  if (status === 400 && code === 'invalid_request') {
    assert.ok(problem.errors && problem.errors.length > 0, `400 without errors: ${context}`);
    const named = problem.errors.map((e) => e.field);
    for (const field of fields) assert.ok(named.includes(field), `errors should name "${field}": ${context}`);
    if (options.exactFields) assert.deepEqual([...new Set(named)].sort(), [...fields].sort(), context);
    for (const e of problem.errors) assert.ok(e.message.length > 0, context);
  }
}

/** Polls `probe` until it returns a value other than `undefined`/`false`, or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 3000,
  intervalMs = 10,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export const DAY_MS = 24 * 60 * 60 * 1000;
