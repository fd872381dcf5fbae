/**
 * What the proxy gives a browser of an upstream record: its projection (schemas.ts), or a 502 when
 * the record has a shape the elements cannot use.
 *
 * Where a runtime allows generated code, the Node entries hand in zod's `compile`
 * (compiled-views.node.ts): each projection then runs as one generated function, with no walk of
 * the schema per record, in about a tenth of the time. Edge runtimes, which forbid generated code
 * and would carry the compiler in their bundle, keep zod's own parser. Both decide and project alike.
 */
import { safeParse, type $ZodType, type output } from 'zod/v4/core';
import { ProblemError } from '../server/problems.js';

type Compile = <S extends $ZodType>(schema: S) => S;

let compile: Compile | undefined;
/** Each schema as it runs: compiled once, on its first record, when a compiler is in use. */
const running = new WeakMap<$ZodType, $ZodType>();

/** Projections made from now on run compiled by `compiler`. */
export function compileViewsWith(compiler: Compile): void {
  compile = compiler;
}

/** Projects an upstream response; a shape the elements cannot use is the upstream's failure. */
export function view<S extends $ZodType>(schema: S, value: unknown): output<S> {
  let runs = running.get(schema) as S | undefined;
  if (!runs) running.set(schema, (runs = compile ? compile(schema) : schema));
  const result = safeParse(runs, value);
  if (!result.success)
    throw ProblemError.badGateway({
      code: 'upstream_invalid_response',
      detail: 'The consultation service answered unexpectedly.',
    });
  return result.data;
}
