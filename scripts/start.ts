/**
 * `npm start`: everything on a laptop with no account.
 * - the sandbox of the upstream service on SANDBOX_PORT (default 8788), professionals in auto mode;
 * - on PORT (default 8787): the demo partner portal, and the partner proxy at /consult pointed at
 *   the sandbox and receiving its webhooks. The proxy knows the member from the portal's own
 *   sign-in cookie, as a partner's would; `{"demoUser": "…"}` also works (demo sign-in).
 */
import { startDemoStack } from '../demo/stack.js';
import { redisStore } from '../src/proxy/redis-store.js';
import { readSandboxEnv } from '../src/sandbox/env.js';

function fail(message: string): never {
  console.error(`Cannot start: ${message}`);
  process.exit(1);
}

let sandbox;
try {
  sandbox = readSandboxEnv(process.env);
} catch (error) {
  fail((error as Error).message);
}
const port = Number(process.env['PORT'] ?? 8787);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`PORT must be a port number; got "${process.env['PORT']}".`);

const redisUrl = process.env['CONSULT_REDIS_URL']?.trim();
if (redisUrl && !/^rediss?:\/\/\S+$/.test(redisUrl))
  fail(`CONSULT_REDIS_URL must be a redis:// URL such as redis://127.0.0.1:6379; got "${redisUrl}".`);

const stack = await startDemoStack({
  sandbox,
  port,
  ...(redisUrl ? { store: redisStore({ url: redisUrl }) } : {}),
  ...(process.env['CONSULT_SESSION_SECRET'] ? { sessionSecret: process.env['CONSULT_SESSION_SECRET'] } : {}),
}).catch((error: NodeJS.ErrnoException) =>
  fail(`${error.message}.${error.code === 'EADDRINUSE' ? ' Set PORT and SANDBOX_PORT to free ports.' : ''}`),
);

console.log(`consult-elements demo
  Open:      ${stack.url}/   (the demo partner portal, signed in as Alex; switch members at the top)
  Proxy:     ${stack.url}/consult
  Sandbox:   ${stack.sandbox.url}  (API key ${stack.sandbox.sandbox.apiKeys.join(', ')}, OpenAPI ${stack.sandbox.url}/openapi.json)
Press Ctrl+C to stop.`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void stack.close().then(() => process.exit(0)));
}
