/**
 * End to end: the proxy where partners put it, not only at `/consult` on the page's origin. The
 * page is served on one origin; the proxy answers at `/api/consult` on another, inside an Express
 * app with the `compression` middleware in front of everything (as many partners' servers have).
 * A member asks a question and the answer arrives live, every call of every element going to the
 * configured endpoint. Then what a partner sees when the proxy refuses the page's origin, and when
 * the service behind the proxy is down while the page loads.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import compression from 'compression';
import express from 'express';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createProxy, type ConsultProxy } from '../../src/proxy/proxy.js';
import type { ProxyLogEntry } from '../../src/proxy/options.js';
import { startSandboxServer, type SandboxServer } from '../../src/sandbox/node.js';
import { startDemoStack, type DemoStack } from '../../demo/stack.js';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';

/** Another loopback address: another origin (and another site) than the page's 127.0.0.1. */
const PROXY_HOST = '127.0.0.2';

interface PartnerServer {
  /** The proxy's base URL, for `endpoint`. */
  endpoint: string;
  proxy: ConsultProxy;
  logs: ProxyLogEntry[];
  /** While false, the proxy's calls to the service fail as if it were down. */
  serviceUp: { value: boolean };
  close(): Promise<void>;
}

/** An Express server, compressing everything it can, with the proxy mounted at `/api/consult`. */
async function startPartnerServer(
  sandbox: SandboxServer,
  allowedOrigins: string[],
  { ignoresNoTransform = false } = {},
): Promise<PartnerServer> {
  const logs: ProxyLogEntry[] = [];
  const serviceUp = { value: true };
  // Listening first: the proxy registers its webhook at its public URL, so the port must be known.
  const server = createServer().listen(0, PROXY_HOST);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://${PROXY_HOST}:${port}/api/consult`;
  const proxy = createProxy({
    upstreamUrl: sandbox.url,
    apiKey: sandbox.sandbox.apiKeys[0] ?? 'sandbox-api-key',
    sessionSecret: randomBytes(48).toString('base64'),
    authenticate: async () => ({ uniqueId: 'alex' }),
    allowedOrigins,
    publicUrl: endpoint,
    fetch: (input, init) =>
      serviceUp.value ? fetch(input, init) : Promise.reject(new TypeError('fetch failed')),
    logger: (entry) => logs.push(entry),
  });
  const app = express();
  app.use(compression());
  if (ignoresNoTransform) {
    // Like a CDN that compresses whatever it may: the stream's no-transform is dropped on the way
    // (wrapping compression's own writeHead, so that it sees the header as changed).
    app.use((_request, response, next) => {
      const writeHead = response.writeHead;
      response.writeHead = function (this: typeof response, ...args: Parameters<typeof writeHead>) {
        const cacheControl = this.getHeader('cache-control');
        if (typeof cacheControl === 'string')
          this.setHeader('cache-control', cacheControl.replace(/,?\s*no-transform/, ''));
        const headers = args.find((arg) => typeof arg === 'object' && arg !== null) as
          Record<string, unknown> | undefined;
        if (headers && typeof headers['cache-control'] === 'string')
          headers['cache-control'] = headers['cache-control'].replace(/,?\s*no-transform/, '');
        return writeHead.apply(this, args);
      } as typeof writeHead;
      next();
    });
  }
  const hono = new Hono().route('/api/consult', proxy);
  const listener = getRequestListener(hono.fetch);
  app.use('/api/consult', (request, response) => {
    // Express strips the mount path; the Hono app routes the whole one.
    request.url = request.originalUrl;
    void listener(request, response);
  });
  server.on('request', app);
  await proxy.ready;
  return {
    endpoint,
    proxy,
    logs,
    serviceUp,
    close: async () => {
      await proxy.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('the proxy at another path, on another origin, behind a compressing Express server', () => {
  let stack: DemoStack;
  let sandbox: SandboxServer;
  let browser: Browser;
  const servers: PartnerServer[] = [];

  before(async () => {
    // The demo serves the page's origin and the elements' files; its own proxy at /consult must see no call.
    stack = await startDemoStack({ port: 0, sandbox: { port: 0 }, logger: () => undefined });
    sandbox = await startSandboxServer({ port: 0, professionals: { mode: 'manual' } });
    browser = await chromium.launch({ executablePath: findChromium(), headless: true, args: CHROMIUM_ARGS });
  });

  after(async () => {
    await browser?.close();
    for (const server of servers) await server.close();
    await sandbox?.close();
    await stack?.close();
  });

  /** A portal page on the demo's origin whose session points at `endpoint`. */
  async function openPortal(
    endpoint: string,
    { initScript }: { initScript?: string } = {},
  ): Promise<{ page: Page; said: string[]; urls: string[] }> {
    // Both servers are on loopback, so Chromium asks before a page reaches another loopback address;
    // a partner's public page calling its public proxy is never asked.
    const context = await browser.newContext({ permissions: ['local-network-access'] });
    const page = await context.newPage();
    const said: string[] = [];
    const urls: string[] = [];
    page.on('console', (message) => {
      if (message.text().startsWith('consult-elements:')) said.push(message.text());
    });
    page.on('request', (request) => urls.push(request.url()));
    if (process.env['DEBUG_E2E']) {
      page.on('console', (message) => console.log('console', message.type(), message.text()));
      page.on('response', (response) =>
        console.log(response.status(), response.request().method(), response.url()),
      );
    }
    await page.route(`${stack.url}/portal`, (route) =>
      route.fulfill({
        contentType: 'text/html; charset=utf-8',
        body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Portal</title>
          <script type="module" src="/assets/consult-elements.js"></script></head>
          <body><main><consult-session endpoint="${endpoint}">
            <consult-form></consult-form><case-history></case-history>
          </consult-session></main></body></html>`,
      }),
    );
    if (initScript) await page.addInitScript(initScript);
    await page.goto(`${stack.url}/portal`);
    return { page, said, urls };
  }

  it('sends every call to the configured endpoint, and the answer arrives live through the stream', async () => {
    const partner = await startPartnerServer(sandbox, [stack.url]);
    servers.push(partner);
    const { page, said, urls } = await openPortal(partner.endpoint);
    const box = page.locator('consult-form textarea').first();
    await box.click();
    await box.pressSequentially('A rash on my arm since Monday, should I worry?');
    await page.locator('consult-form [part~="submit-button"]').click();
    const thread = page.locator('case-history consult-thread').filter({ hasText: 'A rash on my arm' });
    await thread.waitFor({ timeout: 15_000 });
    // The stream is live: it has said something through the compressing server, so answers are pushed.
    await page.waitForFunction(() => {
      const session = document.querySelector('consult-session') as unknown as {
        manager: { live: boolean; state: { link: { delivery: string } } };
      };
      return session.manager.live && session.manager.state.link.delivery === 'push';
    });
    const id = await thread.getAttribute('consultation-id');
    const answered = await fetch(`${sandbox.url}/_sandbox/consultations/${id}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ answer: 'A rash that lasts **a week** is worth showing to a doctor.' }),
    });
    assert.equal(answered.status, 200);
    await thread
      .locator('[part~="answer"]')
      .filter({ hasText: 'worth showing' })
      .waitFor({ timeout: 20_000 });

    const toProxy = urls.filter((url) => url.startsWith(`http://${PROXY_HOST}`));
    assert.ok(
      toProxy.some((url) => url.endsWith('/api/consult/session')),
      'sign-in went to the endpoint',
    );
    assert.ok(
      toProxy.some((url) => url.endsWith('/api/consult/consultation')),
      'the question went to the endpoint',
    );
    assert.ok(
      toProxy.some((url) => url.endsWith('/api/consult/events')),
      'the stream opened at the endpoint',
    );
    assert.ok(
      toProxy.some((url) => /\/api\/consult\/user\/[^/]+\/case-history$/.test(url)),
      'the list was read at the endpoint',
    );
    assert.deepEqual(
      urls.filter((url) => url.startsWith(stack.url) && new URL(url).pathname.startsWith('/consult')),
      [],
      'no call went to /consult on the page’s origin',
    );
    assert.deepEqual(
      toProxy.filter((url) => !url.startsWith(`${partner.endpoint}/`)),
      [],
      'nothing outside the endpoint',
    );
    // The stream passed the compressing server as it was written: the page never fell back to polling.
    assert.deepEqual(
      said.filter((text) => text.includes('event stream')),
      [],
    );
    await page.close();
  });

  it('through the compressing server, the stream is sent as written: not gzipped, not held back', async () => {
    const partner = servers[0] as PartnerServer;
    const signIn = await fetch(`${partner.endpoint}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: stack.url },
      body: '{}',
    });
    const { token } = (await signIn.json()) as { token: string };
    const controller = new AbortController();
    const stream = await fetch(`${partner.endpoint}/events`, {
      headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, deflate, br' },
      signal: controller.signal,
    });
    assert.equal(stream.headers.get('content-encoding'), null);
    assert.equal(stream.headers.get('cache-control'), 'no-store, no-transform');
    assert.equal(stream.headers.get('x-accel-buffering'), 'no');
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (!text.includes('event: ready')) {
      const { value, done } = await reader.read();
      assert.ok(!done, 'the stream stays open');
      text += new TextDecoder().decode(value);
    }
    assert.ok(text.startsWith(': open'), 'a comment comes at once, before anything has happened');
    controller.abort();

    // The same server compresses an event stream that does not say no-transform, and holds it back.
    const app = express();
    app.use(compression());
    app.get('/plain-stream', (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.write('event: ready\ndata: {}\n\n');
    });
    const plain = app.listen(0, '127.0.0.1');
    await once(plain, 'listening');
    try {
      const held = await fetch(`http://127.0.0.1:${(plain.address() as AddressInfo).port}/plain-stream`, {
        headers: { 'accept-encoding': 'gzip' },
      });
      assert.equal(held.headers.get('content-encoding'), 'gzip', 'without no-transform it is gzipped');
      const heldReader = (held.body as ReadableStream<Uint8Array>).getReader();
      const first = await Promise.race([
        heldReader.read().then(() => 'bytes'),
        new Promise((resolve) => setTimeout(() => resolve('nothing'), 1000)),
      ]);
      assert.equal(first, 'nothing', 'and its events are held in the gzip buffer');
      await heldReader.cancel();
    } finally {
      plain.closeAllConnections();
      plain.close();
    }
  });

  it('a page on an origin the proxy does not allow: the console and the proxy’s log say which origin to add', async () => {
    const partner = await startPartnerServer(sandbox, []);
    servers.push(partner);
    const { page, said } = await openPortal(partner.endpoint);
    await page.waitForFunction(() => document.querySelector('consult-form')?.shadowRoot?.textContent);
    await assertEventually(
      () => said.some((text) => text.includes('CONSULT_ALLOWED_ORIGINS')),
      'the console names the setting',
    );
    const refused = said.filter((text) => text.includes('CONSULT_ALLOWED_ORIGINS'));
    assert.equal(refused.length, 1, 'said once');
    assert.match(refused[0] ?? '', new RegExp(`refused this page's origin ${escape(stack.url)}`));
    const warned = partner.logs.filter(
      (entry) =>
        entry.level === 'warn' &&
        entry.code === 'origin_not_allowed' &&
        entry.message.includes(`from the origin ${stack.url}`) &&
        entry.message.includes('CONSULT_ALLOWED_ORIGINS'),
    );
    assert.ok(warned.length >= 1, 'the proxy warns, naming the origin and the setting');
    // The member sees the one calm notice, not an error: from the page, a refusal looks like a
    // balancer's 502 without CORS headers during a deploy, so it is waited out.
    await page.locator('consult-session [part=connection]').waitFor({ timeout: 10_000 });
    assert.equal(said.filter((text) => text.includes('could not be reached')).length, 0);
    await page.close();
  });

  it('the service down while the page loads: one calm notice at once, a console hint, and back by itself', async () => {
    const partner = await startPartnerServer(sandbox, [stack.url]);
    servers.push(partner);
    partner.serviceUp.value = false;
    // The page's sign-ins, counted as they start, and their count when the notice first shows,
    // noted as it is put on the page (before any timer of the session's could run).
    const { page, said } = await openPortal(partner.endpoint, {
      initScript: `window.signInsStarted = 0;
        const pageFetch = window.fetch;
        window.fetch = function (input) {
          if (/\\/session$/.test(input instanceof Request ? input.url : String(input))) {
            window.signInsStarted++;
            const root = document.querySelector('consult-session')?.shadowRoot;
            if (root && !window.noticeWatched) {
              window.noticeWatched = true;
              new MutationObserver(() => {
                if (window.signInsWhenShown === undefined && root.querySelector('[part=connection]'))
                  window.signInsWhenShown = window.signInsStarted;
              }).observe(root, { childList: true, subtree: true });
            }
          }
          return pageFetch.apply(this, arguments);
        };`,
    });
    const notice = page.locator('consult-session [part=connection]');
    await notice.waitFor({ timeout: 10_000 });
    // "At once": after the second failed sign-in, not after all of the session's tries.
    assert.equal(
      await page.evaluate('window.signInsWhenShown'),
      2,
      'shown at the second failed sign-in, not after all of them',
    );
    assert.match((await notice.textContent()) ?? '', /Reconnecting/);
    // No element says it failed: the one notice speaks for the session.
    const alerts = await page.evaluate(() =>
      [...document.querySelectorAll('consult-form, case-history')].flatMap((element) =>
        [...(element.shadowRoot?.querySelectorAll('[role=alert]') ?? [])].map((alert) => alert.textContent),
      ),
    );
    assert.deepEqual(
      alerts.filter((text) => /could not/i.test(text ?? '')),
      [],
    );
    await assertEventually(
      () => said.some((text) => text.includes('could not reach the consultation service')),
      'the console says the service cannot be reached',
    );
    assert.equal(said.filter((text) => text.includes('CONSULT_UPSTREAM_URL')).length, 1, 'said once');

    partner.serviceUp.value = true;
    await notice.waitFor({ state: 'detached', timeout: 40_000 });
    await page
      .locator('case-history')
      .getByText(/Loading your consultations/)
      .waitFor({ state: 'detached', timeout: 10_000 });
    await page.close();
  });

  it('behind an intermediary that still buffers the stream: answers come by polling, and the console says why', async () => {
    const partner = await startPartnerServer(sandbox, [stack.url], { ignoresNoTransform: true });
    servers.push(partner);
    const { page, said } = await openPortal(partner.endpoint);
    const box = page.locator('consult-form textarea').first();
    await box.click();
    await box.pressSequentially('A cough at night for two weeks.');
    await page.locator('consult-form [part~="submit-button"]').click();
    const thread = page.locator('case-history consult-thread').filter({ hasText: 'A cough at night' });
    await thread.waitFor({ timeout: 15_000 });
    await assertEventually(
      () => said.some((text) => text.includes('opened but nothing came through')),
      'the console says the stream is held back',
    );
    assert.equal(
      await page.evaluate(
        () =>
          (document.querySelector('consult-session') as unknown as { manager: { live: boolean } }).manager
            .live,
      ),
      false,
      'the stream is not counted as live',
    );
    const id = await thread.getAttribute('consultation-id');
    await fetch(`${sandbox.url}/_sandbox/consultations/${id}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ answer: 'A cough for **two weeks** is worth a visit.' }),
    });
    await thread
      .locator('[part~="answer"]')
      .filter({ hasText: 'worth a visit' })
      .waitFor({ timeout: 30_000 });
    assert.equal(
      said.filter((text) => text.includes('opened but nothing came through')).length,
      1,
      'said once',
    );
    await page.close();
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

async function assertEventually(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) assert.fail(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
