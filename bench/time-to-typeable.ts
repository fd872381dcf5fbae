/**
 * Time to typeable, against a peer: how long after navigation a member can type into
 * `<consult-form>`, into deep-chat's input (a widely used chat web component, loaded the way its
 * README shows, as one module), and into a plain `<textarea>`, on the portal of
 * scripts/script-tag-portal.ts. Chromium with 4x CPU throttling loads each page 12 times,
 * interleaved, each in a fresh context (nothing cached); medians, reported as ratios. Also the
 * bytes each page loads, gzip -9 of every response.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../scripts/find-chromium.mjs';
import { startScriptTagPortal } from '../scripts/script-tag-portal.js';
import { median } from './stats.js';

const RUNS = 12;
const CPU_SLOWDOWN = 4;

const page = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title><link rel="icon" href="data:,">${head}</head><body>${body}</body></html>`;

const PAGES = {
  'consult-form': page(
    '<consult-session endpoint="/consult"><consult-form></consult-form></consult-session>',
    '<script type="module" src="/assets/consult-elements.js"></script>',
  ),
  'deep-chat': page('<deep-chat></deep-chat>', '<script type="module" src="/deep-chat.js"></script>'),
  textarea: page('<form><label>Your question <textarea></textarea></label><button>Send</button></form>'),
};
type Kind = keyof typeof PAGES;

/** performance.now() at the first frame where a box that takes text is on the page. */
const typeableAt = () => {
  const form = document.querySelector('consult-form');
  const chat = document.querySelector('deep-chat');
  const box =
    (form?.shadowRoot ?? document).querySelector('textarea') ??
    chat?.shadowRoot?.querySelector<HTMLElement>('#text-input[contenteditable="true"]');
  const open = box instanceof HTMLTextAreaElement ? !box.disabled && !box.readOnly : Boolean(box);
  return box && open && box.getBoundingClientRect().height > 0 ? performance.now() : 0;
};

/** The gzip -9 size of every response the page receives, until it is typeable. */
function countBytes(tab: Page): () => Promise<number> {
  const sizes: Promise<number>[] = [];
  tab.on('response', (response) => {
    sizes.push(
      response
        .body()
        .then((body) => gzipSync(body, { level: 9 }).byteLength)
        .catch(() => 0),
    );
  });
  return async () => (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0);
}

export async function timeToTypeable(): Promise<void> {
  const deepChat = readFileSync(
    createRequire(import.meta.url).resolve('deep-chat/dist/deepChat.bundle.js'),
    'utf8',
  );
  const portal = await startScriptTagPortal({
    '/consult-form': PAGES['consult-form'],
    '/deep-chat': PAGES['deep-chat'],
    '/deep-chat.js': deepChat,
    '/textarea': PAGES.textarea,
  });
  const browser = await chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const kinds = Object.keys(PAGES) as Kind[];
    const times = Object.fromEntries(kinds.map((kind) => [kind, [] as number[]])) as Record<Kind, number[]>;
    const bytes = Object.fromEntries(kinds.map((kind) => [kind, [] as number[]])) as Record<Kind, number[]>;
    for (let run = 0; run < RUNS; run++) {
      for (const kind of kinds) {
        // A fresh context each time: nothing cached, as on a member's first visit.
        const context = await browser.newContext();
        const tab = await context.newPage();
        const cdp = await context.newCDPSession(tab);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
        const loaded = countBytes(tab);
        await tab.goto(`${portal.url}/${kind}`);
        const handle = await tab.waitForFunction(typeableAt, null, { polling: 'raf', timeout: 30_000 });
        times[kind].push((await handle.jsonValue()) as number);
        bytes[kind].push(await loaded());
        await context.close();
      }
    }
    console.log(
      `Time to typeable (Chromium, ${CPU_SLOWDOWN}x CPU throttling, ${RUNS} interleaved loads each, medians)`,
    );
    for (const kind of kinds) {
      console.log(
        `  ${kind.padEnd(14)} ${median(times[kind]).toFixed(0).padStart(6)} ms   ${(median(bytes[kind]) / 1024).toFixed(1).padStart(6)} KiB gzip loaded`,
      );
    }
    const ours = median(times['consult-form']);
    console.log(`  consult-form / deep-chat: ${(ours / median(times['deep-chat'])).toFixed(2)}× the time`);
    console.log(`  consult-form / plain textarea: ${(ours / median(times.textarea)).toFixed(2)}× the time`);
    console.log(
      `  consult-form / deep-chat: ${(median(bytes['consult-form']) / median(bytes['deep-chat'])).toFixed(2)}× the bytes`,
    );
  } finally {
    await browser.close();
    await portal.close();
  }
}
