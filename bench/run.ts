/**
 * `npm run bench`: timings as ratios within one run, so they compare across machines.
 * - client overhead: the typed client over the in-process sandbox vs a bare fetch of the same call;
 * - loopback HTTP vs in-process for the same client call;
 * - case history of 1,000 consultations vs 10 (how reads scale with history size);
 * - the proxy's cost: reads through it against the sandbox alone, memory and Redis stores;
 * - live events at scale: one event to 500 open streams, and memory after 2,000 come and go;
 * - memory per open stream (500 and 1,000 open) against bare SSE servers, each in its own process;
 * - an answer from recorded to read through the proxy, against a bare SSE server;
 * - an answer from recorded to on screen in <consult-thread>, in Chromium at 1x and 4x CPU, against
 *   a bare SSE page that reads the record on a hint and one that gets the answer in the event;
 * - time to typeable: <consult-form> (module loader and classic script) against deep-chat and a
 *   plain <textarea> page, every file gzip -9 from one server, in Chromium with 4x CPU throttling
 *   on three networks (unthrottled, fast 3G, 150 ms / 1.6 Mbit/s), with each page's round trips
 *   (the HTML counted), bytes and main-thread work until typeable;
 * - a case history of 1,000 consultations against one of 10 in Chromium at 1x and 4x CPU: when the
 *   first rows show, and the longest task after the read (bench/list.ts);
 * - the main thread while three elements show their loading placeholders, as a share of the time
 *   (bench/waiting.ts);
 * - Lighthouse on the demo portal (the scores, largest paint and layout shift).
 * Sizes are deterministic, so they are tests (test/node/bundle-budget.test.ts), not benchmarks.
 */
import { ConsultClient } from '../src/client/index.js';
import { createSandbox } from '../src/sandbox/index.js';
import { startSandboxServer } from '../src/sandbox/node.js';
import { answerLatency } from './answer-latency.js';
import { answerVisible } from './answer-visible.js';
import { proxyCost } from './proxy.js';
import { streamMemory } from './stream-memory.js';
import { streamsAtScale } from './streams.js';
import { timeToTypeable } from './time-to-typeable.js';
import { longList } from './list.js';
import { whileWaiting } from './waiting.js';
import { printLighthouse, runLighthouse } from './lighthouse.js';

async function measure(label: string, run: () => Promise<unknown>, iterations: number): Promise<number> {
  for (let i = 0; i < Math.min(50, iterations); i++) await run(); // warm-up
  const started = performance.now();
  for (let i = 0; i < iterations; i++) await run();
  const perCallMs = (performance.now() - started) / iterations;
  console.log(`  ${label.padEnd(58)} ${(perCallMs * 1000).toFixed(0).padStart(7)} µs/call`);
  return perCallMs;
}

const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

const sandbox = createSandbox({ professionals: { mode: 'manual' } });
const inProcess = new ConsultClient({
  baseUrl: 'http://sandbox.local',
  apiKey: 'sandbox-api-key',
  fetch: sandbox.fetch,
});
const grant = await inProcess.createAccessToken({ apiKey: 'sandbox-api-key' });
const auth = { authorization: `Bearer ${grant.accessToken}` };
const id = 'cns_demo_alex_rash';

console.log('Client overhead (in-process sandbox)');
const bare = await measure(
  'bare fetch GET /consultation/{id}',
  async () => (await sandbox.fetch(`/consultation/${id}`, { headers: auth })).json(),
  2000,
);
const typed = await measure('client.getConsultation(id)', () => inProcess.getConsultation(id), 2000);
console.log(`  client / bare fetch: ${ratio(typed, bare)}`);

const server = await startSandboxServer({ port: 0, professionals: { mode: 'manual' } });
const overHttp = new ConsultClient({ baseUrl: server.url, apiKey: 'sandbox-api-key' });
console.log('Transport');
const http = await measure(
  'client.getConsultation(id) over loopback HTTP',
  () => overHttp.getConsultation(id),
  1000,
);
console.log(`  loopback HTTP / in-process: ${ratio(http, typed)}`);

console.log('History size');
const user = await inProcess.createUser({ uniqueId: 'bench-member' });
await inProcess.createSubscription(user.id);
const large = await inProcess.createUser({ uniqueId: 'bench-member-large' });
await inProcess.createSubscription(large.id);
for (let i = 0; i < 10; i++)
  await inProcess.createConsultation({ userId: user.id, questions: [`Question ${i}?`] });
for (let i = 0; i < 1000; i++)
  await inProcess.createConsultation({ userId: large.id, questions: [`Question ${i}?`] });
const small = await measure('getCaseHistory, 10 consultations', () => inProcess.getCaseHistory(user.id), 300);
const big = await measure(
  'getCaseHistory, 1,000 consultations',
  () => inProcess.getCaseHistory(large.id),
  30,
);
console.log(`  1,000 / 10 consultations: ${ratio(big, small)} (100× would be linear in size)`);

sandbox.close();
await server.close();

console.log('Proxy cost (loopback, autocannon; each server in its own process)');
await proxyCost();

console.log('Live events at scale');
await streamsAtScale();
await streamMemory();
await answerLatency();
await answerVisible();

await timeToTypeable();
await longList();
await whileWaiting();
console.log('');
printLighthouse(await runLighthouse(3));
