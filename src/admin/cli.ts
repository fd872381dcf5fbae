#!/usr/bin/env node
/**
 * `consult-admin` (and `npm run admin --`): the partner's back office on the command line. See
 * `consult-admin --help`, and `src/admin/admin.ts` for how a command line is read (the commands are in
 * member-commands.ts and webhook-commands.ts).
 */
import { runAdmin } from './admin.js';

process.exitCode = await runAdmin(process.argv.slice(2), {
  env: process.env,
  out: (text) => console.log(text),
  err: (text) => console.error(text),
});
