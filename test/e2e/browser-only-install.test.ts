/**
 * A partner who only serves the elements installs only what browsers need. The package is built
 * and packed as npm publishes it, then installed into a fresh folder with the README's browser-only
 * line (`npm install consult-elements`): npm leaves out optional peers, which the server side's
 * libraries are. It checks how many packages that is and what they weigh (a budget held just above
 * where it stands), that the browser entries bundle from it, and that every server entry and command
 * says what to install when its packages are missing. Then the README's line for the proxy on Node
 * installs them, and the entries load (by import and by require) and bundle for an edge runtime.
 */
import assert from 'node:assert/strict';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { build } from 'esbuild';
import { installPacked, packInto, root, run } from './support/packed-package.js';

const MB = 1_000_000;

/**
 * Before the server's libraries became optional peers this install was 29 packages and 22.8 MB
 * of files (33 MB on disk); now it is consult-elements, Lit (six packages), marked, DOMPurify and
 * eventsource-parser. consult-elements itself is about 6.2 MB of it (5.2 MB before the package
 * gained the classic script's markdown file, the sandbox's topics in six languages, the member's
 * memory in the proxy, the written-out declarations and the notifications' worker and routes;
 * the elements and the session split into files of one job, each shipped with its source and
 * source map).
 */
// 12.22 MB measured (12.11 before the event stream's hand-over to Node became a module of its own
// and DOMPurify 3.5.0 came; 11.88–11.90 before the member state's link, the form's send and the stream's
// places became modules of their own, each shipped with its source, map and declarations; 12.00
// before the thread's, the list's and the navigator's English, the form's loading of its thread and
// the stream's loading of its parser did, with their stand-ins in the classic script): its
// dependencies are resolved from the registry at install time, so a new patch release of Lit,
// marked or DOMPurify moves it a little; the budget leaves 0.1 MB for that.
const BUDGET = { packages: 11, bytes: 12.3 * MB };

const SERVER_PACKAGES = [
  'hono',
  '@hono/node-server',
  'zod',
  'standardwebhooks',
  'undici',
  'ioredis',
  'web-push',
  '@lit/react',
  '@types/react',
];

/** The README's install line for a kind of partner, from its table of installs. */
function installLine(kind: string): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const row = readme.split('\n').find((line) => line.startsWith(`| ${kind}`));
  const command = /`(npm install consult-elements[^`]*)`/.exec(row ?? '')?.[1];
  assert.ok(command, `the README says what ${kind} installs`);
  return command.split(/\s+/).slice(2);
}

/** Every installed package (a folder with a package.json under node_modules), nested ones too. */
function installedPackages(modules: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(modules)) {
    if (name.startsWith('.')) continue;
    const scoped = name.startsWith('@')
      ? readdirSync(join(modules, name)).map((n) => `${name}/${n}`)
      : [name];
    for (const pkg of scoped) {
      found.push(pkg);
      const nested = join(modules, pkg, 'node_modules');
      if (lstatSync(join(modules, pkg)).isDirectory() && safeIsDirectory(nested)) {
        found.push(...installedPackages(nested));
      }
    }
  }
  return found;
}

function safeIsDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The bytes of every file in a folder (its own size, not the disk blocks it takes). */
function folderBytes(path: string): number {
  let total = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) total += folderBytes(full);
    else if (entry.isFile()) total += lstatSync(full).size;
  }
  return total;
}

/** Runs `node` in the folder; resolves with its exit code and output, whether it failed or not. */
async function node(folder: string, args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd: folder });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

const WORKER = `
import { createProxy } from 'consult-elements/proxy';
export default {
  fetch: createProxy({
    upstreamUrl: 'https://api.partner-health.example',
    apiKey: 'key',
    sessionSecret: 'a-session-secret-of-32-or-more-characters',
    authenticate: () => null,
  }).fetch,
};
`;

/** A partner's strict TypeScript that checks its libraries too (`skipLibCheck: false`). */
const STRICT = {
  strict: true,
  skipLibCheck: false,
  noEmit: true,
  module: 'nodenext',
  moduleResolution: 'nodenext',
  target: 'es2022',
  lib: ['es2023', 'dom', 'dom.iterable'],
  types: [],
};

/** Uses the views through the elements, the client and an event; each `@ts-expect-error` fails if they were `any`. */
const TYPED_APP = `
import type { CaseHistory, ConsultAnsweredEvent, ConsultThread } from 'consult-elements';
import type { ConsultationEvent, ConsultationView, MemberView, User } from 'consult-elements/client';
import { whenLoaded } from 'consult-elements/define';

declare const thread: ConsultThread;
declare const history: CaseHistory;
declare const answered: ConsultAnsweredEvent;
declare const change: ConsultationEvent;

export const loaded: Promise<CustomElementConstructor> = whenLoaded('consult-thread');
export const answer: string | undefined = thread.consultation?.questions[0]?.answer;
const anAnswer: ConsultationView['questions'][number]['answer'] = 'Rest and fluids.';
export const answerType: string | undefined = anAnswer;
export const answers: (string | undefined)[] = history.consultations.map((c) => c.questions[0]?.answer);
export const status: 'open' | 'claimed' | 'resolved' | 'canceled' | 'closed' = answered.detail.status;
export const changed: string = change.consultationId;
export const phone: string | undefined = ({} as User).phone;
export const byTag: ConsultationView | undefined = document.querySelector('consult-thread')?.consultation;

// @ts-expect-error an answer is text
export const wrongAnswer: number | undefined = thread.consultation?.questions[0]?.answer;
// @ts-expect-error a view's field is not anything
const wrongView: ConsultationView['questions'][number]['answer'] = 42;
// @ts-expect-error a status is one of five words
export const wrongStatus: number = answered.detail.status;
// @ts-expect-error a member's id is a string
export const wrongMember: MemberView = { id: 1, language: 'en' };
export { wrongView };
`;

describe('a browser-only install of the packed package', () => {
  let folder: string;
  let tarball: string;
  const install = (packages: string[]) => installPacked(folder, tarball, packages);

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'consult-browser-only-'));
    tarball = await packInto(folder);
    const line = installLine('the elements only');
    assert.deepEqual(line, ['consult-elements'], 'the browser-only line installs the package alone');
    await install(line);
  });

  after(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it(`is at most ${BUDGET.packages} packages and ${BUDGET.bytes / MB} MB, none of them the server's`, () => {
    const modules = join(folder, 'node_modules');
    const packages = installedPackages(modules).sort();
    const bytes = folderBytes(modules);
    console.log(`# ${packages.length} packages, ${(bytes / MB).toFixed(2)} MB: ${packages.join(' ')}`);
    assert.deepEqual(
      packages.filter((name) => SERVER_PACKAGES.includes(name)),
      [],
      'no server-side library',
    );
    assert.ok(packages.length <= BUDGET.packages, `${packages.length} packages`);
    assert.ok(bytes <= BUDGET.bytes, `${(bytes / MB).toFixed(1)} MB`);
  });

  it('bundles the browser entries with what it installed', async () => {
    const result = await build({
      stdin: {
        contents: `import 'consult-elements/define';
          export { CaseHistory } from 'consult-elements';
          export { ConsultClient } from 'consult-elements/client';`,
        resolveDir: folder,
        loader: 'js',
      },
      absWorkingDir: folder,
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      minify: true,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    assert.ok(inputs.some((input) => input.includes('node_modules/consult-elements/dist/define.js')));
    assert.ok(inputs.every((input) => input === '<stdin>' || input.startsWith('node_modules/')));
    const browserFiles = readdirSync(join(folder, 'node_modules/consult-elements/dist/browser'));
    assert.ok(browserFiles.includes('consult-elements.js'));
    // The notifications' service worker, for a portal to host on its own origin (README, "Notifications").
    assert.ok(browserFiles.includes('consult-push-sw.js'), browserFiles.join(', '));
  });

  it('type-checks a strict app against the elements’ and the client’s types, without zod', async () => {
    // The published declarations are plain types: nothing to resolve in zod, and nothing typed `any`.
    writeFileSync(join(folder, 'app.mts'), TYPED_APP);
    writeFileSync(
      join(folder, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: STRICT, files: ['app.mts'] }),
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const checked = await node(folder, [tsc, '-p', 'tsconfig.json']);
    assert.equal(checked.code, 0, checked.stdout + checked.stderr);
  });

  it('each server entry says what to install, by import and by require', async () => {
    const expected: [string, string][] = [
      ['consult-elements/proxy', 'npm install hono zod'],
      ['consult-elements/proxy/node', 'npm install hono @hono/node-server zod undici@6'],
      ['consult-elements/proxy/redis', 'npm install ioredis'],
      ['consult-elements/sandbox', 'npm install hono zod'],
    ];
    for (const [entry, command] of expected) {
      const imported = await node(folder, ['--input-type=module', '-e', `await import('${entry}')`]);
      const required = await node(folder, ['-e', `require('${entry}')`]);
      for (const { code, stderr } of [imported, required]) {
        assert.notEqual(code, 0);
        assert.match(stderr, new RegExp(`${entry} needs [@\\w/-]+, which is not installed`), stderr);
        assert.ok(stderr.includes(`beside consult-elements: ${command}\n`), stderr);
      }
    }
  });

  it('the commands say what to install, and consult-admin needs nothing more', async () => {
    const bin = (name: string) => join(folder, 'node_modules/.bin', name);
    const sandbox = await node(folder, [bin('consult-sandbox')]);
    assert.equal(sandbox.code, 1);
    assert.match(
      sandbox.stderr,
      /^consult-sandbox needs (hono|@hono\/node-server|zod), which is not installed\. Install what it needs beside consult-elements: npm install hono @hono\/node-server zod\n$/,
    );
    const proxy = await node(folder, [bin('consult-proxy')]);
    assert.equal(proxy.code, 1);
    assert.match(proxy.stderr, /^consult-proxy needs \S+, which is not installed\./);
    assert.ok(proxy.stderr.includes('npm install hono @hono/node-server zod undici@6'));
    const admin = await node(folder, [bin('consult-admin'), '--help']);
    assert.equal(admin.code, 0, admin.stderr);
    assert.match(admin.stdout, /^consult-admin: the partner's back office/);
  });

  it('with the README’s line for the proxy on Node, the server entries load, and bundle for an edge runtime', async () => {
    await install(installLine('the proxy on Node'));
    await run('npm', ['ls', '--omit=dev'], { cwd: folder });
    const imported = await node(folder, [
      '--input-type=module',
      '-e',
      `const proxy = await import('consult-elements/proxy');
       const onNode = await import('consult-elements/proxy/node');
       const sandbox = await import('consult-elements/sandbox');
       console.log(typeof proxy.createProxy, typeof onNode.startProxyServer, typeof sandbox.createSandbox,
         new proxy.MemoryStore() instanceof (await import('consult-elements/proxy')).MemoryStore);`,
    ]);
    assert.equal(imported.stdout, 'function function function true\n', imported.stderr);
    assert.equal(imported.stderr, '', 'no warning');
    const required = await node(folder, [
      '-e',
      `console.log(typeof require('consult-elements/proxy').createProxy, typeof require('consult-elements/proxy/node').pooledFetch)`,
    ]);
    assert.equal(required.stdout, 'function function\n', required.stderr);
    assert.equal(required.stderr, '', 'no warning');

    // A bundler takes the entry itself (the `module` condition), never the check Node runs.
    for (const platform of ['neutral', 'node'] as const) {
      const result = await build({
        stdin: { contents: WORKER, resolveDir: folder, loader: 'js' },
        absWorkingDir: folder,
        bundle: true,
        write: false,
        format: 'esm',
        platform,
        ...(platform === 'neutral'
          ? { conditions: ['worker', 'browser'], mainFields: ['module', 'main'] }
          : {}),
        minify: true,
        metafile: true,
        logLevel: 'silent',
      });
      const inputs = Object.keys(result.metafile.inputs);
      assert.ok(inputs.includes('node_modules/consult-elements/dist/proxy/index.js'), platform);
      assert.ok(!inputs.some((input) => input.includes('node-entries')), platform);
      const bytes = result.outputFiles[0]!.contents.byteLength;
      console.log(`# the partner's worker from the package (${platform}): ${(bytes / 1024).toFixed(1)} KiB`);
      if (platform === 'neutral') assert.ok(bytes <= 125.3 * 1024, `${(bytes / 1024).toFixed(1)} KiB`);
    }
  });
});
