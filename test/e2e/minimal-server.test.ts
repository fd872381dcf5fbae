/**
 * The README's complete minimal server, run exactly as written (examples/minimal-server/server.ts,
 * which the README shows verbatim), in front of the real sandbox, with the browser files built as
 * `npm run build` builds them: a signed-in member opens the page in Chromium under its Content
 * Security Policy, asks a question by typing and clicking, sees it open in the list and its answer
 * arrive with no webhook (the page polls); the
 * browser files come compressed, hashed chunks cached for a year; no violation is reported.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { serializeSigned } from 'hono/utils/cookie';
import { chromium, type Browser } from 'playwright-core';
import { STRICT_CSP } from '../../demo/server.js';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';
import { browserBuild } from '../../scripts/test-build.js';
import { startSandboxServer, type SandboxServer } from '../../src/sandbox/node.js';
import { DEFAULT_API_KEY } from '../../src/sandbox/sandbox.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLE = 'examples/minimal-server/server.ts';
const COOKIE_SECRET = 'portal-cookie-secret-for-the-test';

/** Starts the example as a partner would, with the environment it asks for; resolves its URL. */
function startExample(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  // The package's own name resolves to its sources (the `consult-source` condition), not to dist/.
  const child = spawn(process.execPath, ['--conditions=consult-source', '--import', 'tsx', EXAMPLE], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the example did not start: ${errors}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`the example exited (${code}): ${errors}`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const url = /Listening on (http:\/\/\S+)/.exec(line)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({ url, child });
    });
  });
}

/** A GET with exactly these headers (fetch will not send another Host). */
function rawGet(
  port: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string; cookie?: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => {
        const cookie = res.headers['set-cookie']?.[0];
        resolve({ status: res.statusCode ?? 0, text, ...(cookie ? { cookie } : {}) });
      });
    });
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', reject);
    req.end();
  });
}

/** Starts the example and waits for it to stop by itself: its exit code and what it printed. */
function runToExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--conditions=consult-source', '--import', 'tsx', EXAMPLE], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(guard);
      resolve({ code, output });
    }),
  );
}

describe('the README’s minimal server', () => {
  let sandbox: SandboxServer;
  let assets: string;
  const environment = (): Record<string, string> => ({
    CONSULT_ASSETS_DIR: assets,
    CONSULT_UPSTREAM_URL: sandbox.url,
    CONSULT_API_KEY: DEFAULT_API_KEY,
    CONSULT_SESSION_SECRET: 'minimal-server-session-secret-0123456789',
    PORTAL_COOKIE_SECRET: COOKIE_SECRET,
    PORT: '0',
  });
  let example: { url: string; child: ChildProcess };
  let browser: Browser;

  before(async () => {
    sandbox = await startSandboxServer({ port: 0, professionals: { mode: 'manual' } });
    assets = (await browserBuild()).folder;
    example = await startExample(environment());
    browser = await chromium.launch({ executablePath: findChromium(), headless: true, args: CHROMIUM_ARGS });
  });

  after(async () => {
    await browser?.close();
    example?.child.kill();
    await sandbox?.close();
  });

  it('is in the README word for word', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const file = readFileSync(join(root, EXAMPLE), 'utf8');
    assert.ok(readme.includes(`\`\`\`ts\n${file}\`\`\``), `README.md shows ${EXAMPLE} as it is`);
  });

  it('serves a signed-in member the page: a question typed, sent, opened in the list and answered with no webhook, and no violation', async () => {
    const context = await browser.newContext();
    const signed = await serializeSigned('portal_member', 'alex', COOKIE_SECRET);
    const [value = ''] = signed.split(';')[0]?.split('=').slice(1) ?? [];
    await context.addCookies([{ name: 'portal_member', value, url: example.url }]);
    const page = await context.newPage();
    const problems: string[] = [];
    const assetsSeen: { url: string; encoding?: string; cache?: string }[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
      if (new URL(response.url()).pathname.startsWith('/assets/')) {
        const headers = response.headers();
        assetsSeen.push({
          url: response.url(),
          encoding: headers['content-encoding'],
          cache: headers['cache-control'],
        });
      }
    });
    await page.addInitScript(
      "document.addEventListener('securitypolicyviolation', (e) => console.error('violation ' + e.effectiveDirective));",
    );
    const response = await page.goto(example.url);
    assert.equal(response?.headers()['content-security-policy'], STRICT_CSP, 'the README’s policy');

    const question = page.locator('consult-form textarea').first();
    await question.click();
    await question.pressSequentially('A rash on my arm for two weeks, should I worry?');
    await page.locator('consult-form [part~="submit-button"]').click();
    // The page has a list: the question opens there, in one place.
    await page
      .locator('case-history consult-thread')
      .filter({ hasText: 'A rash on my arm' })
      .waitFor({ timeout: 15_000 });
    assert.equal(await page.locator('consult-form consult-thread').count(), 0);

    // A doctor answers. The example has no public URL, so no webhook pushes it: the page polls, and the
    // answer shows by itself within seconds.
    const id = await page.locator('case-history consult-thread').getAttribute('consultation-id');
    const answered = await fetch(`${sandbox.url}/_sandbox/consultations/${id}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ answer: 'A rash that lasts **two weeks** is worth showing to a doctor.' }),
    });
    assert.equal(answered.status, 200);
    await page
      .locator('case-history consult-thread [part~="answer"]')
      .filter({ hasText: 'worth showing to a doctor' })
      .waitFor({ timeout: 20_000 });
    assert.deepEqual(problems, []);

    const chunks = assetsSeen.filter((asset) => asset.url.includes('/assets/chunks/'));
    assert.ok(chunks.length > 0, 'the elements loaded their chunks');
    for (const asset of assetsSeen) {
      assert.match(asset.encoding ?? '', /gzip|br|deflate/, `${asset.url} is compressed`);
    }
    for (const chunk of chunks) assert.match(chunk.cache ?? '', /max-age=31536000, immutable/, chunk.url);
    await context.close();
  });

  it('has no development sign-in unless it is asked for', async () => {
    const response = await fetch(`${example.url}/dev/sign-in?member=alex`, { redirect: 'manual' });
    assert.equal(response.status, 404);
    assert.equal(response.headers.get('set-cookie'), null);
  });

  it('will not start with the development sign-in under a production-like NODE_ENV, in any case, and says why', async () => {
    const variants = ['production', 'Production', 'PRODUCTION ', 'prod', 'live', 'staging'];
    const outcomes = await Promise.all(
      variants.map((nodeEnv) => runToExit({ ...environment(), PORTAL_DEV_SIGN_IN: '1', NODE_ENV: nodeEnv })),
    );
    for (const [i, { code, output }] of outcomes.entries()) {
      assert.equal(code, 1, `${variants[i]}: ${output}`);
      assert.match(output, /PORTAL_DEV_SIGN_IN=1 lets anyone sign in as any member/);
      assert.ok(
        output.includes(`it runs only in development, and NODE_ENV is ${JSON.stringify(variants[i])}`),
        output,
      );
    }
  });

  it('will not start the development sign-in against a service that is not a sandbox, and says why', async () => {
    // The service as a production one looks: it takes the API key and answers every operation, but
    // has none of the sandbox's controls.
    const service = createServer((request, response) => {
      if ((request.url ?? '').startsWith('/_sandbox')) {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"not_found"}');
        return;
      }
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        void fetch(`${sandbox.url}${request.url ?? '/'}`, {
          method: request.method ?? 'GET',
          headers: Object.fromEntries(
            Object.entries(request.headers).filter(
              (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host',
            ),
          ),
          ...(body ? { body } : {}),
        }).then(
          async (answer) => {
            response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? '' });
            response.end(Buffer.from(await answer.arrayBuffer()));
          },
          () => response.writeHead(502).end(),
        );
      });
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const { port } = service.address() as AddressInfo;
    try {
      const { code, output } = await runToExit({
        ...environment(),
        CONSULT_UPSTREAM_URL: `http://127.0.0.1:${port}`,
        PORTAL_DEV_SIGN_IN: '1',
        NODE_ENV: 'development',
      });
      assert.equal(code, 1, output);
      assert.ok(
        output.includes(
          `PORTAL_DEV_SIGN_IN=1 lets anyone sign in as any member: it runs only against a sandbox, and http://127.0.0.1:${port} is not one`,
        ),
        output,
      );
      assert.doesNotMatch(
        output,
        /refused the API key/,
        'the service took the key: the sandbox check stopped it',
      );
    } finally {
      service.closeAllConnections();
      await new Promise((resolve) => service.close(resolve));
    }
  });

  it('will not start the development sign-in on an address others can reach', async () => {
    const { code, output } = await runToExit({
      ...environment(),
      PORTAL_DEV_SIGN_IN: '1',
      HOST: '0.0.0.0',
      NODE_ENV: 'development',
    });
    assert.equal(code, 1, output);
    assert.match(output, /runs only on a loopback HOST/);
  });

  it('signs in at the development address only when it is opened on this site, not from another', async () => {
    // A Vite build in this process (when it is the one that builds the browser files) sets
    // NODE_ENV=production, which the example inherits otherwise.
    const dev = await startExample({ ...environment(), PORTAL_DEV_SIGN_IN: '1', NODE_ENV: 'development' });
    try {
      const fromElsewhere = await fetch(`${dev.url}/dev/sign-in?member=alex`, {
        redirect: 'manual',
        headers: { 'sec-fetch-site': 'cross-site' },
      });
      assert.equal(fromElsewhere.status, 403);
      assert.equal(fromElsewhere.headers.get('set-cookie'), null);
      const typed = await fetch(`${dev.url}/dev/sign-in?member=alex`, {
        redirect: 'manual',
        headers: { 'sec-fetch-site': 'none' },
      });
      assert.equal(typed.status, 303);
      assert.match(typed.headers.get('set-cookie') ?? '', /^portal_member=.*HttpOnly/i);
      const nobody = await fetch(`${dev.url}/dev/sign-in?member=${encodeURIComponent('<x>')}`, {
        redirect: 'manual',
      });
      assert.equal(nobody.status, 400);
    } finally {
      dev.child.kill();
    }
  });

  it('refuses the development sign-in to a request a proxy forwarded or that names another host, and says why', async () => {
    const dev = await startExample({ ...environment(), PORTAL_DEV_SIGN_IN: '1', NODE_ENV: 'development' });
    try {
      // A reverse proxy on the same machine connects from loopback too: its headers give it away.
      const forwarded: Record<string, string>[] = [
        { 'x-forwarded-for': '203.0.113.7' },
        { forwarded: 'for=203.0.113.7;proto=https' },
        { 'x-real-ip': '203.0.113.7' },
        { 'x-forwarded-host': 'portal.example' },
        // One address among several is enough.
        { 'x-forwarded-for': '127.0.0.1, 203.0.113.7' },
      ];
      for (const headers of forwarded) {
        const response = await fetch(`${dev.url}/dev/sign-in?member=alex`, {
          redirect: 'manual',
          headers: { 'sec-fetch-site': 'none', ...headers },
        });
        const name = Object.keys(headers)[0] ?? '';
        assert.equal(response.status, 403, name);
        assert.equal(response.headers.get('set-cookie'), null, name);
        assert.equal(
          await response.text(),
          `No development sign-in: it answers only requests made on this machine, and this one was forwarded from elsewhere (${name}).`,
        );
      }
      // A proxy that passes the public host name on, and adds nothing.
      const port = new URL(dev.url).port;
      const named = await rawGet(port, '/dev/sign-in?member=alex', { host: 'portal.example' });
      assert.equal(named.status, 403);
      assert.equal(named.cookie, undefined);
      assert.match(named.text, /^No development sign-in: it answers only at a loopback address/);
      // The same request, as typed on this machine, signs in; so does one whose forwarding headers
      // name only this machine (a server may fill them in from the socket itself).
      const typed = await rawGet(port, '/dev/sign-in?member=alex', { host: `localhost:${port}` });
      assert.equal(typed.status, 303, typed.text);
      assert.match(typed.cookie ?? '', /^portal_member=/);
      const local = await rawGet(port, '/dev/sign-in?member=alex', {
        host: `127.0.0.1:${port}`,
        'x-forwarded-for': '127.0.0.1',
        'x-forwarded-host': `localhost:${port}`,
      });
      assert.equal(local.status, 303, local.text);
    } finally {
      dev.child.kill();
    }
  });

  it('stops at start when the service refuses its API key, naming CONSULT_API_KEY', async () => {
    const { code, output } = await runToExit({ ...environment(), CONSULT_API_KEY: 'not-the-sandbox-key' });
    assert.equal(code, 1, output);
    assert.match(output, /the service refused the API key \(401 \w+\): check CONSULT_API_KEY/);
    assert.ok(!output.includes('not-the-sandbox-key'), 'the key is not printed');
  });

  it('refuses a member whose cookie was not signed by the portal', async () => {
    const forged = await fetch(`${example.url}/consult/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: 'portal_member=alex' },
      body: '{}',
    });
    assert.equal(forged.status, 401);
    const none = await fetch(`${example.url}/consult/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(none.status, 401);
  });
});
