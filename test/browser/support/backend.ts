/**
 * Browser test support: the partner's back end in the page (the sandbox behind the real proxy)
 * and a `<consult-session>` signed in as a demo member around the element under test.
 */
import { fixture, html, waitUntil } from '@open-wc/testing';
import type { TemplateResult } from 'lit';
import { ConsultSession } from '../../../src/elements/consult-session/consult-session.js';
import {
  createDemoBackend,
  type DemoBackend,
  type DemoBackendOptions,
} from '../../../src/sandbox/demo-backend.js';
import { SessionManager } from '../../../src/session/session.js';

ConsultSession.define('consult-session');

export interface SessionFixture<T extends Element> {
  backend: DemoBackend;
  session: ConsultSession;
  element: T;
}

/** A fresh back end (manual professionals), a session as `member`, and `content` inside it. */
export async function inSession<T extends Element>(
  content: TemplateResult,
  options: {
    member?: string;
    backend?: DemoBackend;
    backendOptions?: DemoBackendOptions;
    lang?: string;
  } = {},
): Promise<SessionFixture<T>> {
  const backend = options.backend ?? createDemoBackend(options.backendOptions);
  await backend.ready;
  const session = await fixture<ConsultSession>(html`
    <consult-session
      lang=${options.lang ?? ''}
      .fetch=${backend.fetch}
      .tokenProvider=${backend.signInAs(options.member ?? 'alex')}
    >
      ${content}
    </consult-session>
  `);
  await waitUntil(() => session.manager.status === 'ready', 'the session signs in', { timeout: 5000 });
  const element = session.firstElementChild as T;
  return { backend, session, element };
}

/** Requests the proxy received, as `METHOD /path` lines (the sandbox log shows upstream calls). */
export function upstreamCalls(backend: DemoBackend, method: string, pathPattern: RegExp): number {
  return backend.sandbox.requests.filter((r) => r.method === method && pathPattern.test(r.path)).length;
}

/** Shadow-root text of an element, whitespace folded. */
export function shadowText(element: Element): string {
  return (element.shadowRoot?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * What screen readers last heard from `element`: the polite region of the `<consult-session>` it
 * is in (the session's one announcer), or the element's own when it is used alone.
 */
export function announced(element: Element): string {
  const speaker = element.closest('consult-session') ?? element;
  return speaker.shadowRoot?.querySelector('[role=status]')?.textContent ?? '';
}

/**
 * The back end behind a switch: while `fail(true)`, the member's calls (not sign-in, not the
 * stream) answer the proxy's own 500, a failure that waiting does not mend, so the elements show
 * their error with "Try again". An outage (502, 503, 504, no answer) is another thing: the session
 * says "Reconnecting…" and waits instead.
 */
export function withFailures(backend: DemoBackend): { backend: DemoBackend; fail(on: boolean): void } {
  let failing = false;
  const fetch: typeof backend.fetch = (input, init) => {
    const path = new URL(String(input instanceof Request ? input.url : input), location.href).pathname;
    if (!failing || /\/(session|events)$/.test(path)) return backend.fetch(input, init);
    const problem = { type: 'about:blank', title: 'Internal error', status: 500, code: 'internal_error' };
    return Promise.resolve(
      new Response(JSON.stringify(problem), {
        status: 500,
        headers: { 'content-type': 'application/problem+json' },
      }),
    );
  };
  return { backend: { ...backend, fetch }, fail: (on) => (failing = on) };
}

/**
 * A session signed in as `usr_scripted`, whose history has `count` answered consultations
 * ("Scripted question 0", "Scripted question 1", …), answered by a scripted `fetch`: no back end.
 */
export function scriptedHistory(count: number): SessionManager {
  const history = Array.from({ length: count }, (_, i) => ({
    consultationId: `cns_scripted_${i}`,
    userId: 'usr_scripted',
    status: 'resolved',
    createdAt: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
    questions: [{ question: `Scripted question ${i}`, answer: 'An answer.' }],
  }));
  const scripted: typeof fetch = async (input) => {
    const url = String(input);
    if (url.endsWith('/session')) return signedInAs('usr_scripted');
    if (url.endsWith('/user/usr_scripted/case-history')) return Response.json(history);
    return new Response(null, { status: 503 });
  };
  return new SessionManager({ endpoint: '/scripted', fetch: scripted });
}

/** The proxy's answer to a sign-in, for a scripted `fetch`: `userId`, in English, for an hour. */
export function signedInAs(userId: string): Response {
  return Response.json({
    token: `${userId}-token`,
    expiresAt: Date.now() + 3_600_000,
    user: { id: userId, language: 'en' },
  });
}

export interface Held {
  /** The fetch to give the session: matching requests are answered only once released. */
  fetch: typeof fetch;
  /** How many matching requests were made. */
  readonly calls: number;
  /** The held answer's status and body, once the backend has answered the first matching request. */
  readonly answer: Promise<{ status: number; body: string }>;
  release(): void;
}

/**
 * Wraps `backend.fetch`: a request with `method` whose path matches `path` goes to the backend at
 * once (the service does its work), and its response is handed back only after `release()`. Every
 * other request passes straight through.
 */
export function hold(backend: DemoBackend, method: string, path: RegExp): Held {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let calls = 0;
  let answered!: (answer: { status: number; body: string }) => void;
  const answer = new Promise<{ status: number; body: string }>((resolve) => (answered = resolve));
  const heldFetch: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    const requestMethod = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    if (requestMethod !== method || !path.test(url.pathname)) return backend.fetch(input, init);
    calls++;
    const response = await backend.fetch(input, init);
    answered({ status: response.status, body: await response.clone().text() });
    await gate;
    return response;
  };
  return {
    fetch: heldFetch,
    get calls() {
      return calls;
    },
    answer,
    release,
  };
}
