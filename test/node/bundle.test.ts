/**
 * The browser bundle stays lean: no server-side library (Hono, zod, Standard Webhooks) and no
 * `node:` module may reach it, and the client itself carries no dependency at all.
 */
import { build } from 'esbuild';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';

const SERVER_ONLY = [
  'hono',
  '@hono/',
  'zod',
  'standardwebhooks',
  'ioredis',
  'web-push',
  'eventsource-parser/stream',
  'src/sandbox/',
  'src/proxy/',
];

async function bundle(entry: string) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    minify: true,
    metafile: true,
    logLevel: 'silent',
  });
  const inputs = Object.keys(result.metafile.inputs);
  const code = result.outputFiles[0]!.contents;
  return { inputs, bytes: code.byteLength, gzipBytes: gzipSync(code, { level: 9 }).byteLength };
}

describe('the browser bundle', () => {
  it('holds no server-side library and no node: module', async () => {
    const { inputs } = await bundle('src/index.ts');
    const offenders = inputs.filter((input) => SERVER_ONLY.some((name) => input.includes(name)));
    assert.deepEqual(offenders, [], `server code in the browser bundle: ${offenders.join(', ')}`);
    assert.ok(
      !inputs.some((input) => input.startsWith('node:')),
      'a node: module reached the browser bundle',
    );
  });

  it('carries the client with no dependency', async () => {
    const { inputs, gzipBytes } = await bundle('src/client/index.ts');
    const dependencies = inputs.filter((input) => input.includes('node_modules'));
    assert.deepEqual(dependencies, []);
    assert.ok(inputs.includes('src/client/client.ts'));
    // Reported for the record; sizes are compared in `npm run bench`, not asserted here.
    console.log(`# client bundle: ${(gzipBytes / 1024).toFixed(1)} KiB gzip`);
  });
});
