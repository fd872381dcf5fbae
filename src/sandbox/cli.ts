#!/usr/bin/env node
/**
 * `consult-sandbox` (and `npm run sandbox`): the simulated upstream service on loopback, so the
 * proxy and the elements run with no account. Simulated professionals answer by themselves.
 * The variables it reads are listed in HELP below, which `consult-sandbox --help` prints.
 */
import { helpOrNothing } from '../server/command-line.js';
import { commandNeeds } from '../server/peers.js';
import { readSandboxEnv } from './env.js';

const HELP = `consult-sandbox: a simulation of the partner health consultation service on 127.0.0.1, so the
proxy and the elements run with no account. Simulated professionals claim and answer questions.

Usage: consult-sandbox [--help]

Environment:
  SANDBOX_PORT               where to listen (0 picks a free port)          default 8788
  SANDBOX_API_KEYS           comma-separated API keys it accepts            default sandbox-api-key
  SANDBOX_TOKEN_TTL_SECONDS  how long an access token lives                 default 3600
  SANDBOX_PROFESSIONALS      auto (they claim and answer) or manual         default auto
  SANDBOX_CLAIM_AFTER_MS     auto: a question is claimed after this long    default 3000
  SANDBOX_ANSWER_AFTER_MS    auto: and answered after this long             default 6000

Demo members: alex (active plan), sam (no active plan), noor (Arabic, active plan).
Its OpenAPI document is at /openapi.json, its controls under /_sandbox/ (see the README).`;

helpOrNothing('consult-sandbox', HELP);
// The server-side packages are optional peers of consult-elements: first, say which are missing.
const { startSandboxServer } = await commandNeeds('consult-sandbox', () => import('./node.js'));

let options;
try {
  options = readSandboxEnv(process.env);
} catch (error) {
  console.error(`Cannot start the sandbox: ${(error as Error).message}`);
  process.exit(1);
}
const server = await startSandboxServer(options).catch((error: NodeJS.ErrnoException) => {
  const hint =
    error.code === 'EADDRINUSE' ? ` Port ${options.port} is taken: set SANDBOX_PORT to another.` : '';
  console.error(`Cannot start the sandbox: ${error.message}.${hint}`);
  process.exit(1);
});
// Ready to stop cleanly before saying it has started: whoever read the banner may stop it at once.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void server.close().then(() => process.exit(0)));
}
const professionals = JSON.stringify(options.professionals);
console.log(`Sandbox of the partner health consultation service
  URL:            ${server.url}
  API key:        ${server.sandbox.apiKeys.join(', ')}
  OpenAPI:        ${server.url}/openapi.json
  Professionals:  ${professionals}
  Demo members:   alex (active plan), sam (no active plan), noor (Arabic, active plan)
Press Ctrl+C to stop.`);
