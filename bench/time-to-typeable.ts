/**
 * Time to typeable: how long after navigation a member can type into `<consult-form>`, against the
 * same page with a plain `<textarea>` instead of the elements, on the portal of
 * scripts/script-tag-portal.ts; Chromium loads each page 12 times, interleaved.
 */
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../scripts/find-chromium.mjs';
import { startScriptTagPortal } from '../scripts/script-tag-portal.js';

const RUNS = 12;

const page = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title>${head}</head><body>${body}</body></html>`;

const WITH_ELEMENTS = page(
  '<consult-session endpoint="/consult"><consult-form></consult-form></consult-session>',
  '<script type="module" src="/assets/consult-elements.js"></script>',
);
const WITHOUT_ELEMENTS = page(
  '<form><label>Your question <textarea></textarea></label><button>Send</button></form>',
);

/** performance.now() at the first frame where a textarea that takes input is on the page. */
const typeableAt = () => {
  const form = document.querySelector('consult-form');
  const box = (form?.shadowRoot ?? document).querySelector('textarea');
  return box && !box.disabled && !box.readOnly && box.getBoundingClientRect().height > 0
    ? performance.now()
    : 0;
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

export async function timeToTypeable(): Promise<void> {
  const portal = await startScriptTagPortal({
    '/with-elements': WITH_ELEMENTS,
    '/without-elements': WITHOUT_ELEMENTS,
  });
  const browser = await chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const times: Record<'with' | 'without', number[]> = { with: [], without: [] };
    for (let run = 0; run < RUNS; run++) {
      for (const kind of ['with', 'without'] as const) {
        // A fresh context each time: nothing cached, as on a member's first visit.
        const context = await browser.newContext();
        const tab = await context.newPage();
        await tab.goto(`${portal.url}/${kind}-elements`);
        const handle = await tab.waitForFunction(typeableAt, null, { polling: 'raf', timeout: 15_000 });
        times[kind].push((await handle.jsonValue()) as number);
        await context.close();
      }
    }
    const withElements = median(times.with);
    const without = median(times.without);
    console.log('Time to typeable (Chromium, 12 interleaved loads each, medians)');
    console.log(
      `  plain <textarea> page                                    ${without.toFixed(0).padStart(7)} ms`,
    );
    console.log(
      `  <consult-form> in <consult-session>                      ${withElements.toFixed(0).padStart(7)} ms`,
    );
    console.log(`  consult-form / plain textarea: ${(withElements / without).toFixed(2)}×`);
  } finally {
    await browser.close();
    await portal.close();
  }
}
