/**
 * The server side's libraries are optional peer dependencies (src/server/peers.ts): the package's
 * own dependencies are what the browser entries import, each server entry and command names the
 * packages it imports, and the Node entries that check for them export what the entries do.
 * test/e2e/browser-only-install.test.ts installs the packed package and runs them for real.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { build } from 'esbuild';
import { explainMissingPeer, installCommand, NEEDS } from '../../src/server/peers.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  exports: Record<string, Record<string, string>>;
  bin: Record<string, string>;
};

/** The packages a source file's code reaches, following its imports (dynamic ones too). */
async function packagesOf(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    metafile: true,
    logLevel: 'silent',
  });
  const names = new Set<string>();
  for (const input of Object.values(result.metafile.inputs)) {
    for (const { path, external } of input.imports) {
      if (!external || path.startsWith('node:') || path === '<runtime>') continue;
      const parts = path.split('/');
      names.add((path.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/'));
    }
  }
  return [...names].sort();
}

const SERVER_ENTRIES = {
  'consult-elements/proxy': { source: 'src/proxy/index.ts', node: 'proxy' },
  'consult-elements/proxy/node': { source: 'src/proxy/node.ts', node: 'proxy-node' },
  'consult-elements/proxy/redis': { source: 'src/proxy/redis-store.ts', node: 'proxy-redis' },
  'consult-elements/sandbox': { source: 'src/sandbox/index.ts', node: 'sandbox' },
} as const;

const sorted = (names: readonly string[]) => [...names].sort();

describe('the server’s libraries are optional peers', () => {
  it('the package depends on what the browser entries import, and nothing else', async () => {
    const browser = new Set<string>();
    for (const entry of ['src/index.ts', 'src/define.ts', 'src/client/index.ts']) {
      for (const name of await packagesOf(entry)) browser.add(name);
    }
    assert.deepEqual(Object.keys(pkg.dependencies).sort(), sorted([...browser]));
  });

  it('each server entry and command names exactly the packages it imports', async () => {
    for (const [entry, { source }] of Object.entries(SERVER_ENTRIES)) {
      assert.deepEqual(await packagesOf(source), sorted(NEEDS[entry as keyof typeof SERVER_ENTRIES]), entry);
    }
    // The proxy's command loads ioredis only with CONSULT_REDIS_URL, web-push only with VAPID keys.
    assert.deepEqual(
      await packagesOf('src/proxy/cli.ts'),
      sorted([
        ...NEEDS['consult-proxy'],
        ...NEEDS['consult-proxy with CONSULT_REDIS_URL'],
        ...NEEDS['consult-proxy with CONSULT_VAPID_PUBLIC_KEY'],
      ]),
    );
    assert.deepEqual(await packagesOf('src/sandbox/cli.ts'), sorted(NEEDS['consult-sandbox']));
    // The back office needs nothing more, but for a rotation that tells the proxies' Redis.
    assert.deepEqual(
      await packagesOf('src/admin/cli.ts'),
      sorted(NEEDS['consult-admin webhooks rotate with CONSULT_REDIS_URL']),
    );
  });

  it('every one of them is an optional peer, and a development dependency of the repository', () => {
    const named = new Set([...Object.values(NEEDS).flat(), '@lit/react']);
    for (const name of named) {
      assert.ok(pkg.peerDependencies[name], `${name} is a peer`);
      assert.equal(pkg.peerDependenciesMeta[name]?.optional, true, `${name} is optional`);
      assert.ok(pkg.devDependencies[name], `${name} is installed here`);
      assert.equal(pkg.dependencies[name], undefined, `${name} is not a dependency`);
      // What the tests run against is a version the peer range accepts.
      const { version } = JSON.parse(
        readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8'),
      ) as { version: string };
      const [major, minor] = version.split('.').map(Number);
      const [, wantMajor, wantMinor] = /^\^(\d+)\.(\d+)\./.exec(pkg.peerDependencies[name]!) ?? [];
      assert.ok(
        major === Number(wantMajor) && minor! >= Number(wantMinor),
        `${name} ${version} within ${pkg.peerDependencies[name]}`,
      );
    }
  });

  it('Node takes the entries that check for them, bundlers the entries themselves', () => {
    for (const [entry, { node }] of Object.entries(SERVER_ENTRIES)) {
      const conditions = pkg.exports[entry.replace('consult-elements', '.')]!;
      const order = Object.keys(conditions);
      // Deno also names `node`; it takes the entry itself, as before there was a check.
      for (const before of ['module', 'deno']) {
        assert.ok(order.indexOf(before) < order.indexOf('node'), `${entry}: ${before} comes before node`);
        assert.equal(conditions[before], conditions['default']);
      }
      assert.equal(conditions['node'], `./dist/node-entries/${node}.js`);
    }
  });

  it('each Node entry exports what its entry does', async () => {
    for (const [entry, { source, node }] of Object.entries(SERVER_ENTRIES)) {
      const itself = (await import(`../../${source}`)) as Record<string, unknown>;
      const checked = (await import(`../../src/node-entries/${node}.ts`)) as Record<string, unknown>;
      assert.deepEqual(Object.keys(checked).sort(), Object.keys(itself).sort(), entry);
    }
  });

  it('a missing peer is named with the install line; any other error passes unchanged', () => {
    const byImport = Object.assign(
      new Error(
        "Cannot find package 'hono' imported from /app/node_modules/consult-elements/dist/proxy/proxy.js",
      ),
      { code: 'ERR_MODULE_NOT_FOUND' },
    );
    const explained = explainMissingPeer('consult-elements/proxy', byImport) as Error & { cause: unknown };
    assert.equal(
      explained.message,
      'consult-elements/proxy needs hono, which is not installed. Install what it needs beside consult-elements: npm install hono zod',
    );
    assert.equal(explained.cause, byImport);

    const byRequire = Object.assign(
      new Error("Cannot find module '@hono/node-server/conninfo'\nRequire stack:"),
      {
        code: 'MODULE_NOT_FOUND',
      },
    );
    assert.match(
      (explainMissingPeer('consult-elements/proxy/node', byRequire) as Error).message,
      /^consult-elements\/proxy\/node needs @hono\/node-server, .* npm install hono @hono\/node-server zod undici@6$/,
    );
    assert.equal(installCommand('consult-proxy with CONSULT_REDIS_URL'), 'npm install ioredis');

    // Not one of the entry's peers, a file of the package itself, or another failure: as it was.
    const notAPeer = Object.assign(new Error("Cannot find package 'left-pad' imported from /app/x.js"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const ownFile = Object.assign(
      new Error("Cannot find module '/app/node_modules/consult-elements/dist/x.js'"),
      {
        code: 'ERR_MODULE_NOT_FOUND',
      },
    );
    const other = new SyntaxError('Unexpected token');
    for (const error of [notAPeer, ownFile, other]) {
      assert.equal(explainMissingPeer('consult-elements/proxy', error), error);
    }
    assert.equal(explainMissingPeer('consult-elements/proxy/redis', byImport), byImport);
  });
});
