/**
 * The push service worker as built (`dist/browser/consult-push-sw.js`), for the Node entry to serve
 * at `{base}/push/sw.js`: found beside the built proxy, or from the sources after `npm run build`.
 */
import { readFileSync } from 'node:fs';

const PLACES = [
  // dist/proxy/push/ → dist/browser/
  '../../browser/consult-push-sw.js',
  // src/proxy/push/ → dist/browser/
  '../../../dist/browser/consult-push-sw.js',
];

/** The built worker's code, or undefined when there is none (then `{base}/push/sw.js` is a 404). */
export function builtPushWorker(): string | undefined {
  for (const place of PLACES) {
    try {
      return readFileSync(new URL(place, import.meta.url), 'utf8');
    } catch {
      // Not here; the next place.
    }
  }
  return undefined;
}
