/**
 * `consult-sandbox` (src/sandbox/cli.ts) as a process: `--help` and `-h` print what it is and every
 * variable it reads and exit 0 without starting a server; an argument it does not take is refused
 * with exit 2; with no argument it starts and answers.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Runs the CLI until it exits, or until `until` matches its output (then stops it). */
function runCli(
  args: string[],
  env: Record<string, string>,
  until?: RegExp,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`consult-sandbox ${args.join(' ')} neither exited nor started: ${output}`));
    }, 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (until?.test(output)) child.kill('SIGTERM');
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(guard);
      resolve({ code, output });
    });
  });
}

/** Every variable the sandbox's environment reader reads. */
const VARIABLES = new Set(
  [...readFileSync(join(ROOT, 'src/sandbox/env.ts'), 'utf8').matchAll(/\bSANDBOX_[A-Z_]+/g)].map((m) => m[0]),
);

describe('consult-sandbox as a process', () => {
  for (const flag of ['--help', '-h']) {
    it(`${flag}: prints what it is and every variable it reads, exit 0, and starts no server`, async () => {
      const port = await freePort();
      const { code, output } = await runCli([flag], { SANDBOX_PORT: String(port) });
      assert.equal(code, 0, output);
      assert.match(output, /^Usage: consult-sandbox \[--help\]$/m);
      assert.ok(VARIABLES.size >= 6, [...VARIABLES].join(' '));
      for (const name of VARIABLES) assert.match(output, new RegExp(`^  ${name} `, 'm'), name);
      assert.doesNotMatch(output, /URL: +http|Press Ctrl\+C/);
      // Nothing listens where it would have.
      const refused = await fetch(`http://127.0.0.1:${port}/openapi.json`).then(
        () => false,
        () => true,
      );
      assert.ok(refused, `nothing answers on port ${port}`);
    });
  }

  it('an argument it does not take: exits 2, says it is configured from the environment, and shows the help', async () => {
    const { code, output } = await runCli(['--port', '9999'], { SANDBOX_PORT: '0' });
    assert.equal(code, 2, output);
    assert.match(output, /unknown argument "--port"; it is configured from the environment/);
    assert.match(output, /Usage: consult-sandbox/);
  });

  it('with no argument: starts, says where, and stops on SIGTERM with exit 0', async () => {
    const { code, output } = await runCli([], { SANDBOX_PORT: '0' }, /Press Ctrl\+C to stop/);
    assert.match(output, /URL: +http:\/\/127\.0\.0\.1:\d+/);
    assert.equal(code, 0, output);
  });
});
