/**
 * What the tests build, built once per state of the sources and shared by every test file, each
 * in its own process: the browser files as the project's Vite config makes them (the module build
 * with its chunk graph, and the classic scripts), and the package as npm publishes it (`npm run
 * build`, then `npm pack`). Kept in node_modules/.cache/consult-elements-tests/, under a hash of
 * everything that goes into them; a test run alone builds what is missing or stale, and test files
 * running at the same time wait for the one that builds rather than building it again.
 *
 * `tsx scripts/test-build.ts` builds both ahead of the tests (the first stage of `npm test`).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Rollup } from 'vite';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../', import.meta.url));
const cache = join(root, 'node_modules/.cache/consult-elements-tests');

/** What the browser files and the package are made from; anything else leaves them as they are. */
const INPUT_FOLDERS = ['src', 'examples'];
const INPUT_FILES = [
  'scripts/build-classic.ts',
  'scripts/build-push-worker.ts',
  'scripts/chunk-graph.ts',
  'scripts/flatten-declarations.ts',
  'scripts/minify-templates.ts',
  'scripts/write-version.mjs',
  'package.json',
  'package-lock.json',
  'vite.config.ts',
  'tsconfig.json',
  'tsconfig.build.json',
  'custom-elements-manifest.config.mjs',
  'custom-elements.json',
  'README.md',
  'LICENSE',
  '.gitignore',
];
const SKIPPED = new Set(['node_modules', '.next', 'dist']);

function inputFiles(): string[] {
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (SKIPPED.has(entry.name)) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) files.push(path);
    }
  };
  for (const folder of INPUT_FOLDERS) walk(join(root, folder));
  for (const file of INPUT_FILES) if (existsSync(join(root, file))) files.push(join(root, file));
  return files.sort();
}

/** A hash of the inputs' names and contents, and of where the checkout is (built files name their paths). */
export function sourceHash(): string {
  const hash = createHash('sha256').update(root);
  for (const file of inputFiles()) hash.update(relative(root, file)).update('\0').update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The pid in a lock folder, or 0 while it is not written yet (or the lock is gone). */
function lockOwner(lock: string): number {
  try {
    return Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    return 0;
  }
}

/**
 * The folder `name` for the current sources, made by `make(folder)` unless it is there already.
 * One process makes it (holding a lock folder with its pid); the others wait for it to appear.
 */
async function once(name: string, make: (folder: string) => Promise<void>): Promise<string> {
  mkdirSync(cache, { recursive: true });
  const ready = join(cache, `${name}-${sourceHash()}`);
  const lock = `${ready}.lock`;
  for (;;) {
    if (existsSync(ready)) return ready;
    try {
      mkdirSync(lock);
    } catch {
      // Someone else is making it: wait, unless they died on the way.
      const owner = lockOwner(lock);
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if ((owner && !isAlive(owner)) || (!owner && age > 10_000))
        rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    writeFileSync(join(lock, 'pid'), String(process.pid));
    const making = `${ready}.${process.pid}.tmp`;
    try {
      rmSync(making, { recursive: true, force: true });
      mkdirSync(making);
      await make(making);
      renameSync(making, ready);
      forgetOld(name, ready);
      return ready;
    } finally {
      rmSync(making, { recursive: true, force: true });
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/** Drops builds of `name` for sources last seen more than a day ago. */
function forgetOld(name: string, keep: string) {
  const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
  for (const entry of readdirSync(cache)) {
    const path = join(cache, entry);
    if (path === keep || !entry.startsWith(`${name}-`)) continue;
    if (statSync(path).mtimeMs < dayAgo) rmSync(path, { recursive: true, force: true });
  }
}

/** A chunk of the module build, as Vite reported it (its code is the file of that name). */
export interface BuiltChunk {
  fileName: string;
  isEntry: boolean;
  imports: string[];
  dynamicImports: string[];
  facadeModuleId: string | null;
  /** The modules it holds, from the repository's root. */
  moduleIds: string[];
}

export interface BrowserBuild {
  /** The browser files: the module build (`consult-elements.js`, `chunks/`) and the classic scripts. */
  folder: string;
  /** The module build's chunks, with what each imports. */
  chunks: BuiltChunk[];
}

/**
 * The browser files as `vite build` makes them with the project's config (no source maps), with
 * the classic scripts beside them. Read-only: copy before changing anything.
 */
export async function browserBuild(): Promise<BrowserBuild> {
  const folder = await once('browser', async (outDir) => {
    const { build } = await import('vite');
    const { buildClassic } = await import('./build-classic.js');
    const result = await build({
      root,
      configFile: join(root, 'vite.config.ts'),
      logLevel: 'silent',
      build: { outDir, sourcemap: false },
    });
    const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
    const chunks: BuiltChunk[] = outputs
      .flatMap((output) => output.output)
      .filter((item) => item.type === 'chunk')
      .map(({ fileName, isEntry, imports, dynamicImports, facadeModuleId, moduleIds }) => ({
        fileName,
        isEntry,
        imports,
        dynamicImports,
        facadeModuleId,
        moduleIds: moduleIds.map((id) => relative(root, id).replaceAll('\\', '/')),
      }));
    await buildClassic(outDir);
    writeFileSync(join(outDir, 'chunks.json'), JSON.stringify(chunks, null, 1));
  });
  return { folder, chunks: JSON.parse(readFileSync(join(folder, 'chunks.json'), 'utf8')) as BuiltChunk[] };
}

/**
 * The package as npm publishes it: `npm run build`, then `npm pack`, in a copy of the checkout's
 * inputs (so that neither the checkout's dist/ nor its custom-elements.json changes under tests
 * that read them). Answers the tarball's path.
 */
export async function packedPackage(): Promise<string> {
  const folder = await once('packed', async (into) => {
    // Outside node_modules: the bundler treats whatever is under a node_modules folder as a dependency.
    const checkout = mkdtempSync(join(tmpdir(), 'consult-elements-pack-'));
    for (const file of inputFiles()) cpSync(file, join(checkout, relative(root, file)));
    symlinkSync(join(root, 'node_modules'), join(checkout, 'node_modules'), 'dir');
    try {
      await run('npm', ['run', 'build', '--silent'], { cwd: checkout, maxBuffer: 64 * 1024 * 1024 });
      const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', into], { cwd: checkout });
      const [packed] = JSON.parse(stdout) as { filename: string }[];
      if (!packed) throw new Error('npm pack made no tarball');
      renameSync(join(into, packed.filename), join(into, 'consult-elements.tgz'));
    } finally {
      rmSync(checkout, { recursive: true, force: true });
    }
  });
  return join(folder, 'consult-elements.tgz');
}

/**
 * The type declarations as npm publishes them (the packed package's `dist`, flattened by the
 * build), unpacked once per state of the sources. Inside node_modules/.cache, so that they resolve
 * lit, react and zod from the checkout's node_modules as an installed package does. Read-only.
 */
export async function publishedDeclarations(): Promise<string> {
  const tarball = await packedPackage();
  const folder = await once('declarations', async (into) => {
    await run('tar', ['-xzf', tarball, '-C', into, 'package/dist', 'package/package.json']);
  });
  return join(folder, 'package', 'dist');
}

/** Copies the packed package into `folder` under npm's own name for it; answers the copy's path. */
export function copyPackedPackage(tarball: string, folder: string): string {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const copy = join(folder, `consult-elements-${version}.tgz`);
  copyFileSync(tarball, copy);
  return copy;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const [browser, tarball] = await Promise.all([browserBuild(), packedPackage()]);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `test builds ready in ${seconds} s: ${relative(root, browser.folder)}, ${relative(root, tarball)}`,
  );
}
