/**
 * The push service worker, after `vite build`: `dist/browser/consult-push-sw.js`, one classic
 * script with its six languages' words (src/push/service-worker.ts). Part of `npm run build`.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));

/** Bundles the worker to `outfile` (or returns its code when there is none). */
export async function buildPushWorker(outfile?: string): Promise<string> {
  const result = await build({
    entryPoints: [`${root}src/push/service-worker.ts`],
    bundle: true,
    format: 'iife',
    target: 'es2022',
    minify: true,
    write: Boolean(outfile),
    ...(outfile ? { outfile } : {}),
    logLevel: 'silent',
  });
  return outfile ? '' : (result.outputFiles?.[0]?.text ?? '');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  await buildPushWorker(`${root}dist/browser/consult-push-sw.js`);
