/**
 * Weight budgets for what a partner's members download (gzip -9): the script-tag entry, what an
 * English page with every element and one answer loads, and each language's strings. Reads the
 * browser files as the project's own Vite config builds them (built once for all the tests,
 * scripts/test-build.ts) and prints every file.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { readdirSync, readFileSync } from 'node:fs';
import { browserBuild, type BuiltChunk } from '../../scripts/test-build.js';
import { ELEMENTS } from '../../src/define.js';
import { COMPILE_HINT } from '../../scripts/minify-templates.js';

const KiB = 1024;
const ENGLISH_PAGE_KIB = 80.5;
const ENTRY_KIB = 36.95;
const CLASSIC_KIB = 59.3;
const CLASSIC_MARKDOWN_KIB = 26.25;
/**
 * `englishPage` is held just above where it stands (the loader with Lit, the shared core with the
 * member state and the five elements, then marked and DOMPurify), so that no change adds weight
 * unnoticed; it rose from 77.0 to 80.2 KiB with read marks and message times kept by the proxy, the
 * outage handling, the list's short row names and eventsource-parser, less what the second
 * minifying pass and the one markdown chunk saved, and fell to 73.9 KiB when the loader took in the
 * messaging elements and their core (one file compresses better than seven), then rose to 74.7
 * KiB (the classic script to 54.7) when the largest elements and the session were split into files
 * of one job (controllers, and the options they are built with), and to 77.7 KiB (the loader 52.1,
 * the classic script 57.5) with the
 * notifications offer (in the form and in a waiting thread, with the service's own notifications),
 * then fell to 76.4 KiB (the loader 50.9) once the device's notifications were a chunk of their own,
 * not counted, as it loads only where push-worker is set (76.5, the classic script 57.7, with focus
 * kept on the offer and the line after a no), and to 77.0 KiB (the loader 51.5, the classic script 58.3)
 * when the form's send and the member state's link to the service became modules of their own (0.3 KiB),
 * a sign-in heard the browser back online during a try and a refused live stream was checked with one
 * read (0.1 KiB); the classic script (which carries the notifications' device code) to 58.45 KiB when
 * turning on notifications came to check that the member who tapped is still the one signed in, and to 77.13 KiB
 * (the loader 51.58, the classic script 58.52) when the "Reconnecting…" notice came to stay in view and a sign-in the
 * portal refuses to end the device's notifications, and fell to 77.09 KiB (the loader 51.53, the classic script
 * 58.47) when the loading placeholders' moving gradient gave way to a pulse, and rose to 77.19 KiB (the loader 51.64,
 * the classic script 58.58) when a thread came to load the browser's date data while sign-in is on its way (0.03 KiB;
 * the first date formatter costs 15 to 35 ms at 1x CPU, no longer in the task that shows the messages) and the
 * unread list of a long history came to be worked out once per change rather than once per look (0.08 KiB); then the
 * loader fell to 36.7 KiB when it came to carry only the session and the form, with the thread, the list and the navigator in
 * one chunk of their own fetched beside sign-in (and by the form at idle), and the English page rose to 79.5 KiB (two
 * files compress less well than one) and the classic script to 58.95 (the form's thread loaded apart, the elements'
 * English in five modules), then to 36.75 and 79.55 KiB with V8's compile hint at the top of the loader (and of the
 * classic script), and to 36.8, 79.65 and 59.05 KiB (a language's classic file to 4.45 KiB) when a question sent
 * while the thread's code cannot load came to say so, with a button to try again, and to 79.75 KiB when the form's,
 * the markdown's and the date data's waits for an idle page became one function in the loader, and to 80.25 KiB (the
 * classic script's markdown file to 26.25) with DOMPurify 3.5.0, the release S18 requires (0.47 KiB more), and to
 * 80.4 KiB (the loader 36.85, the classic script 59.2) when a thread came to ready an answer's first showing at idle,
 * the markdown renderer making one of its own and the credentials' formatters made (0.14 KiB; the first answer to
 * reach a thread opened afresh shows in 45 ms rather than 90 at 4x CPU), and a consultation read again unchanged to
 * render nothing, then to 80.45 KiB (the loader 36.9, the classic script 59.25) when the tab that marks an answer seen
 * came not to read it again for its own mark (0.04 KiB; one read less through the proxy and the service for each
 * answer read), and to 80.5 KiB (the loader 36.95, the classic script 59.3) when read marks came to be sent with
 * `keepalive`, so that one sent as the member leaves the page still arrives (0.03 KiB); the aim is 0.6×
 * deep-chat's bundle, about 65 KiB, and then 50 KiB. `entry`, the loader alone, likewise. `language`
 * too: Arabic, the largest, is 4.3 KiB with the names of professionals' roles and specialties, and
 * 4.4 KiB as the classic script's file with the notifications offer's words (4.41 with the words for a thread that cannot load). The classic script likewise, its main
 * file (`classic`) and, apart, the marked and DOMPurify it loads with the first answer
 * (`classicMarkdown`).
 */
const BUDGET = {
  entry: ENTRY_KIB * KiB,
  englishPage: ENGLISH_PAGE_KIB * KiB,
  language: 4.45 * KiB,
  classic: CLASSIC_KIB * KiB,
  classicMarkdown: CLASSIC_MARKDOWN_KIB * KiB,
};

type Chunk = BuiltChunk & { code: string };

/** The elements of a page where members ask, read and chat. */
const MESSAGING = ['consult-session', 'consult-form', 'case-history', 'consult-thread', 'navigator-chat'];
/** The elements the loader carries: what a member needs to type a question. */
const CARRIED = ['consult-session', 'consult-form'];

let outDir: string;
let chunks: Map<string, Chunk & { gzip: number }>;

const kib = (bytes: number) => `${(bytes / KiB).toFixed(2)} KiB`;
const isTranslation = (chunk: Chunk) =>
  /src\/elements\/translations\/(?!en\.ts)/.test(chunk.facadeModuleId ?? '');

/** Every chunk `from` loads, following static and dynamic imports, except the ones `skip` rejects. */
function reachable(from: string, skip: (chunk: Chunk) => boolean): Set<string> {
  const seen = new Set<string>();
  const visit = (name: string) => {
    const chunk = chunks.get(name);
    if (!chunk || seen.has(name) || skip(chunk)) return;
    seen.add(name);
    for (const next of [...chunk.imports, ...chunk.dynamicImports]) visit(next);
  };
  visit(from);
  return seen;
}

const total = (names: Iterable<string>) => [...names].reduce((sum, name) => sum + chunks.get(name)!.gzip, 0);

describe('the browser files stay within their weight budgets', () => {
  before(async () => {
    const built = await browserBuild();
    outDir = built.folder;
    chunks = new Map();
    for (const chunk of built.chunks) {
      const code = readFileSync(join(outDir, chunk.fileName), 'utf8');
      chunks.set(chunk.fileName, { ...chunk, code, gzip: gzipSync(code, { level: 9 }).byteLength });
    }
    for (const chunk of [...chunks.values()].sort((a, b) => b.gzip - a.gzip)) {
      console.log(`# ${chunk.fileName.padEnd(48)} ${kib(chunk.gzip).padStart(9)} gzip`);
    }
  });

  it(`the script-tag entry is one file that imports nothing before it runs, at most ${kib(BUDGET.entry)}`, () => {
    const entry = chunks.get('consult-elements.js');
    assert.ok(entry?.isEntry, 'consult-elements.js is the entry');
    // A static import would be a round trip more before the page's elements can render.
    assert.deepEqual(entry.imports, [], 'no static imports');
    const loaded = reachable('consult-elements.js', () => false);
    console.log(`# entry: ${kib(entry.gzip)}; reachable in all: ${loaded.size} files`);
    assert.ok(entry.gzip <= BUDGET.entry, `entry is ${kib(entry.gzip)}`);
  });

  it('the loader carries the session and the question form; the other messaging elements share one chunk, the plan’s and prescriptions’ have their own, each loaded when its tag first appears', () => {
    const entry = chunks.get('consult-elements.js')!;
    const elementModule = (tag: string) => `src/elements/${tag}/${tag}.ts`;
    for (const tag of CARRIED) {
      assert.ok(entry.moduleIds.includes(elementModule(tag)), `<${tag}> is in the loader`);
    }
    // Nor any module of the others' folders, nor their markdown or the stream's parser.
    const others = entry.moduleIds.filter((id) =>
      /src\/elements\/(case-history|consult-thread|navigator-chat|consult-access|prescription-request)\/|shared\/markdown|eventsource-parser/.test(
        id,
      ),
    );
    assert.deepEqual(others, [], 'the loader holds none of the other elements’ code');
    const chunkOf = (tag: string) =>
      [...chunks.values()].find((chunk) => chunk !== entry && chunk.moduleIds.includes(elementModule(tag)))
        ?.fileName;
    for (const tag of Object.keys(ELEMENTS).filter((name) => !CARRIED.includes(name))) {
      const chunk = chunkOf(tag);
      assert.ok(
        chunk && entry.dynamicImports.includes(chunk),
        `<${tag}> is in a chunk the loader imports: ${chunk}`,
      );
    }
    const messaging = chunkOf('consult-thread');
    assert.deepEqual(
      ['case-history', 'navigator-chat'].map(chunkOf),
      [messaging, messaging],
      'the list and the navigator are in the thread’s chunk',
    );
    for (const tag of ['consult-access', 'prescription-request']) {
      assert.match(chunkOf(tag) ?? '', new RegExp(`^chunks/${tag}-`), `<${tag}> has a chunk of its own`);
    }
    // Nothing the loader holds is held again by a chunk.
    for (const chunk of chunks.values()) {
      if (chunk === entry) continue;
      const twice = chunk.moduleIds.filter((id) => entry.moduleIds.includes(id));
      assert.deepEqual(twice, [], `${chunk.fileName} repeats modules of the loader`);
    }
  });

  it('the loader carries the English of the session and the form; the other elements’ come with their chunks', () => {
    const chunkOf = (element: string) =>
      [...chunks.values()].find(
        (chunk) =>
          chunk.fileName !== 'consult-elements.js' &&
          chunk.moduleIds.some((id) => id.endsWith(`/${element}/${element}.ts`)),
      )!;
    const loader = chunks.get('consult-elements.js')!.code;
    assert.match(loader, /Your session has ended/);
    assert.match(loader, /Say what worries you/);
    for (const [element, words] of [
      ['consult-thread', 'Ask a follow-up question'],
      ['case-history', 'You have not asked a doctor yet'],
      ['navigator-chat', 'Ask the health navigator a general health question'],
      ['consult-access', 'Questions to a doctor are included in your plan'],
      ['prescription-request', 'Request another prescription'],
    ] as const) {
      assert.doesNotMatch(loader, new RegExp(words), `${element}'s words are not in the loader`);
      assert.match(chunkOf(element).code, new RegExp(words), `${element}'s chunk has them`);
    }
  });

  it(`an English page with the five messaging elements and an answer loads at most ${kib(BUDGET.englishPage)}`, () => {
    // The plan and prescription elements are chunks of their own that such a page never loads.
    const otherElement = (chunk: Chunk) => {
      const element = /src\/elements\/([a-z-]+)\/\1\.ts$/.exec(chunk.facadeModuleId ?? '')?.[1];
      return element !== undefined && !MESSAGING.includes(element);
    };
    // The console's words for a partner's mistakes load only when there is one to tell.
    const developerMessages = (chunk: Chunk) =>
      /src\/developer-messages\.ts$/.test(chunk.facadeModuleId ?? '');
    // Notifications on the device load only on a page whose session has `push-worker`.
    const pushDevice = (chunk: Chunk) => /src\/push\/device\.ts$/.test(chunk.facadeModuleId ?? '');
    const english = reachable(
      'consult-elements.js',
      (chunk) => isTranslation(chunk) || otherElement(chunk) || developerMessages(chunk) || pushDevice(chunk),
    );
    const names = [...english].map((name) => chunks.get(name)!.facadeModuleId ?? name);
    assert.ok(
      names.some((name) => name.includes('marked')) && names.some((name) => name.includes('dompurify')),
      'marked and DOMPurify are counted',
    );
    console.log(
      `# English page, the five messaging elements and an answer: ${kib(total(english))} in ${english.size} files`,
    );
    assert.ok(total(english) <= BUDGET.englishPage, `English page is ${kib(total(english))}`);
  });

  /**
   * The classic script holds every element and Lit in one file, held just above where it stands
   * (with the device's notifications, about 1.5 KiB, which one file cannot leave to `push-worker`);
   * marked and DOMPurify are a second classic file that it loads with the first answer.
   */
  it(`the classic script is one file with no import(), at most ${kib(BUDGET.classic)} in English, and its markdown file at most ${kib(BUDGET.classicMarkdown)}`, async () => {
    const classic = readFileSync(join(outDir, 'consult-elements.classic.js'), 'utf8');
    const markdown = readFileSync(join(outDir, 'consult-elements.classic.markdown.js'), 'utf8');
    for (const [name, script] of [
      ['consult-elements.classic.js', classic],
      ['consult-elements.classic.markdown.js', markdown],
    ] as const) {
      assert.doesNotMatch(script, /\bimport\s*\(/, `${name}: no dynamic import`);
      assert.doesNotMatch(script, /^\s*(?:import|export)\s/m, `${name}: a classic script, not a module`);
    }
    for (const name of ['consult-session', 'prescription-request', '.markdown.js']) {
      assert.ok(classic.includes(name), `${name} is in the main file`);
    }
    // Words only marked's lexer and DOMPurify's hooks have.
    for (const name of ['tokenizer', 'uponSanitizeShadowNode']) {
      assert.ok(!classic.includes(name), `${name} is not in the main file`);
      assert.ok(markdown.includes(name), `${name} is in the markdown file`);
    }
    const size = gzipSync(classic, { level: 9 }).byteLength;
    const markdownSize = gzipSync(markdown, { level: 9 }).byteLength;
    console.log(`# consult-elements.classic.js (every element, English): ${kib(size)}`);
    console.log(`# consult-elements.classic.markdown.js (marked, DOMPurify): ${kib(markdownSize)}`);
    assert.ok(size <= BUDGET.classic, `the classic script is ${kib(size)}`);
    assert.ok(markdownSize <= BUDGET.classicMarkdown, `its markdown file is ${kib(markdownSize)}`);
    const languages = readdirSync(outDir).filter((name) =>
      /^consult-elements\.classic\.[a-z]{2}\.js$/.test(name),
    );
    assert.deepEqual(languages.map((name) => name.split('.')[2]).sort(), ['ar', 'de', 'es', 'fr', 'nl']);
    for (const name of languages) {
      const strings = gzipSync(readFileSync(join(outDir, name)), { level: 9 }).byteLength;
      assert.ok(strings <= BUDGET.language, `${name} is ${kib(strings)}`);
    }
  });

  it('the loader and the classic main file start with V8’s compile hint, as their code runs as the page loads; the chunks do not', () => {
    const loader = chunks.get('consult-elements.js')!.code;
    const classic = readFileSync(join(outDir, 'consult-elements.classic.js'), 'utf8');
    for (const [name, code] of [
      ['consult-elements.js', loader],
      ['consult-elements.classic.js', classic],
    ] as const) {
      assert.equal(code.split('\n')[0], COMPILE_HINT, `${name} starts with the hint`);
    }
    for (const chunk of chunks.values()) {
      if (chunk.fileName === 'consult-elements.js') continue;
      assert.ok(!chunk.code.includes(COMPILE_HINT), `${chunk.fileName} has no hint`);
    }
    const markdown = readFileSync(join(outDir, 'consult-elements.classic.markdown.js'), 'utf8');
    assert.ok(!markdown.includes(COMPILE_HINT), 'the classic markdown file has no hint');
  });

  it(`each language's strings are at most ${kib(BUDGET.language)}`, () => {
    const languages = [...chunks.values()].filter(isTranslation);
    assert.equal(languages.length, 5, 'five languages besides English, each a chunk');
    for (const chunk of languages) {
      assert.ok(chunk.gzip <= BUDGET.language, `${chunk.fileName} is ${kib(chunk.gzip)}`);
    }
  });
});
