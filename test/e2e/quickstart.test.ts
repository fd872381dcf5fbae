/**
 * A partner's first hour, from the published package. The package is packed (`npm pack`, as npm
 * publishes it) and installed into a fresh folder outside the repository; then the README's
 * "Quickstart" commands run as written: the install line, the example server copied out of the
 * package, the sandbox with its professionals answering by themselves, and the server with the
 * variables the README sets and no public URL. The member signs in the README's way, asks in
 * Chromium, and the answer's text appears in the page. In the same folder a strict app
 * (`skipLibCheck: false`) type-checks against the packed entries.
 *
 * Then, from the same install, the proxy where many partners put it: at `/api/consult` on another
 * origin than the page, inside an Express app with `compression` in front, written as the README's
 * "Inside an Express app" says (its code blocks are read, so a README that goes wrong fails here)
 * and importing only the package's public entries. The member asks in Chromium and the simulated
 * professional's answer appears without a reload, pushed through the event stream; every call of
 * the elements goes to the configured endpoint; the stream passes the compressing server as it is
 * written while the server's own large JSON is compressed. And the partner's commonest slip: the
 * page opened on an origin missing from `allowedOrigins`, which the console names with the setting.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page, type Response } from 'playwright-core';
import ts from 'typescript';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';
import {
  installPacked,
  packInto,
  readmeSection,
  readmeSectionText,
  root,
  run,
} from './support/packed-package.js';

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

/** The code blocks of a README section in `language`, in order. */
function codeBlocks(section: string, language: string): string[] {
  return [...section.matchAll(new RegExp(`\`\`\`${language}\n([\\s\\S]*?)\`\`\``, 'g'))].map(
    (match) => match[1] as string,
  );
}

/** Where the partner's Express server puts the proxy, as the README's Express snippet mounts it. */
const EXPRESS_PATH = '/api/consult';

/**
 * A partner's server written from the README: the imports of "Run the proxy"'s first block, then its
 * "Inside an Express app" block as it stands, the proxy's options in place of its placeholder
 * comment. Around it, what every partner adds: the proxy listens on 127.0.0.2 (another origin than
 * the page), and the portal's own server on 127.0.0.1 serves the page and the browser files from
 * node_modules, as "Install and serve" says, with the page's policy from there too.
 */
function partnerServerSource(): string {
  const section = readmeSectionText('## Run the proxy');
  const [honoBlock, expressBlock] = codeBlocks(section, 'ts');
  assert.ok(honoBlock && expressBlock, '"Run the proxy" shows the proxy on Hono, then inside Express');
  assert.ok(
    section.indexOf('**Inside an Express app**') < section.indexOf(expressBlock),
    'the second block is the Express one',
  );
  const imports = honoBlock.split('\n').filter((line) => line.startsWith('import '));
  const placeholder = 'createProxy({ /* as above */ })';
  assert.ok(expressBlock.includes(placeholder), 'the Express block reuses the options above');
  assert.ok(
    expressBlock.includes(`'${EXPRESS_PATH}'`),
    `the Express block mounts the proxy at ${EXPRESS_PATH}`,
  );
  const serving = readmeSectionText('## Install and serve');
  const policy = /```\n(default-src[^\n]*)\n```/.exec(serving)?.[1];
  assert.ok(policy?.includes("connect-src 'self'"), '"Install and serve" gives the page\'s policy');
  return `import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
${imports.join('\n')}

// Both listen first: the proxy registers its webhook at its public URL, and the page names the proxy.
const pageServer = createServer().listen(0, '127.0.0.1');
const proxyServer = createServer().listen(0, '127.0.0.2');
await Promise.all([once(pageServer, 'listening'), once(proxyServer, 'listening')]);
const pageOrigin = \`http://127.0.0.1:\${(pageServer.address() as AddressInfo).port}\`;
const proxyOrigin = \`http://127.0.0.2:\${(proxyServer.address() as AddressInfo).port}\`;
const endpoint = proxyOrigin + '${EXPRESS_PATH}';

const options = {
  upstreamUrl: process.env.CONSULT_UPSTREAM_URL!,
  apiKey: 'sandbox-api-key',
  sessionSecret: randomBytes(48).toString('base64'),
  allowedOrigins: [pageOrigin],
  publicUrl: endpoint,
  clientAddress: socketAddress,
  fetch: pooledFetch(),
  authenticate: async () => ({ uniqueId: 'alex' }),
};

${expressBlock.replace(placeholder, 'createProxy(options)')}
// The portal's own API beside the proxy, compressed by the same middleware.
portal.get('/api/plans', (_request, response) => {
  response.json(Array.from({ length: 200 }, (_, i) => ({ id: \`plan_\${i}\`, name: \`Plan \${i}\` })));
});
proxyServer.on('request', portal);

const page = express();
page.use('/assets', express.static('node_modules/consult-elements/dist/browser'));
page.get('/', (_request, response) => {
  response.set('content-security-policy', ${JSON.stringify(policy)}.replace("connect-src 'self'", \`connect-src 'self' \${proxyOrigin}\`));
  response.type('html').send(\`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Ask a doctor</title>
    <link rel="icon" href="data:," />
    <script type="module" src="/assets/consult-elements.js"></script>
  </head>
  <body>
    <main>
      <consult-session endpoint="\${endpoint}">
        <consult-form></consult-form>
        <case-history></case-history>
      </consult-session>
    </main>
  </body>
</html>\`);
});
pageServer.on('request', page);
console.log(\`Portal on \${pageOrigin}/ with the proxy at \${endpoint}\`);
`;
}

describe('the README’s quickstart, from the packed package in a fresh folder', () => {
  let folder: string;
  let sandbox: { url: string; child: ChildProcess } | undefined;
  let server: { url: string; child: ChildProcess } | undefined;
  let partnerServer: { url: string; child: ChildProcess } | undefined;
  let browser: Browser | undefined;
  const { commands, signInPath } = readQuickstart();

  /** The sandbox as the Quickstart starts it, on a free port; started once, for every test here. */
  async function startSandbox(): Promise<{ url: string; child: ChildProcess }> {
    sandbox ??= await startPrintingUrl(
      'npx',
      ['consult-sandbox'],
      folder,
      { SANDBOX_PORT: '0' },
      /URL:\s+(http:\S+)/,
    );
    return sandbox;
  }

  async function launchBrowser(): Promise<Browser> {
    browser ??= await chromium.launch({
      executablePath: findChromium(),
      headless: true,
      args: CHROMIUM_ARGS,
    });
    return browser;
  }

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
    for (const started of [server, partnerServer, sandbox]) {
      if (started?.child.pid) process.kill(-started.child.pid, 'SIGTERM');
    }
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('reaches an answer: the sandbox, the example server as the README starts them, a member signed in its way', async () => {
    const sandboxCommand = commands.find((c) => c.startsWith('npx consult-sandbox'));
    const serverCommand = commands.find((c) => c.endsWith('npx tsx server.ts'));
    assert.ok(sandboxCommand && serverCommand, 'the Quickstart starts the sandbox and the server');
    // Free ports instead of the README's fixed ones; nothing else differs.
    const { url: sandboxUrl } = await startSandbox();
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
      { ...env, CONSULT_UPSTREAM_URL: sandboxUrl, PORT: '0', NODE_ENV: 'development' },
      /Listening on (http:\/\/\S+)/,
    );

    const page = await (await launchBrowser()).newPage();
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

  describe('the README’s Express server: the proxy at /api/consult on another origin, behind compression', () => {
    let portalUrl: string;

    /** A page in its own context that may reach the proxy's loopback address, and what it does. */
    async function newPortalPage(): Promise<{
      page: Page;
      said: string[];
      requested: string[];
      responses: Response[];
    }> {
      // Chromium asks before a page reaches another loopback address; a public page calling a public
      // proxy is never asked.
      const context = await (await launchBrowser()).newContext({ permissions: ['local-network-access'] });
      const page = await context.newPage();
      const said: string[] = [];
      const requested: string[] = [];
      const responses: Response[] = [];
      page.on('console', (message) => said.push(`${message.type()}: ${message.text()}`));
      page.on('request', (request) => requested.push(request.url()));
      page.on('response', (response) => responses.push(response));
      return { page, said, requested, responses };
    }

    before(async () => {
      // Express and compression beside the package, as a partner's app has them.
      await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', 'express', 'compression'], {
        cwd: folder,
        maxBuffer: 64 * 1024 * 1024,
      });
      writeFileSync(join(folder, 'partner-server.mts'), partnerServerSource());
      const { url: sandboxUrl } = await startSandbox();
      partnerServer = await startPrintingUrl(
        'npx',
        ['tsx', 'partner-server.mts'],
        folder,
        { CONSULT_UPSTREAM_URL: sandboxUrl },
        /Portal on (http:\/\/\S+)/,
      );
      portalUrl = partnerServer.url;
    });

    it('the member asks; the answer arrives live, every call at the endpoint, the stream uncompressed', async () => {
      const { page, said, requested, responses } = await newPortalPage();
      await page.goto(portalUrl);
      const endpoint = (await page.locator('consult-session').getAttribute('endpoint')) as string;
      assert.match(endpoint, new RegExp(`^http://127\\.0\\.0\\.2:\\d+${EXPRESS_PATH}$`));
      const question = page.locator('consult-form textarea').first();
      await question.click();
      await question.pressSequentially('My ankle is still swollen three days after a fall.');
      await page.locator('consult-form [part~="submit-button"]').click();
      const thread = page
        .locator('case-history consult-thread')
        .filter({ hasText: 'My ankle is still swollen' });
      await thread.waitFor({ timeout: 15_000 });
      // Answers are pushed: the stream has spoken through the compressing server, and the proxy has a
      // webhook (its publicUrl), so the page does not poll for them.
      await page.waitForFunction(() => {
        const session = document.querySelector('consult-session') as unknown as {
          manager: { live: boolean; state: { link: { delivery: string } } };
        };
        return session.manager.live && session.manager.state.link.delivery === 'push';
      });
      // The simulated professional claims and answers it by themselves; no reload.
      const answer = thread.locator('[part~="answer"]').first();
      await answer.waitFor({ timeout: 60_000 });
      assert.ok((await answer.innerText()).trim().length > 40, 'the answer’s text is on the page');

      const stream = responses.find((response) => response.url() === `${endpoint}/events`);
      assert.ok(stream, 'the stream answered');
      assert.equal(stream.headers()['content-encoding'], undefined, 'the stream is sent as written');
      assert.match(stream.headers()['cache-control'] ?? '', /no-transform/);
      // The same Express server does compress what it may: its own large JSON, read in the same browser.
      const plans = await (await page.context().newPage()).goto(`${new URL(endpoint).origin}/api/plans`);
      assert.match(plans?.headers()['content-encoding'] ?? '', /^(br|gzip)$/, 'compression is in front');
      assert.equal(((await plans?.json()) as unknown[]).length, 200);

      const pageOrigin = new URL(portalUrl).origin;
      const toProxy = requested.filter((url) => url.startsWith('http://127.0.0.2'));
      for (const [call, what] of [
        [/\/session$/, 'sign-in'],
        [/\/consultation$/, 'the question'],
        [/\/events$/, 'the stream'],
        [/\/user\/[^/]+\/case-history$/, 'the list'],
      ] as const) {
        assert.ok(
          toProxy.some((url) => url.startsWith(`${endpoint}/`) && call.test(url)),
          `${what} went to the endpoint`,
        );
      }
      assert.deepEqual(
        toProxy.filter((url) => !url.startsWith(`${endpoint}/`)),
        [],
        'nothing outside the endpoint',
      );
      assert.deepEqual(
        requested.filter((url) => url.startsWith(pageOrigin) && new URL(url).pathname.startsWith('/consult')),
        [],
        'no call to /consult on the page’s origin',
      );
      assert.deepEqual(
        said.filter((text) => text.startsWith('error') || text.includes('consult-elements:')),
        [],
        'nothing on the console',
      );
      await page.context().close();
    });

    it('the page opened on an origin missing from allowedOrigins: the console names it and the setting', async () => {
      // The same server by another name: http://localhost:PORT is another origin than the
      // http://127.0.0.1:PORT the proxy allows, a partner's everyday slip.
      const elsewhere = portalUrl.replace('127.0.0.1', 'localhost');
      const origin = new URL(elsewhere).origin;
      const { page } = await newPortalPage();
      const refused = page.waitForEvent('console', {
        predicate: (message) => message.text().includes('CONSULT_ALLOWED_ORIGINS'),
        timeout: 20_000,
      });
      await page.goto(elsewhere);
      const text = (await refused).text();
      assert.ok(text.includes(`refused this page's origin ${origin}`), text);
      assert.ok(text.includes('allowedOrigins'), text);
      await page.context().close();
    });
  });
});
