/**
 * What partners run, on every Node the package supports: the commands of the packed package
 * (`consult-sandbox`, `consult-proxy`, `consult-admin`), installed in a fresh folder with the
 * README's line for the proxy on Node, each started by Node 22 and by Node 24 (the `node22` and
 * `node24` dev dependencies, the registry's `node` package, which installs the build for the platform). On each: the proxy serves /healthz and a signed-in member's read against the sandbox, and
 * consult-admin finds that member.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { installPacked, packInto, readmeSection, root } from './support/packed-package.js';

const SESSION_SECRET = 'node-versions-session-secret-0123456789abcdef';
const API_KEY = 'sandbox-api-key';

/** The Node binaries to run the commands with: the dev dependencies' (whatever Node runs the tests). */
const NODES = [
  { name: 'Node 22', path: join(root, 'node_modules/node22/bin/node'), major: 22 },
  { name: 'Node 24', path: join(root, 'node_modules/node24/bin/node'), major: 24 },
];
/** The registry's Node builds are for Linux x64 only. */
const REGISTRY_BUILDS_INSTALL = process.platform === 'linux' && process.arch === 'x64';

/** Starts `bin` of the installed package with `node`; resolves with what `pattern` finds in a line. */
function startCommand(
  node: string,
  folder: string,
  bin: string,
  env: Record<string, string>,
  pattern: RegExp,
): Promise<{ found: string; child: ChildProcess }> {
  const child = spawn(node, [join(folder, 'node_modules/.bin', bin)], {
    cwd: folder,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${bin} did not start: ${output}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`${bin} exited (${code}): ${output}`)));
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = pattern.exec(output)?.[1];
      if (!found) return;
      clearTimeout(timer);
      resolve({ found, child });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
  });
}

describe('the partner commands of the packed package, on each supported Node', () => {
  let folder: string;
  const children: ChildProcess[] = [];

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'consult-node-versions-'));
    const tarball = await packInto(folder);
    // The README's install line for the proxy on Node, with the packed file for consult-elements.
    const line = readmeSection('## Quickstart').commands.find((c) =>
      c.startsWith('npm install consult-elements '),
    );
    assert.ok(line, 'the Quickstart has an install line');
    await installPacked(folder, tarball, line.split(/\s+/).slice(2));
  });

  after(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  for (const node of NODES) {
    it(`${node.name}: the sandbox, the proxy in front of it, and consult-admin`, async (t) => {
      if (!REGISTRY_BUILDS_INSTALL) {
        t.skip(`the registry's Node builds are for Linux x64, not ${process.platform} ${process.arch}`);
        return;
      }
      assert.ok(existsSync(node.path), `${node.path} is installed (npm ci)`);
      const { stdout: version } = await promisify(execFile)(node.path, ['--version']);
      assert.match(version, new RegExp(`^v${node.major}\\.`));

      const sandbox = await startCommand(
        node.path,
        folder,
        'consult-sandbox',
        { SANDBOX_PORT: '0' },
        /URL:\s+(http:\S+)/,
      );
      children.push(sandbox.child);
      const proxy = await startCommand(
        node.path,
        folder,
        'consult-proxy',
        {
          CONSULT_UPSTREAM_URL: sandbox.found,
          CONSULT_API_KEY: API_KEY,
          CONSULT_SESSION_SECRET: SESSION_SECRET,
          CONSULT_DEMO_SIGN_IN: '1',
          PORT: '0',
        },
        /consult-proxy on (http:\/\/127\.0\.0\.1:\d+)\/consult/,
      );
      children.push(proxy.child);
      try {
        const health = await fetch(`${proxy.found}/consult/healthz`);
        assert.equal(health.status, 200);
        assert.deepEqual(await health.json(), { ok: true });

        const session = await fetch(`${proxy.found}/consult/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ demoUser: 'alex' }),
        });
        assert.equal(session.status, 200);
        const { token, user } = (await session.json()) as { token: string; user: { id: string } };
        assert.equal(user.id, 'usr_demo_alex');
        // A member's read, through the proxy to the sandbox.
        const read = await fetch(`${proxy.found}/consult/user/${user.id}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        assert.equal(read.status, 200, await read.clone().text());
        assert.equal(((await read.json()) as { uniqueId: string }).uniqueId, 'alex');

        const admin = await promisify(execFile)(
          node.path,
          [
            join(folder, 'node_modules/.bin/consult-admin'),
            'users',
            'search',
            '--unique-id',
            'alex',
            '--json',
          ],
          {
            cwd: folder,
            env: {
              PATH: process.env['PATH'] ?? '',
              CONSULT_UPSTREAM_URL: sandbox.found,
              CONSULT_API_KEY: API_KEY,
            },
          },
        );
        assert.equal((JSON.parse(admin.stdout) as { id: string }[])[0]?.id, 'usr_demo_alex');
      } finally {
        proxy.child.kill('SIGTERM');
        sandbox.child.kill('SIGTERM');
      }
    });
  }
});
