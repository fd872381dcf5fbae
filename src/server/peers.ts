/**
 * The server side's libraries are optional peer dependencies of the package, so that a partner who
 * only serves the elements installs none of them (README "Install and serve" says which install
 * each kind of partner needs). Each server entry and command names here what it needs; when one is
 * missing it says what to install, rather than Node's "Cannot find package" from deep inside.
 * test/node/server-peers.test.ts checks these lists against what each entry imports.
 */

/** How to install each peer: undici 7 and later are not the Agent the proxy is written for. */
const INSTALL: Record<string, string> = { undici: 'undici@6' };

const PROXY = ['hono', 'zod'];
const ON_NODE = ['hono', '@hono/node-server', 'zod', 'undici'];

export const NEEDS = {
  'consult-elements/proxy': PROXY,
  'consult-elements/proxy/node': ON_NODE,
  'consult-elements/proxy/redis': ['ioredis'],
  'consult-elements/sandbox': PROXY,
  'consult-proxy': ON_NODE,
  'consult-proxy with CONSULT_REDIS_URL': ['ioredis'],
  'consult-proxy with CONSULT_VAPID_PUBLIC_KEY': ['web-push'],
  'consult-sandbox': ['hono', '@hono/node-server', 'zod'],
  'consult-admin webhooks rotate with CONSULT_REDIS_URL': ['ioredis'],
} satisfies Record<string, string[]>;

export type ServerEntry = keyof typeof NEEDS;

/** The package a module specifier names: `hono/jwt` → `hono`, `@hono/node-server/conninfo` → `@hono/node-server`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/** The command that installs what `entry` needs. */
export function installCommand(entry: ServerEntry): string {
  return `npm install ${NEEDS[entry].map((name) => INSTALL[name] ?? name).join(' ')}`;
}

/**
 * When `error` is a module of `entry`'s peers not being found (by `import` or by `require`), an
 * error that says what to install; otherwise `error` itself.
 */
export function explainMissingPeer(entry: ServerEntry, error: unknown): unknown {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return error;
  const specifier = /Cannot find (?:package|module) '([^']+)'/.exec(String(message))?.[1];
  const missing = specifier === undefined ? undefined : packageOf(specifier);
  const needs: string[] = NEEDS[entry];
  if (missing === undefined || !needs.includes(missing)) return error;
  return Object.assign(
    new Error(
      `${entry} needs ${missing}, which is not installed. Install what it needs beside ` +
        `consult-elements: ${installCommand(entry)}`,
      { cause: error },
    ),
    { code: 'CONSULT_MISSING_PEER', missing },
  );
}

/** Loads a server entry's code, or throws the error that says what to install. */
export function loadWithPeers<T>(entry: ServerEntry, load: () => T): T {
  try {
    return load();
  } catch (error) {
    throw explainMissingPeer(entry, error);
  }
}

/** For a command: loads its code, or prints what to install and exits. */
export async function commandNeeds<T>(entry: ServerEntry, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const explained = explainMissingPeer(entry, error);
    if (explained === error) throw error;
    console.error((explained as Error).message);
    process.exit(1);
  }
}
