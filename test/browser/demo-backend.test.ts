import { expect } from '@open-wc/testing';
import { ConsultClient } from '../../src/client/index.js';
import { createDemoBackend } from '../../src/sandbox/demo-backend.js';
import type { ConsultationView } from '../../src/client/browser-types.js';
import { SessionManager } from '../../src/session/session.js';

// The proxy over the sandbox, in the page: what Storybook and the element tests run against.
describe('the demo backend in a page', () => {
  const backend = createDemoBackend();
  after(() => backend.close());

  it('signs a demo member in through the proxy and reads only their records', async () => {
    const grant = await backend.signInAs('alex')();
    expect(grant.user.uniqueId).to.equal('alex');
    const client = new ConsultClient({
      baseUrl: backend.endpoint,
      fetch: backend.fetch,
      tokenProvider: async () => ({ token: grant.token, expiresAt: grant.expiresAt }),
    });
    const history = await client.getCaseHistory(grant.user.id);
    expect(history.length).to.be.greaterThan(0);
    const other = await client.getCaseHistory('usr_demo_noor').catch((e: unknown) => e);
    expect((other as { status: number }).status).to.equal(404);
  });

  it('pushes an answer to the member through the live stream', async () => {
    await backend.ready;
    const session = new SessionManager({
      endpoint: backend.endpoint,
      fetch: backend.fetch,
      signIn: backend.signInAs('alex'),
    });
    const user = await session.ready();
    const stop = session.watch();
    // Pushed, not polled: the answer must arrive through the stream the demo's webhook feeds.
    const received = new Promise<ConsultationView>((resolve) => {
      session.state.addEventListener('answer', (event) => {
        const { consultationId } = (event as CustomEvent<{ consultationId: string }>).detail;
        resolve(session.state.consultation(consultationId)!);
      });
    });
    await new Promise<void>((resolve) => {
      const onLive = () => {
        if (session.live) {
          session.removeEventListener('live', onLive);
          resolve();
        }
      };
      session.addEventListener('live', onLive);
    });
    const created = await session.state.createConsultation(['Is it safe to run with a cold?'], 'key-run-1');
    expect(created.userId).to.equal(user.id);
    await backend.sandbox.fetch(`/_sandbox/consultations/${created.consultationId}/answer`, {
      method: 'POST',
    });
    const update = await received;
    stop();
    expect(session.state.link.delivery).to.equal('push');
    expect(update.consultationId).to.equal(created.consultationId);
    expect(update.status).to.equal('resolved');
  });
});
