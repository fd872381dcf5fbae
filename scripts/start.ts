/**
 * `npm start`: the sandbox of the upstream service (SANDBOX_PORT, default 8788) with professionals
 * in auto mode, and on PORT (default 8787) the partner proxy at /consult with demo sign-in,
 * pointed at the sandbox and registered for its webhooks.
 */
import { randomBytes } from 'node:crypto';
import { demoSignIn } from '../src/proxy/demo.js';
import { startProxyServer } from '../src/proxy/node.js';
import { startSandboxServer } from '../src/sandbox/node.js';
import { readSandboxEnv } from './sandbox-env.js';

function fail(message: string): never {
  console.error(`Cannot start: ${message}`);
  process.exit(1);
}

let options;
try {
  options = readSandboxEnv(process.env);
} catch (error) {
  fail((error as Error).message);
}
const port = Number(process.env['PORT'] ?? 8787);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`PORT must be a port number; got "${process.env['PORT']}".`);

const hint = (error: NodeJS.ErrnoException) =>
  fail(`${error.message}.${error.code === 'EADDRINUSE' ? ' Set PORT and SANDBOX_PORT to free ports.' : ''}`);
const sandbox = await startSandboxServer(options).catch(hint);
const proxy = await startProxyServer({
  upstreamUrl: sandbox.url,
  apiKey: sandbox.sandbox.apiKeys[0] ?? 'sandbox-api-key',
  // A fresh secret per start: demo sessions end when the demo stops.
  sessionSecret: process.env['CONSULT_SESSION_SECRET'] ?? randomBytes(48).toString('base64'),
  authenticate: demoSignIn(),
  publicUrl: `http://127.0.0.1:${port}/consult`,
  port,
  logger: (entry) => entry.level !== 'info' && console.error(JSON.stringify(entry)),
}).catch(hint);
await proxy.proxy.ready;

console.log(`consult-elements
  Proxy:     ${proxy.url}/consult  (demo sign-in: POST /consult/session {"demoUser": "alex" | "sam" | "noor"})
  Sandbox:   ${sandbox.url}  (API key ${sandbox.sandbox.apiKeys.join(', ')}, OpenAPI ${sandbox.url}/openapi.json)
Press Ctrl+C to stop.`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void Promise.all([proxy.close(), sandbox.close()]).then(() => process.exit(0)));
}
