import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { ConsultSession } from '../../src/elements/consult-session/consult-session.js';
import { LANGUAGES } from '../../src/elements/shared/localize.js';
import { createDemoBackend } from '../../src/sandbox/demo-backend.js';
import { inSession, shadowText } from './support/backend.js';

ConsultSession.define('consult-session');

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
      expect(shadowText(session)).to.contain('sign in again');
      expect(session.shadowRoot!.querySelector('[part=retry-button]')).to.exist;
      await expect(session).to.be.accessible();
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
      await waitUntil(() => shadowText(session).includes('sign in again'));
    });
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
