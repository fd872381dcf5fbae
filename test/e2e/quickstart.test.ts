/**
 * A partner's first hour, from the published package. The package is packed (`npm pack`, as npm
 * publishes it) and installed into a fresh folder outside the repository; then the README's
 * "Quickstart" commands run as written: the install line, the example server copied out of the
 * package, the sandbox with its professionals answering by themselves, and the server with the
 * variables the README sets and no public URL. The member signs in the README's way, asks in
 * Chromium, and the answer's text appears in the page. In the same folder a strict app
 * (`skipLibCheck: false`) type-checks against the packed entries.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import ts from 'typescript';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';
import { installPacked, packInto, readmeSection, root, run } from './support/packed-package.js';

/** The README's quickstart: its shell block, and the address it tells the member to open. */
function readQuickstart(): { commands: string[]; signInPath: string } {
  const { section, commands } = readmeSection('## Quickstart');
  const signInPath = /http:\/\/127\.0\.0\.1:8080(\/dev\/sign-in\?member=\w+)/.exec(section)?.[1];
  assert.ok(signInPath, 'the Quickstart says where to sign in');
  return { commands, signInPath };
}

/** Starts a long-running command of the README; resolves with the first URL it prints. */
function startPrintingUrl(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  pattern: RegExp,
): Promise<{ url: string; child: ChildProcess }> {
  // A process group of its own: npx starts the real program as its child, and both stop together.
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${command} ${args.join(' ')} did not start: ${output}`)),
      60_000,
    );
    child.once('exit', (code) =>
      reject(new Error(`${command} ${args.join(' ')} exited (${code}): ${output}`)),
    );
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      output += `${line}\n`;
      const url = pattern.exec(line)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({ url, child });
    });
  });
}

/** `A=1 B=two npx tsx server.ts` → the variables and the command. */
function splitEnvironment(command: string): { env: Record<string, string>; argv: string[] } {
  const words = command.split(/\s+/);
  const env: Record<string, string> = {};
  while (words[0] && /^[A-Z_]+=/.test(words[0])) {
    const [name = '', ...value] = (words.shift() as string).split('=');
    env[name] = value.join('=');
  }
  return { env, argv: words };
}

describe('the README’s quickstart, from the packed package in a fresh folder', () => {
  let folder: string;
  let sandbox: { url: string; child: ChildProcess } | undefined;
  let server: { url: string; child: ChildProcess } | undefined;
  let browser: Browser | undefined;
  const { commands, signInPath } = readQuickstart();

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'consult-quickstart-'));
    // The package as npm publishes it: built, then packed.
    const tarball = await packInto(folder);
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'partner-portal', private: true }));

    const [install, copy] = commands;
    assert.match(install ?? '', /^npm install consult-elements /, 'first, the install line');
    // The install line as written, with the packed file in place of the registry's consult-elements.
    await installPacked(folder, tarball, (install as string).split(/\s+/).slice(2));
    assert.match(copy ?? '', /^cp node_modules\/consult-elements\/examples\//);
    await run('sh', ['-c', copy as string], { cwd: folder });
  });

  after(async () => {
    await browser?.close();
    for (const started of [server, sandbox]) {
      if (started?.child.pid) process.kill(-started.child.pid, 'SIGTERM');
    }
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('reaches an answer: the sandbox, the example server as the README starts them, a member signed in its way', async () => {
    const sandboxCommand = commands.find((c) => c.startsWith('npx consult-sandbox'));
    const serverCommand = commands.find((c) => c.endsWith('npx tsx server.ts'));
    assert.ok(sandboxCommand && serverCommand, 'the Quickstart starts the sandbox and the server');
    // Free ports instead of the README's fixed ones; nothing else differs.
    sandbox = await startPrintingUrl(
      'npx',
      ['consult-sandbox'],
      folder,
      { SANDBOX_PORT: '0' },
      /URL:\s+(http:\S+)/,
    );
    const { env, argv } = splitEnvironment(serverCommand);
    assert.equal(
      env.CONSULT_UPSTREAM_URL,
      'http://127.0.0.1:8788',
      'the README points the server at the sandbox',
    );
    assert.equal(env.CONSULT_PUBLIC_URL, undefined, 'no public URL: answers arrive by polling');
    server = await startPrintingUrl(
      argv[0] as string,
      argv.slice(1),
      folder,
      { ...env, CONSULT_UPSTREAM_URL: sandbox.url, PORT: '0', NODE_ENV: 'development' },
      /Listening on (http:\/\/\S+)/,
    );

    browser = await chromium.launch({ executablePath: findChromium(), headless: true, args: CHROMIUM_ARGS });
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    await page.goto(server.url + signInPath);
    const question = page.locator('consult-form textarea').first();
    await question.click();
    await question.pressSequentially('I have had a sore throat for a week. Should I see someone?');
    await page.locator('consult-form [part~="submit-button"]').click();
    // A simulated professional claims and answers it by themselves; the page polls and shows it.
    await page.locator('case-history consult-thread [part~="answer"]').first().waitFor({ timeout: 60_000 });
    const answer = await page.locator('case-history consult-thread [part~="answer"]').first().innerText();
    assert.ok(answer.trim().length > 40, `an answer's text is on the page: ${answer}`);
    assert.deepEqual(problems, []);
  });

  it('installs with its license, and resolves consult-elements/package.json', () => {
    const packageJson = createRequire(join(folder, 'package.json')).resolve('consult-elements/package.json');
    assert.equal(packageJson, join(folder, 'node_modules', 'consult-elements', 'package.json'));
    const installed = JSON.parse(readFileSync(packageJson, 'utf8'));
    assert.equal(installed.license, 'MIT');
    assert.match(installed.repository?.url ?? '', /github\.com\/consult-elements\/consult-elements/);
    assert.ok(existsSync(join(dirname(packageJson), 'LICENSE')), 'LICENSE is installed');
  });

  it('type-checks a strict app against the packed entries, with typed event details', async () => {
    // A React app adds @lit/react, an optional peer of the package, as the README's table of installs says.
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    assert.ok(readme.includes('| `npm install consult-elements @lit/react` |'), 'the README says so');
    await run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        '--no-save',
        '@lit/react',
        'react@19',
        '@types/react@19',
      ],
      { cwd: folder, maxBuffer: 64 * 1024 * 1024 },
    );
    const app = join(folder, 'app.tsx');
    const source = (wrongDetail: boolean) => `
import { ConsultSession } from 'consult-elements';
import { ConsultForm } from 'consult-elements/react';
import { ConsultClient } from 'consult-elements/client';
import { createProxy } from 'consult-elements/proxy';

const client = new ConsultClient({ baseUrl: 'https://consult.example', apiKey: 'key' });
void client.getCaseHistory('usr_1');
void createProxy;
void ConsultSession.define;
export const form = (
  <ConsultForm
    onConsultSubmitted={(event) => {
      const id: string = event.detail.consultationId;
      ${wrongDetail ? 'const wrong: number = event.detail.consultationId;' : ''}
      return id;
    }}
  />
);
`;
    const check = (text: string) => {
      writeFileSync(app, text);
      const program = ts.createProgram([app], {
        strict: true,
        skipLibCheck: false,
        noEmit: true,
        jsx: ts.JsxEmit.ReactJSX,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        target: ts.ScriptTarget.ES2022,
        lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
        types: [],
      });
      return ts
        .getPreEmitDiagnostics(program)
        .map(
          (d) =>
            `${d.file?.fileName.replace(folder, '') ?? ''} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
        );
    };
    assert.deepEqual(check(source(false)), []);
    const errors = check(source(true));
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0] ?? '', /TS2322.*not assignable to type 'number'/);
  });
});
