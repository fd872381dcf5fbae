import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { CaseHistory } from '../../src/elements/case-history/case-history.js';
import { ConsultForm } from '../../src/elements/consult-form/consult-form.js';
import { ConsultSession } from '../../src/elements/consult-session/consult-session.js';
import type { ConsultThread } from '../../src/elements/consult-thread/consult-thread.js';
import { LANGUAGES } from '../../src/elements/shared/localize.js';
import { SessionManager } from '../../src/session/session.js';
import { createDemoBackend } from '../../src/sandbox/demo-backend.js';
import { inSession, shadowText } from './support/backend.js';
import { waitUntil } from './support/elements.js';

ConsultSession.define('consult-session');
CaseHistory.define('case-history');
ConsultForm.define('consult-form');

describe('<consult-session>', () => {
  it('is accessible while signed in', async () => {
    const { session } = await inSession<HTMLElement>(html`<p>Portal content</p>`);
    await expect(session).to.be.accessible();
  });

  it('has sensible defaults', async () => {
    const element = document.createElement('consult-session') as ConsultSession;
    expect(element.endpoint).to.equal('/consult');
    expect(element.theme).to.equal(undefined);
  });

  it('reflects the endpoint attribute to its property', async () => {
    const element = await fixture<ConsultSession>(
      html`<consult-session
        endpoint="/api/consult"
        .tokenProvider=${() => new Promise(() => {})}
      ></consult-session>`,
    );
    expect(element.endpoint).to.equal('/api/consult');
    expect(element.manager.endpoint).to.equal('/api/consult');
  });

  it('signs the member in and knows who they are', async () => {
    const { session } = await inSession<HTMLElement>(html`<p>x</p>`, { member: 'noor' });
    expect(session.manager.user?.uniqueId).to.equal('noor');
    expect(session.manager.user?.language).to.equal('ar');
  });

  it('makes one sign-in request for 20 parallel calls', async () => {
    const backend = createDemoBackend();
    await backend.ready;
    let signIns = 0;
    const signIn = backend.signInAs('alex');
    const session = await fixture<ConsultSession>(
      html`<consult-session
        .fetch=${backend.fetch}
        .tokenProvider=${() => {
          signIns++;
          return signIn();
        }}
      ></consult-session>`,
    );
    const user = await session.manager.ready();
    await Promise.all(Array.from({ length: 20 }, () => session.manager.client.getUser(user.id)));
    expect(signIns).to.equal(1);
  });

  describe('its one announcer', () => {
    it('says an answer once, naming who answered, however many elements show the case', async () => {
      const { session, backend, element } = await inSession<HTMLElement>(html`
        <div><consult-form></consult-form><case-history></case-history></div>
      `);
      const history = element.querySelector<CaseHistory>('case-history')!;
      await waitUntil(() => history.shadowRoot!.querySelector('[part~=item]'), 'the list', { timeout: 5000 });
      await waitUntil(() => session.manager.live, 'the live stream opens', { timeout: 5000 });
      // The case open in the list, its thread on screen too: two views of one consultation.
      history.selected = 'cns_demo_alex_vitamin';
      await waitUntil(() => history.shadowRoot!.querySelector('consult-thread'), 'the thread', {
        timeout: 5000,
      });
      const said: string[] = [];
      session.manager.announcer.addEventListener('change', () => said.push(session.manager.announcer.polite));
      await backend.sandbox.fetch('/_sandbox/consultations/cns_demo_alex_vitamin/answer', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ answer: 'Yes, in winter.' }),
      });
      await waitUntil(() => said.length > 0, 'the answer is announced', { timeout: 5000 });
      // Every view that could tell it has had it: the list and the session hear it first, the thread shows it.
      const thread = history.shadowRoot!.querySelector<ConsultThread>('consult-thread')!;
      await waitUntil(() => shadowText(thread).includes('Yes, in winter.'), 'the thread shows it', {
        timeout: 5000,
      });
      await Promise.all([thread.updateComplete, history.updateComplete, session.updateComplete]);
      expect(said).to.have.length(1);
      expect(said[0]).to.match(/^.+, .+, answered your question$/);
      const record = session.manager.state.consultation('cns_demo_alex_vitamin')!;
      const professional = record.questions.at(-1)!.professional!;
      expect(said[0]).to.equal(`${professional.name}, ${professional.title}, answered your question`);
      // One polite and one assertive region, in the session; none in the elements inside it.
      expect(session.shadowRoot!.querySelector('[role=status]')!.textContent).to.equal(said[0]);
      expect(session.shadowRoot!.querySelector('[role=alert]')).to.exist;
      for (const inner of [
        history,
        history.shadowRoot!.querySelector('consult-thread')!,
        element.querySelector('consult-form')!,
      ])
        expect(inner.shadowRoot!.querySelector('[role=status]')).to.equal(null);
      await expect(session).to.be.accessible();
    });

    it('forgets what it said when the member signs out', async () => {
      const { session } = await inSession<HTMLElement>(html`<p>x</p>`);
      session.manager.announcer.announce('Your question was sent.');
      await session.updateComplete;
      session.signOut();
      expect(session.manager.announcer.polite).to.equal('');
    });
  });

  describe('when the proxy refuses to renew the session', () => {
    it('emits session-expired once and offers to sign in again', async () => {
      const backend = createDemoBackend();
      await backend.ready;
      let allowed = true;
      const signIn = backend.signInAs('alex');
      const session = await fixture<ConsultSession>(
        html`<consult-session
          .fetch=${backend.fetch}
          .tokenProvider=${async () => {
            if (!allowed) throw Object.assign(new Error('signed out'), { status: 401 });
            return signIn();
          }}
          ><p>content</p></consult-session
        >`,
      );
      await session.manager.ready();
      allowed = false;
      const expired = oneEvent(session, 'session-expired');
      session.signOut();
      const event = await expired;
      expect(event.detail.reason).to.equal('signed-out');
      await session.updateComplete;
      // Signing out is not a failure: the notice says so, and there is nothing to try again.
      expect(shadowText(session)).to.contain('You have signed out');
      expect(shadowText(session)).not.to.contain('Try again');
      expect(session.shadowRoot!.querySelector('[part=retry-button]')).to.equal(null);
      await expect(session).to.be.accessible();
    });

    it('offers the partner’s own way to sign in after sign-out, from the signed-out slot', async () => {
      const { session } = await inSession<HTMLElement>(html`
        <p>Portal content</p>
        <a slot="signed-out" href="/login">Sign in to Acme Health</a>
      `);
      const link = session.querySelector<HTMLAnchorElement>('[slot=signed-out]')!;
      expect(link.assignedSlot, 'hidden while signed in').to.equal(null);
      session.signOut();
      await session.updateComplete;
      expect(link.assignedSlot?.name).to.equal('signed-out');
      expect(link.assignedSlot!.closest('[part=notice]')).to.exist;
      expect(session.querySelector('p')!.assignedSlot, 'the content is replaced').to.equal(null);
      await expect(session).to.be.accessible();
    });

    it('offers to sign in again when the session expired under the member', async () => {
      const backend = createDemoBackend();
      await backend.ready;
      const session = await fixture<ConsultSession>(
        html`<consult-session .fetch=${backend.fetch} .tokenProvider=${backend.signInAs('alex')}
          ><p>content</p></consult-session
        >`,
      );
      await session.manager.ready();
      // The proxy forgets every token: the next call is refused, and so is the one after a sign-in.
      session.tokenProvider = async () => {
        throw Object.assign(new Error('expired'), { status: 401 });
      };
      await session.manager.ready().catch(() => undefined);
      await waitUntil(() => session.manager.status === 'expired', 'the session ends');
      await session.updateComplete;
      expect(shadowText(session)).to.contain('Your session has ended');
      expect(session.shadowRoot!.querySelector('[part=retry-button]')!.textContent!.trim()).to.equal(
        'Sign in again',
      );
    });

    it('stops after one retry when the session endpoint answers 401', async () => {
      let calls = 0;
      const fetch401: typeof fetch = async () => {
        calls++;
        return new Response(JSON.stringify({ code: 'not_signed_in', title: 'Unauthorized', status: 401 }), {
          status: 401,
          headers: { 'content-type': 'application/problem+json' },
        });
      };
      const session = await fixture<ConsultSession>(
        html`<consult-session .fetch=${fetch401}><p>x</p></consult-session>`,
      );
      const expired = oneEvent(session, 'session-expired');
      await session.manager.ready().catch(() => undefined);
      await expired;
      expect(calls).to.equal(2, 'the first request and one retry');
      // A first visit with no member: nothing has ended, the member is asked to sign in.
      await waitUntil(() =>
        shadowText(session).includes('Please sign in to see your questions to a doctor.'),
      );
      expect(shadowText(session)).not.to.contain('Your session has ended');
      expect(session.shadowRoot!.querySelector('[part=retry-button]')!.textContent!.trim()).to.equal(
        'Sign in',
      );
    });
  });

  it('keeps the partner’s content when it cannot start, and each element says what went wrong', async () => {
    let offline = true;
    const backend = createDemoBackend();
    await backend.ready;
    const signIn = backend.signInAs('alex');
    const session = await fixture<ConsultSession>(html`
      <consult-session
        .fetch=${backend.fetch}
        .tokenProvider=${() => (offline ? Promise.reject(new Error('offline')) : signIn())}
      >
        <h2>Your doctor questions</h2>
        <case-history></case-history>
      </consult-session>
    `);
    const history = session.querySelector<CaseHistory>('case-history')!;
    await waitUntil(() => session.manager.status === 'error', 'the session cannot start');
    await waitUntil(() => shadowText(history).includes('Try again'), 'the element offers to try again');
    expect(session.querySelector('h2')!.assignedSlot, 'the partner’s heading stays').to.exist;
    expect(session.shadowRoot!.querySelector('[part=notice]'), 'no notice over everything').to.equal(null);
    await expect(session).to.be.accessible();
    // Back online, trying again in the element signs in and shows the member's consultations.
    offline = false;
    const retry = [...history.shadowRoot!.querySelectorAll('button')].find((b) =>
      b.textContent!.includes('Try again'),
    )!;
    retry.click();
    await waitUntil(() => session.manager.status === 'ready', 'signed in on the second try');
    await waitUntil(() => history.shadowRoot!.querySelectorAll('[part~=item]').length > 0, 'the list shows');
  });

  it('tries sign-in again while the proxy is busy or restarting, honouring Retry-After', async () => {
    const backend = createDemoBackend();
    await backend.ready;
    const answers: (number | 'down')[] = ['down', 503, 429];
    const seen: string[] = [];
    const flaky: typeof fetch = async (input, init) => {
      if (String(input).endsWith('/session')) {
        const next = answers.shift();
        seen.push(String(next ?? 'ok'));
        if (next === 'down') throw new TypeError('Failed to fetch');
        if (next !== undefined)
          return new Response(JSON.stringify({ code: 'busy', title: 'Busy', status: next }), {
            status: next,
            headers: { 'content-type': 'application/problem+json', 'retry-after': '0' },
          });
      }
      return backend.fetch(input, init);
    };
    const session = new SessionManager({
      endpoint: backend.endpoint,
      fetch: flaky,
      signInBody: { demoUser: 'alex' },
    });
    const user = await session.ready();
    expect(user.id).to.equal('usr_demo_alex');
    expect(seen).to.deep.equal(['down', '503', '429', 'ok']);
    expect(session.status).to.equal('ready');
  });

  it('gives up on sign-in after a few tries while the proxy says it is too busy, and says so', async () => {
    let calls = 0;
    const busy: typeof fetch = async () => {
      calls++;
      return new Response('{}', { status: 429, headers: { 'retry-after': '0' } });
    };
    const session = new SessionManager({ endpoint: '/consult', fetch: busy });
    const error = await session.ready().catch((e: unknown) => e);
    expect((error as { status?: number }).status).to.equal(429);
    expect(calls).to.equal(4, 'the first try and three more');
    expect(session.status).to.equal('error');
  });

  it('waits out a service that is down at sign-in: one notice, no element failing, and in by itself when it is back', async () => {
    const backend = createDemoBackend();
    await backend.ready;
    let down = true;
    let tries = 0;
    const outage: typeof fetch = async (input, init) => {
      if (down && String(input).endsWith('/session')) {
        tries++;
        const problem = { title: 'Service unavailable', status: 502, code: 'upstream_unavailable' };
        return new Response(JSON.stringify(problem), {
          status: 502,
          headers: { 'content-type': 'application/problem+json', 'retry-after': '0' },
        });
      }
      return backend.fetch(input, init);
    };
    const errors: string[] = [];
    const consoleError = console.error;
    console.error = (...args: unknown[]) => errors.push(args.join(' '));
    try {
      const session = await fixture<ConsultSession>(html`
        <consult-session .fetch=${outage} .signInBody=${{ demoUser: 'alex' }}>
          <case-history></case-history>
        </consult-session>
      `);
      const history = session.querySelector<CaseHistory>('case-history')!;
      let triesWhenTold = 0;
      session.manager.state.addEventListener('change', () => {
        if (session.manager.state.connection === 'reconnecting' && !triesWhenTold) triesWhenTold = tries;
      });
      const notice = () => session.shadowRoot!.querySelector('[part=connection]');
      await waitUntil(notice, 'the session says it is reconnecting', { timeout: 5000 });
      expect(notice()!.textContent).to.contain('Reconnecting');
      expect(triesWhenTold).to.equal(2, 'told at the second failed try, not after all of them');
      await waitUntil(() => errors.some((e) => e.includes('could not reach the consultation service')));
      expect(session.manager.status).to.equal('signing-in');
      expect(shadowText(history)).not.to.contain('Try again');
      await expect(session).to.be.accessible();
      // Still down a while: still one notice, nothing in the element.
      window.dispatchEvent(new Event('online'));
      await waitUntil(() => tries >= 5, 'it keeps trying, sooner when the browser is back online');
      expect(shadowText(history)).not.to.contain('Try again');
      down = false;
      window.dispatchEvent(new Event('online'));
      // At once, not after the backoff: the browser said it is online (test/node/sign-in-outage.test.ts).
      await waitUntil(() => session.manager.status === 'ready', 'signed in once the service answers', {
        timeout: 5000,
      });
      await waitUntil(() => !notice(), 'the notice goes by itself');
      await waitUntil(
        () => history.shadowRoot!.querySelectorAll('[part~=item]').length > 0,
        'the list shows',
      );
      expect(errors.filter((e) => e.includes('CONSULT_UPSTREAM_URL'))).to.have.length(1, 'said once');
    } finally {
      console.error = consoleError;
    }
  });

  it("leaves the partner's own content in the page's direction for an Arabic member", async () => {
    const { session } = await inSession<HTMLElement>(html`<p id="partner">Portal text</p>`, {
      member: 'noor',
    });
    expect(getComputedStyle(session.querySelector('#partner')!).direction).to.equal('ltr');
  });

  it('shows its notice in every language, Arabic right to left', async () => {
    for (const lang of LANGUAGES) {
      const session = await fixture<ConsultSession>(
        html`<consult-session
          lang=${lang}
          .tokenProvider=${async () => {
            throw Object.assign(new Error('no'), { status: 401 });
          }}
        ></consult-session>`,
      );
      session.signOut();
      await session.updateComplete;
      const notice = session.shadowRoot!.querySelector('[part=notice]')!;
      expect(notice.getAttribute('dir')).to.equal(lang === 'ar' ? 'rtl' : 'ltr');
      expect(shadowText(session).length).to.be.greaterThan(10);
    }
  });
});

describe('<consult-session> when the member changes or signs out', () => {
  it("never uses the previous member's token after a switch", async () => {
    const backend = createDemoBackend();
    await backend.ready;
    const session = new SessionManager({
      endpoint: backend.endpoint,
      fetch: backend.fetch,
      signIn: backend.signInAs('alex'),
    });
    const alex = await session.ready();
    expect((await session.client.getConsultation('cns_demo_alex_rash')).userId).to.equal(alex.id);

    session.configure({ signIn: backend.signInAs('sam') });
    const read = await session.client.getConsultation('cns_demo_alex_rash').catch((e: unknown) => e);
    expect((read as { status?: number }).status).to.equal(404, "Sam cannot read Alex's consultation");
    const write = await session.client
      .addConsultationFollowUp('cns_demo_alex_rash', { question: 'Written by Sam?' })
      .catch((e: unknown) => e);
    expect((write as { status?: number }).status).to.equal(404);
    const rash = backend.sandbox.state.consultations.get('cns_demo_alex_rash')!;
    expect(rash.questions).to.have.length(2, "nothing was added to Alex's consultation");
  });

  it('makes no call and no new sign-in after signing out', async () => {
    const backend = createDemoBackend();
    await backend.ready;
    let signIns = 0;
    const signIn = backend.signInAs('alex');
    const session = new SessionManager({
      endpoint: backend.endpoint,
      fetch: backend.fetch,
      signIn: () => {
        signIns++;
        return signIn();
      },
    });
    const alex = await session.ready();
    await session.client.getCaseHistory(alex.id);
    const callsBefore = backend.sandbox.requests.length;
    session.signOut();
    const after = await session.client.getCaseHistory(alex.id).catch((e: unknown) => e);
    expect((after as { status?: number }).status).to.equal(401);
    expect(signIns).to.equal(1, 'no silent sign-in after signing out');
    expect(backend.sandbox.requests.length).to.equal(callsBefore, 'nothing reached the service');
  });

  it('ends the session at the proxy on sign-out, so the old token is refused even if it was copied', async () => {
    const backend = createDemoBackend();
    await backend.ready;
    const deletes: string[] = [];
    let copied = '';
    const watching: typeof fetch = (input, init) => {
      if (init?.method === 'DELETE') deletes.push(String(input));
      // What a script on the page could have copied: the token the last call sent.
      else copied = new Headers(init?.headers).get('authorization') ?? copied;
      return backend.fetch(input, init);
    };
    const session = new SessionManager({
      endpoint: backend.endpoint,
      fetch: watching,
      signIn: backend.signInAs('alex'),
    });
    const alex = await session.ready();
    await session.client.getCaseHistory(alex.id);
    expect(copied).to.match(/^Bearer /);
    session.signOut();
    await waitUntil(() => deletes.length === 1, 'the proxy is told');
    expect(deletes[0]).to.match(/\/session$/);
    const reuse = await backend.fetch(`${backend.endpoint}/user/${alex.id}/case-history`, {
      headers: { authorization: copied },
    });
    expect(reuse.status).to.equal(401);
  });

  it('ends the session when a freshly issued token is refused too, after two sign-ins and no loop', async () => {
    const backend = createDemoBackend();
    await backend.ready;
    let signIns = 0;
    const signIn = backend.signInAs('alex');
    const session = await fixture<ConsultSession>(
      html`<consult-session
        .fetch=${backend.fetch}
        .tokenProvider=${async () => {
          signIns++;
          // Tokens the proxy will not accept, as after a secret rotation the portal did not follow.
          return { ...(await signIn()), token: `forged.${signIns}.token` };
        }}
        ><p>x</p></consult-session
      >`,
    );
    const user = await session.manager.ready();
    const expired = oneEvent(session, 'session-expired');
    const error = await session.manager.client.getCaseHistory(user.id).catch((e: unknown) => e);
    expect((error as { status?: number }).status).to.equal(401);
    expect((await expired).detail.reason).to.equal('refused');
    expect(signIns).to.equal(2, 'the first sign-in and one answer to the refusal');
    await session.updateComplete;
    expect(shadowText(session)).to.contain('sign in again');
  });

  it('moves focus to its notice when the session ends under the member', async () => {
    const { session } = await inSession<HTMLElement>(html`<button id="inside">Ask</button>`);
    session.querySelector<HTMLButtonElement>('#inside')!.focus();
    session.signOut();
    await session.updateComplete;
    await waitUntil(
      () => session.shadowRoot!.activeElement?.getAttribute('part') === 'notice',
      'focus on the notice',
    );
  });

  it("clears another member's drafts left in the tab when a member signs in", async () => {
    sessionStorage.setItem(
      'consult-elements:draft:usr_someone_else:consult-form',
      '{"questions":["private"]}',
    );
    sessionStorage.setItem('unrelated-key', 'kept');
    const { session } = await inSession<HTMLElement>(html`<p>x</p>`, { member: 'alex' });
    expect(session.manager.user?.uniqueId).to.equal('alex');
    expect(sessionStorage.getItem('consult-elements:draft:usr_someone_else:consult-form')).to.equal(null);
    expect(sessionStorage.getItem('unrelated-key')).to.equal('kept');
    sessionStorage.removeItem('unrelated-key');
  });
});

describe('<consult-session> at the endpoint the partner chose', () => {
  /** The demo back end at `/api/consult` (on any origin), and every URL the elements asked for. */
  async function recordingBackend() {
    const backend = createDemoBackend({ basePath: '/api/consult' });
    await backend.ready;
    const urls: string[] = [];
    const fetch: typeof window.fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input), location.href).href;
      urls.push(url);
      return backend.fetch(url, init);
    };
    return { urls, fetch };
  }

  /** Types a question in the form, sends it and waits for it in the list. */
  async function askFromTheForm(session: ConsultSession): Promise<void> {
    const form = session.querySelector<ConsultForm>('consult-form')!;
    const history = session.querySelector<CaseHistory>('case-history')!;
    await waitUntil(
      () =>
        form.shadowRoot!.querySelector('[part~=submit-button]')?.getAttribute('aria-disabled') === 'false',
      'the form can send',
      { timeout: 5000 },
    );
    form.shadowRoot!.querySelector('textarea')!.focus();
    await sendKeys({ type: 'A rash on my arm since Monday.' });
    form.shadowRoot!.querySelector<HTMLButtonElement>('[part~=submit-button]')!.click();
    // It opens in the list, in its thread.
    await waitUntil(
      () => {
        const thread = history.shadowRoot!.querySelector('consult-thread');
        return thread !== null && shadowText(thread).includes('A rash on my arm');
      },
      'the question opens in the list',
      { timeout: 5000 },
    );
  }

  for (const [name, endpoint] of [
    ['an absolute path', '/api/consult'],
    ['a relative path', 'api/consult'],
    ['another origin', 'https://proxy.partner.example/api/consult'],
  ] as const) {
    it(`sends every call of every element to ${name} set as an attribute`, async () => {
      const { urls, fetch } = await recordingBackend();
      const session = await fixture<ConsultSession>(html`
        <consult-session endpoint=${endpoint} .fetch=${fetch} .signInBody=${{ demoUser: 'alex' }}>
          <consult-form></consult-form>
          <case-history></case-history>
        </consult-session>
      `);
      await askFromTheForm(session);
      const base = new URL(endpoint, location.href).href;
      expect(urls.filter((url) => !url.startsWith(`${base}/`))).to.deep.equal([], 'nothing elsewhere');
      for (const path of ['/session', '/consultation', '/user/usr_demo_alex/case-history'])
        expect(urls, path).to.include(`${base}${path}`);
    });
  }

  it('moves every call to the endpoint set as a property after start', async () => {
    const { urls, fetch } = await recordingBackend();
    const session = await fixture<ConsultSession>(html`
      <consult-session endpoint="/nowhere" .fetch=${fetch} .signInBody=${{ demoUser: 'alex' }}>
        <consult-form></consult-form>
        <case-history></case-history>
      </consult-session>
    `);
    await waitUntil(() => urls.some((url) => url.includes('/nowhere/')), 'it tried the first endpoint');
    const afterChange = urls.length;
    session.endpoint = '/api/consult';
    await waitUntil(() => session.manager.status === 'ready', 'signed in at the new endpoint', {
      timeout: 5000,
    });
    await askFromTheForm(session);
    const later = urls.slice(afterChange);
    const base = `${location.origin}/api/consult`;
    for (const path of ['/session', '/consultation', '/user/usr_demo_alex/case-history'])
      expect(later, path).to.include(`${base}${path}`);
    expect(later.filter((url) => !url.startsWith(`${base}/`))).to.deep.equal([]);
  });
});
