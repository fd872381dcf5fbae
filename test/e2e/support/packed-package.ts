/**
 * The package as a partner gets it, for the tests that install it in a fresh folder: built and
 * packed as npm publishes it, installed with the README's own lines, the packed file standing in
 * for the registry's consult-elements.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { copyPackedPackage, packedPackage } from '../../../scripts/test-build.js';

export const run = promisify(execFile);
export const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Copies the package, built and packed (once for all the tests, scripts/test-build.ts), into
 * `folder`, and makes `folder` a partner's empty project; answers the tarball.
 */
export async function packInto(folder: string): Promise<string> {
  const tarball = copyPackedPackage(await packedPackage(), folder);
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'partner-portal', private: true }));
  return tarball;
}

/** `npm install` in `folder`, with `tarball` in place of consult-elements. */
export function installPacked(folder: string, tarball: string, packages: readonly string[]) {
  return run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      ...packages.map((p) => (p === 'consult-elements' ? tarball : p)),
    ],
    { cwd: folder, maxBuffer: 64 * 1024 * 1024 },
  );
}

/** The README's section that starts at `heading`, to the next heading of the same level or higher. */
export function readmeSectionText(heading: string): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const from = readme.indexOf(`\n${heading}\n`);
  assert.ok(from >= 0, `the README has a section "${heading}"`);
  const level = /^#+/.exec(heading)?.[0] ?? '##';
  const next = readme.slice(from + heading.length + 2).search(new RegExp(`\\n#{1,${level.length}} `));
  return readme.slice(from + 1, next < 0 ? undefined : from + heading.length + 2 + next);
}

/**
 * The README's section that starts at `heading`, and the commands of its first shell block: one per
 * line, a line ending in a backslash going on.
 */
export function readmeSection(heading: string): { section: string; commands: string[] } {
  const section = readmeSectionText(heading);
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, `"${heading}" has a shell block`);
  const commands = block
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
  return { section, commands };
}
