/**
 * The proxy on an edge runtime, bundled the way a partner would: an entry that imports
 * `consult-elements/proxy` and exports its fetch handler, bundled with esbuild for a Worker-like
 * target (platform neutral, the `worker` and `browser` conditions, minified). From the sources (the
 * `consult-source` condition), so no build is needed; the built files bundle within a few bytes of it.
 * It was 539 KiB when the proxy used zod's full API (zod alone 443 KiB); with zod/mini it is about
 * 117 KiB, and 115.3 KiB once Hono's compress middleware gave way to the proxy's own (with what
 * the proxy remembers for a member: times, read marks, kept prescription requests); 122.2 KiB with
 * the notification routes (subscriptions, the service's own notifications; the sending, with
 * `web-push`, is the Node entry's alone), 122.5 KiB once a sign-out can name the device's push
 * subscription for the proxy to forget in the same request, 122.6 KiB once a live stream reads
 * from the log an event published out of its order, 122.83 KiB once a stream open while the store
 * restarts empty asks the store which generation is current and drops the late events of the one
 * before, 123.00 KiB once a read mark lower than what was seen is refused with how many were, 123.05 KiB
 * once each device's 60 days are counted from its own renewal, 123.15 KiB once a member's session
 * check reads the store's generation with the revocation marks (on Redis, one MGET in place of a
 * script beside it) and the member's rate limit beside it, 123.75 KiB once a member's read costs a
 * quarter less CPU (the token looked up once per request, the request checks and the answer's way
 * out one step each, a hook for compiled projections on Node: src/proxy/views.ts), 125.04 KiB once an
 * open event stream is one object (its state and listeners, and one per place it holds, in place of
 * some forty closures) that Node's response can take straight, about half the heap per open stream,
 * and a store's failure while a stream lets go keeps nothing else held, 125.12 KiB once a message
 * on a member's event channel that is not a numbered event is dropped rather than sought in the log
 * without end, 125.18 KiB once a stream over HTTP/2 leaves out the `Connection` and
 * `Transfer-Encoding` headers that HTTP/2 forbids, 125.21 KiB once a read mark's event names how many
 * answers are now seen, 125.26 KiB once the client takes `keepalive` for a call. The budget is held just above that, so no change adds weight unnoticed.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { build, type Metafile } from 'esbuild';

const KiB = 1024;
const BUDGET = 125.3 * KiB;
const root = fileURLToPath(new URL('../../', import.meta.url));

const PARTNER_WORKER = `
import { createProxy } from 'consult-elements/proxy';

const proxy = createProxy({
  upstreamUrl: 'https://api.partner-health.example',
  apiKey: 'key',
  sessionSecret: 'a-session-secret-of-32-or-more-characters',
  authenticate: () => null,
});

export default { fetch: proxy.fetch };
`;

/** Bytes in the output, per package (or per folder of ours). */
function weights(metafile: Metafile): Map<string, number> {
  const [output] = Object.values(metafile.outputs);
  const byPackage = new Map<string, number>();
  for (const [path, { bytesInOutput }] of Object.entries(output!.inputs)) {
    const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1];
    const name = inPackage ?? path.split('/').slice(0, 2).join('/');
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
  }
  return byPackage;
}

describe('the proxy bundled for an edge runtime', () => {
  it(`is at most ${BUDGET / KiB} KiB minified, with nothing of Node in it`, async () => {
    const result = await build({
      stdin: { contents: PARTNER_WORKER, resolveDir: root, loader: 'ts', sourcefile: 'worker.ts' },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      conditions: ['consult-source', 'worker', 'browser'],
      minify: true,
      metafile: true,
      logLevel: 'silent',
    });
    const bytes = result.outputFiles[0]!.contents.byteLength;
    const byPackage = [...weights(result.metafile)].sort((a, b) => b[1] - a[1]);
    for (const [name, size] of byPackage) console.log(`# ${name.padEnd(24)} ${(size / KiB).toFixed(1)} KiB`);
    console.log(`# the partner's worker: ${(bytes / KiB).toFixed(1)} KiB minified`);

    const inputs = Object.keys(result.metafile.inputs);
    assert.deepEqual(
      inputs.filter(
        (input) => input.startsWith('node:') || /undici|ioredis|@hono\/node-server|web-push/.test(input),
      ),
      [],
      'nothing that needs Node',
    );
    assert.ok(
      !inputs.some((input) => /node_modules\/zod\/v4\/classic\//.test(input)),
      'only zod/mini, not the whole of zod',
    );
    assert.ok(bytes <= BUDGET, `the worker is ${(bytes / KiB).toFixed(2)} KiB`);
    assert.ok(
      !inputs.some((input) => input.includes('compiled-views')),
      'no compiler: an edge runtime keeps zod’s parser',
    );
  });

  it('bundled for Node instead, keeps its projections compiled (the import a bundler could drop)', async () => {
    const result = await build({
      stdin: {
        contents: `export { startProxyServer } from 'consult-elements/proxy/node';`,
        resolveDir: root,
        loader: 'ts',
        sourcefile: 'server.ts',
      },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      conditions: ['consult-source'],
      metafile: true,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]!.text;
    assert.match(code, /compileViewsWith\(\w+\);/, 'the Node entry hands zod’s compile to the projections');
  });
});
