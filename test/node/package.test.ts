/**
 * The package as npm publishes it (`npm pack --dry-run`, no build needed): its license is in the
 * tarball, its package.json says where the repository, home page and issues are and exports
 * itself, and every link of the README (which the registry's page shows) works from there: a link
 * to a file of the repository is absolute, or names a file in the tarball.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../', import.meta.url));
const REPOSITORY = 'https://github.com/consult-elements/consult-elements';

interface Packed {
  files: { path: string }[];
}

/** Every link and image of a markdown text, outside its code blocks and spans. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [
    ...[...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? ''),
    ...[...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1] ?? ''),
    ...[...prose.matchAll(/<(?:a|img)\b[^>]*\b(?:href|src)="([^"]+)"/g)].map((m) => m[1] ?? ''),
  ];
}

describe('the package as npm publishes it', () => {
  let files: Set<string>;
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

  before(async () => {
    const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
      timeout: 120_000,
    });
    const [packed] = JSON.parse(stdout) as Packed[];
    assert.ok(packed, 'npm pack lists a tarball');
    files = new Set(packed.files.map((file) => file.path));
  });

  it('ships the MIT license it declares, with its copyright line', () => {
    assert.equal(manifest.license, 'MIT');
    assert.ok(files.has('LICENSE'), 'LICENSE is in the tarball');
    const license = readFileSync(new URL('../../LICENSE', import.meta.url), 'utf8');
    assert.match(license, /^MIT License\n/);
    assert.match(license, /Copyright \(c\) 2026 consult-elements contributors/);
    assert.match(license, /THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND/);
    for (const name of ['README.md', 'package.json', 'custom-elements.json'])
      assert.ok(files.has(name), name);
  });

  it('says where its repository, home page and issues are, and exports its package.json', () => {
    assert.deepEqual(manifest.repository, { type: 'git', url: `git+${REPOSITORY}.git` });
    assert.equal(manifest.homepage, `${REPOSITORY}#readme`);
    assert.equal(manifest.bugs?.url, `${REPOSITORY}/issues`);
    assert.equal(manifest.exports['./package.json'], './package.json');
  });

  it('has a README whose every link works from the registry’s page', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const links = linksOf(readme);
    assert.ok(links.length > 20, 'the README’s links are found');
    const anchors = new Set(
      [...readme.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
        (m[1] ?? '')
          .toLowerCase()
          .replace(/[^\p{L}\p{N} -]/gu, '')
          .replace(/ /g, '-'),
      ),
    );
    const broken = links.filter((link) => {
      if (link.startsWith('#')) return !anchors.has(link.slice(1));
      if (/^[a-z][a-z+.-]*:/i.test(link)) return false;
      // A relative link: npm's page resolves it against the repository, so only a shipped file is safe.
      return !files.has(link.replace(/^\.\//, '').replace(/[#?].*$/, ''));
    });
    assert.deepEqual(broken, [], 'each link is absolute, an anchor of the README, or a file in the tarball');
    const repositoryFiles = links
      .filter((link) => link.startsWith(`${REPOSITORY}/blob/main/`))
      .map((link) => link.slice(`${REPOSITORY}/blob/main/`.length).replace(/[#?].*$/, ''))
      .concat(
        links
          .filter((link) =>
            link.startsWith('https://raw.githubusercontent.com/consult-elements/consult-elements/main/'),
          )
          .map((link) => link.split('/main/')[1] ?? ''),
      );
    assert.ok(repositoryFiles.length > 20, 'the README links to the repository’s files');
    for (const path of repositoryFiles) {
      assert.doesNotThrow(
        () => readFileSync(new URL(`../../${path}`, import.meta.url)),
        `${path} is in the repository`,
      );
    }
  });
});
