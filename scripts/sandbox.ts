/**
 * `npm run sandbox`: the simulated upstream service on loopback.
 *
 * Environment: SANDBOX_PORT (default 8788), SANDBOX_API_KEYS (comma-separated; default
 * `sandbox-api-key`), SANDBOX_TOKEN_TTL_SECONDS (default 3600), SANDBOX_PROFESSIONALS
 * (`auto` or `manual`, default auto), SANDBOX_CLAIM_AFTER_MS, SANDBOX_ANSWER_AFTER_MS.
 */
import { startSandboxServer } from '../src/sandbox/node.js';
import { readSandboxEnv } from './sandbox-env.js';

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
const professionals = JSON.stringify(options.professionals);
console.log(`Sandbox of the partner health consultation service
  URL:            ${server.url}
  API key:        ${server.sandbox.apiKeys.join(', ')}
  OpenAPI:        ${server.url}/openapi.json
  Professionals:  ${professionals}
  Demo members:   alex (active subscription), sam (no active subscription), noor (Arabic)
Press Ctrl+C to stop.`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void server.close().then(() => process.exit(0)));
}
