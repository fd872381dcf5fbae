/**
 * What every `consult-admin` command is made of: its description and behaviour (`Command`), what it
 * may print to and read from (`AdminIO`), and how it says a mistake in how it was called.
 */
import type { ParseArgsConfig } from 'node:util';
import type { ConsultClient } from '../client/client.js';

export const EXIT = { ok: 0, refused: 1, usage: 2, unreachable: 3 } as const;

export interface AdminIO {
  env: Record<string, string | undefined>;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Default the global fetch. */
  fetch?: typeof fetch;
}

/** A mistake in how the command was called: printed with a pointer to `--help`, exit 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** Exit code: a bad argument unless said otherwise. */
    readonly exit: number = EXIT.usage,
  ) {
    super(message);
  }
}

export type Options = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | undefined>;

export interface Command {
  /** `users create`, as typed. */
  name: string;
  /** Positional arguments, in order, as shown in the usage line. */
  args: string[];
  /** The rest of the usage line: `[--email E]`. */
  usage: string;
  summary: string;
  options?: Options;
  /** `arg(0)` is the first positional argument, checked present before `run` is called. */
  run(client: ConsultClient, arg: (index: number) => string, values: Values, io: AdminIO): Promise<unknown>;
  /** The result as a table or lines of text. */
  show(result: unknown): string;
  /** What `--json` prints, when not the result itself: the service's JSON, unchanged. */
  json?(result: unknown): unknown;
}
