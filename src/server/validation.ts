import type { Context } from 'hono';
import { safeParse, type $ZodIssue, type $ZodType, type output } from 'zod/v4/core';
import type { FieldError } from '../client/types.js';
import { ProblemError } from './problems.js';

/** Turns zod's issues into one field error per bad field, unknown fields included. */
export function fieldErrors(issues: readonly $ZodIssue[]): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        errors.push({ field: base ? `${base}.${key}` : key, message: 'is not a known field' });
      }
    } else {
      errors.push({ field: base, message: issue.message });
    }
  }
  return errors;
}

/** Validates with any zod schema: the sandbox's (zod) and the proxy's (zod/mini) alike. */
export function parseWith<S extends $ZodType>(schema: S, value: unknown): output<S> {
  const result = safeParse(schema, value);
  if (!result.success) throw ProblemError.invalid(fieldErrors(result.error.issues));
  return result.data;
}

/** Deepest nesting of arrays and objects a JSON body may have (ours): deeper ones overflow the stack. */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` nests arrays and objects deeper than `MAX_JSON_DEPTH`; iterative, so it cannot overflow. */
export function tooDeep(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const [item, depth] = entry;
    if (!item || typeof item !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Reads the request body as JSON; a missing, malformed or too deeply nested body is a 400 that says so. */
/**
 * The body as text, which must be UTF-8: bytes that are not are refused (400 `invalid_encoding`),
 * never stored as U+FFFD in their place.
 */
export async function readUtf8(c: Context): Promise<string> {
  let bytes: ArrayBuffer;
  try {
    bytes = await c.req.arrayBuffer();
  } catch {
    // The body was cut off or its chunked framing is broken: the client's mistake, not ours.
    throw ProblemError.badRequest({ code: 'invalid_body', detail: 'The request body could not be read.' });
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw ProblemError.badRequest({ code: 'invalid_encoding', detail: 'The request body must be UTF-8.' });
  }
}

export async function readJson(c: Context, options: { emptyAs?: unknown } = {}): Promise<unknown> {
  const text = await readUtf8(c);
  if (text.trim() === '' && 'emptyAs' in options) return options.emptyAs;
  if (text.trim() === '') {
    throw ProblemError.badRequest({
      code: 'invalid_json',
      detail: 'The request body must be a JSON object.',
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw ProblemError.badRequest({ code: 'invalid_json', detail: 'The request body is not valid JSON.' });
  }
  if (tooDeep(value)) {
    throw ProblemError.badRequest({
      code: 'invalid_json',
      detail: `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`,
    });
  }
  return value;
}

export async function readBody<S extends $ZodType>(
  c: Context,
  schema: S,
  options: { emptyAs?: unknown } = {},
): Promise<output<S>> {
  return parseWith(schema, await readJson(c, options));
}
