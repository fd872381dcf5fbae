/**
 * The README's Next.js (App Router) recipe, from the published package. The package is packed
 * (`npm pack`, as npm publishes it) into a fresh folder outside the repository, and the recipe's
 * commands run as written: its install lines (with Next.js, React and TypeScript at the versions
 * the repository tests with, which npm finds in its cache), the example copied out of the package
 * (examples/nextjs-app-router: a Server Component page rendering `consult-elements/react`, a
 * client component with an event prop, the proxy in a route handler, all three shown in the README
 * word for word), and `next build`, which must pass without a word about elements "already
 * defined". Then `next start` serves it with the recipe's variables, in front of the sandbox (in
 * this process, its professionals quicker): a member signs in at the recipe's address and asks in
 * Chromium; the client component hears `consult-submitted`, and the answer, pushed by the service's
 * webhook through the route handler and the event stream, appears on the page with no console error.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';
import { freePort } from '../../scripts/free-port.js';
import { startSandboxServer, type SandboxServer } from '../../src/sandbox/node.js';
import { DEFAULT_API_KEY } from '../../src/sandbox/sandbox.js';
import { installPacked, packInto, readmeSection, root, run } from './support/packed-package.js';

const EXAMPLE = join(root, 'examples/nextjs-app-router');

/** The README's recipe: its shell commands, the address it tells the member to open, and its code. */
function readRecipe(): { commands: string[]; signInPath: string; section: string } {
  const { section, commands } = readmeSection('### Next.js (App Router)');
  const signInPath = /http:\/\/127\.0\.0\.1:3000(\/dev\/sign-in\?member=\w+)/.exec(section)?.[1];
  assert.ok(signInPath, 'the recipe says where to sign in');
  return { commands, signInPath, section };
}

/** `A=1 B=two npx next start` → the variables and the command. */
function splitEnvironment(command: string): { env: Record<string, string>; argv: string[] } {
  const words = command.split(/\s+/);
  const env: Record<string, string> = {};
  while (words[0] && /^[A-Z_]+=/.test(words[0])) {
    const [name = '', ...value] = (words.shift() as string).split('=');
    env[name] = value.join('=');
  }
  return { env, argv: words };
}

/** `next@16.4.6`: a package at the version installed in the repository, so npm finds it in its cache. */
const sameAsRepository = (name: string) =>
  `${name}@${(JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version}`;

/** Runs `next <args>` in the folder, as its own process group; resolves when `ready` matches its output. */
function startNext(
  folder: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): { child: ChildProcess; output: () => string; started: Promise<void> } {
  const child = spawn(process.execPath, [join(folder, 'node_modules/next/dist/bin/next'), ...args], {
    cwd: folder,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const started = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`next ${args[0]} did not start: ${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`next ${args[0]} exited (${code}): ${output}`));
    });
  });
  return { child, output: () => output, started };
}

describe('the README’s Next.js App Router recipe, from the packed package in a fresh folder', () => {
  let folder: string;
  let sandbox: SandboxServer | undefined;
  let build: ReturnType<typeof startNext> | undefined;
  let server: ReturnType<typeof startNext> | undefined;
  let browser: Browser | undefined;
  let buildOutput = '';
  const seconds: Record<string, number> = {};
  const { commands, signInPath, section } = readRecipe();
  const command = (pattern: RegExp): string => {
    const found = commands.find((c) => pattern.test(c));
    assert.ok(found, `the recipe runs ${pattern}`);
    return found;
  };
  const timed = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await work();
    } finally {
      seconds[what] = Math.round((performance.now() - start) / 100) / 10;
    }
  };

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'consult-nextjs-'));
    // The package as npm publishes it: built, then packed.
    const tarball = await timed('build and pack the package', () => packInto(folder));
    // The install lines as written, with the packed file for consult-elements.
    const installs = commands.filter((c) => c.startsWith('npm install '));
    assert.equal(installs.length, 2, 'the recipe installs the packages and the types');
    assert.match(
      installs[0] ?? '',
      /^npm install consult-elements @lit\/react hono @hono\/node-server zod next react react-dom$/,
    );
    await timed('install', async () => {
      for (const install of installs) {
        const packages = install
          .split(/\s+/)
          .slice(2)
          .map((p) => (p.startsWith('-') || p === 'consult-elements' ? p : sameAsRepository(p)));
        await installPacked(folder, tarball, packages);
      }
    });
    await run(
      'sh',
      ['-c', command(/^cp -r node_modules\/consult-elements\/examples\/nextjs-app-router\/\. \.$/)],
      {
        cwd: folder,
      },
    );
  });

  after(async () => {
    await browser?.close();
    for (const next of [build, server]) {
      if (next?.child.pid && next.child.exitCode === null) process.kill(-next.child.pid, 'SIGTERM');
    }
    await sandbox?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('shows the example’s page, client component and route handler word for word', () => {
    for (const file of ['app/page.tsx', 'app/question-form.tsx', 'app/consult/[...path]/route.ts']) {
      const text = readFileSync(join(EXAMPLE, file), 'utf8');
      assert.ok(section.includes(`\n${text}\`\`\``), `the README shows ${file} as it is`);
    }
  });

  it('ships its React components as client components', () => {
    const wrappers = readFileSync(join(folder, 'node_modules/consult-elements/dist/react/index.js'), 'utf8');
    assert.ok(wrappers.startsWith("'use client';\n"), wrappers.slice(0, 80));
  });

  it(
    'next build: a Server Component page renders them, with no "already defined" warning',
    { timeout: 300_000 },
    async () => {
      assert.equal(command(/^npx next build$/), 'npx next build');
      const building = startNext(folder, ['build'], {}, /Route \(app\)[\s\S]*\n\n/);
      build = building;
      const exit = new Promise<number | null>((resolve) => building.child.once('exit', resolve));
      building.started.catch(() => undefined);
      const code = await timed('next build', () => exit);
      buildOutput = building.output();
      assert.equal(code, 0, buildOutput);
      assert.doesNotMatch(buildOutput, /already defined|load the bundle once/i);
      assert.doesNotMatch(buildOutput, /useRef is not a function|prerender-error/);
      // The page is prerendered from the Server Component, the proxy and the sign-in are on demand.
      assert.match(buildOutput, /○ \/\n/);
      assert.match(buildOutput, /ƒ \/consult\/\[\.\.\.path\]/);
    },
  );

  it(
    'next start: a member signs in, asks, and the answer is pushed to the page',
    { timeout: 180_000 },
    async (t) => {
      assert.ok(buildOutput, 'the app was built');
      sandbox = await startSandboxServer({
        port: 0,
        professionals: { mode: 'auto', claimAfterMs: 1000, answerAfterMs: 2000 },
      });
      command(/^npx consult-sandbox &$/);
      const { env, argv } = splitEnvironment(command(/npx next start/));
      assert.deepEqual(argv, ['npx', 'next', 'start', '-H', '127.0.0.1']);
      assert.equal(
        env.CONSULT_UPSTREAM_URL,
        'http://127.0.0.1:8788',
        'the recipe points the app at the sandbox',
      );
      assert.equal(env.CONSULT_API_KEY, DEFAULT_API_KEY);
      // The service's webhook reaches the route handler, which pushes the answer to the page.
      assert.equal(env.CONSULT_PUBLIC_URL, 'http://127.0.0.1:3000/consult');
      // Free ports instead of the recipe's fixed ones; nothing else differs.
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      server = startNext(
        folder,
        [...argv.slice(2), '-p', String(port)],
        { ...env, CONSULT_UPSTREAM_URL: sandbox.url, CONSULT_PUBLIC_URL: `${url}/consult` },
        /Ready in/,
      );
      await server.started;

      // The server renders the tags; the elements come alive in the browser.
      const html = await (await fetch(url)).text();
      assert.match(html, /<consult-session[^>]*>\s*<consult-form[^>]*><\/consult-form>\s*<case-history/);

      browser = await chromium.launch({
        executablePath: findChromium(),
        headless: true,
        args: CHROMIUM_ARGS,
      });
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error' || /already defined/i.test(message.text()))
          problems.push(message.text());
      });
      const asked = await timed('sign in, ask and see the answer', async () => {
        await page.goto(url + signInPath);
        assert.equal(new URL(page.url()).pathname, '/', 'signed in, the sign-in goes to the page');
        const question = page.locator('consult-form textarea').first();
        await question.click();
        await question.pressSequentially('I have had a sore throat for a week. Should I see someone?');
        await page.locator('consult-form [part~="submit-button"]').click();
        // The example's client component hears the typed event.
        const sent = await page.locator('#questions-sent').textContent({ timeout: 15_000 });
        assert.match(sent ?? '', /^Consultations started here: cns_\w+$/);
        // A simulated professional claims and answers it; the webhook and the event stream bring it.
        const answer = page.locator('case-history consult-thread [part~="answer"]').first();
        await answer.waitFor({ timeout: 60_000 });
        return answer.innerText();
      });
      assert.ok(asked.trim().length > 40, `an answer's text is on the page: ${asked}`);
      assert.deepEqual(problems, []);

      const log = server.output();
      assert.match(
        log,
        /"method":"POST","path":"\/consult\/webhooks","status":20\d/,
        'the answer came by webhook',
      );
      assert.doesNotMatch(log, /already defined|load the bundle once/i);
      t.diagnostic(`seconds: ${JSON.stringify(seconds)}`);
    },
  );
});
