import { expect } from '@open-wc/testing';
import { createSandbox, DEMO_USER_IDS } from '../../src/sandbox/index.js';

// The sandbox's core is a plain fetch handler with no Node imports: Storybook and the element
// tests run it inside the page. This proves it does.
describe('the sandbox in a browser', () => {
  const sandbox = createSandbox({ professionals: { mode: 'manual' } });
  after(() => sandbox.close());

  async function token(): Promise<string> {
    const response = await sandbox.fetch('/partner/authorization/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: 'sandbox-api-key' }),
    });
    expect(response.status).to.equal(200);
    return ((await response.json()) as { accessToken: string }).accessToken;
  }

  it('issues a token and serves the demo member', async () => {
    const response = await sandbox.fetch(`/user/${DEMO_USER_IDS.alex}`, {
      headers: { authorization: `Bearer ${await token()}` },
    });
    expect(response.status).to.equal(200);
    const user = (await response.json()) as { uniqueId: string; language: string };
    expect(user.uniqueId).to.equal('alex');
  });

  it('takes a consultation through claim and answer, with a signed-off professional', async () => {
    const auth = { authorization: `Bearer ${await token()}`, 'content-type': 'application/json' };
    const created = await sandbox.fetch('/consultation', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ userId: DEMO_USER_IDS.alex, questions: ['I have an itchy rash on my arm.'] }),
    });
    expect(created.status).to.equal(201);
    const { consultationId } = (await created.json()) as { consultationId: string };

    await sandbox.fetch(`/_sandbox/consultations/${consultationId}/claim`, { method: 'POST' });
    await sandbox.fetch(`/_sandbox/consultations/${consultationId}/answer`, { method: 'POST' });

    const read = await sandbox.fetch(`/consultation/${consultationId}`, { headers: auth });
    const consultation = (await read.json()) as {
      status: string;
      questions: { answer?: string; professional?: { name: string } }[];
    };
    expect(consultation.status).to.equal('resolved');
    expect(consultation.questions[0]!.answer).to.contain('**');
    expect(consultation.questions[0]!.professional!.name).to.match(/^Dr\. /);
  });

  it('answers a bad request with a problem naming the field', async () => {
    const response = await sandbox.fetch('/consultation', {
      method: 'POST',
      headers: { authorization: `Bearer ${await token()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ userId: DEMO_USER_IDS.alex, questions: ['   '] }),
    });
    expect(response.status).to.equal(400);
    expect(response.headers.get('content-type')).to.equal('application/problem+json');
    const problem = (await response.json()) as { errors: { field: string }[] };
    expect(problem.errors.map((e) => e.field)).to.deep.equal(['questions.0']);
  });
});
