import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { MAX_QUESTION_LENGTH } from '../../src/client/types.js';
import { CaseHistory } from '../../src/elements/case-history/case-history.js';
import { ConsultForm } from '../../src/elements/consult-form/consult-form.js';
import type { ConsultThread } from '../../src/elements/consult-thread/consult-thread.js';
import { loadDraft } from '../../src/session/drafts.js';
import { LANGUAGES } from '../../src/elements/shared/localize.js';
import { SessionManager } from '../../src/session/session.js';
import { createDemoBackend, type DemoBackend } from '../../src/sandbox/demo-backend.js';
import { DEMO_USER_IDS } from '../../src/sandbox/seed.js';
import { announced, inSession, shadowText, upstreamCalls, withFailures } from './support/backend.js';
import { $, waitUntil } from './support/elements.js';

ConsultForm.define('consult-form');
CaseHistory.define('case-history');

const ALEX = DEMO_USER_IDS.alex;

// --- What a member sees and does -----------------------------------------------------------

const textareas = (form: ConsultForm) => [...form.shadowRoot!.querySelectorAll('textarea')];
const textarea = (form: ConsultForm, index = 0) => textareas(form)[index]!;
const part = (form: ConsultForm, name: string) =>
  form.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const button = (form: ConsultForm, text: string) =>
  [...form.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent?.trim() === text);
const labelOf = (form: ConsultForm, field: HTMLTextAreaElement) =>
  form.shadowRoot!.querySelector(`label[for="${field.id}"]`)?.textContent?.trim();
const describedBy = (form: ConsultForm, field: HTMLTextAreaElement) =>
  (field.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => form.shadowRoot!.getElementById(id)?.textContent?.replace(/\s+/g, ' ').trim())
    .join(' | ');
const focused = (form: ConsultForm) => form.shadowRoot!.activeElement;

/** The form is there and can be sent: the member's plan is known and their draft is back. */
async function formShown(form: ConsultForm): Promise<void> {
  await waitUntil(
    () =>
      textareas(form).length > 0 && part(form, 'submit-button')?.getAttribute('aria-disabled') === 'false',
    'the form is shown, ready to send',
    { timeout: 5000 },
  );
}

/** The member's stored draft of the form (sessionStorage, in the drafts' one format). */
const storedDraft = <T = { questions: string[]; idempotencyKey?: string }>() =>
  loadDraft<{ v: 1; value: T }>(ALEX, 'consult-form')?.value;

async function typeInto(form: ConsultForm, index: number, text: string): Promise<void> {
  textarea(form, index).focus();
  await sendKeys({ type: text });
  await form.updateComplete;
}

/** What a paste does: the whole text at once, then an input event. */
async function paste(form: ConsultForm, index: number, text: string): Promise<void> {
  const field = textarea(form, index);
  field.focus();
  field.value = text;
  field.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  await form.updateComplete;
}

async function threadShown(form: ConsultForm): Promise<Element> {
  await waitUntil(() => form.shadowRoot!.querySelector('consult-thread'), 'the thread is shown', {
    timeout: 5000,
  });
  return form.shadowRoot!.querySelector('consult-thread')!;
}

// --- What crossed the wire -----------------------------------------------------------------

const upstreamCreates = (backend: DemoBackend) =>
  backend.sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/consultation');

const consultationsOf = (backend: DemoBackend, userId: string) =>
  [...backend.sandbox.state.consultations.values()].filter((c) => c.userId === userId);

async function setFaults(
  backend: DemoBackend,
  faults: { errorRate?: number; latencyMs?: number },
): Promise<void> {
  await backend.sandbox.fetch('/_sandbox/faults', { method: 'POST', body: JSON.stringify(faults) });
}

describe('<consult-form>', () => {
  // Drafts live in this page's sessionStorage and demo member ids are fixed: start each test clean.
  beforeEach(() => sessionStorage.clear());
  afterEach(() => sessionStorage.clear());

  it('can be typed in at once, while the plan is checked, and says why sending waits', async () => {
    const never = new SessionManager({ endpoint: '/consult', signIn: () => new Promise(() => {}) });
    const form = await fixture<ConsultForm>(html`<consult-form .session=${never}></consult-form>`);
    await typeInto(form, 0, 'Typed before sign-in finished');
    expect(textarea(form).value).to.equal('Typed before sign-in finished');
    const submit = part(form, 'submit-button')!;
    expect(submit.getAttribute('aria-disabled')).to.equal('true');
    expect(describedBy(form, submit as unknown as HTMLTextAreaElement)).to.contain('Checking your plan');
    submit.click();
    await form.updateComplete;
    expect(announced(form)).to.contain('Checking your plan');
    await expect(form).to.be.accessible();
  });

  it('keeps what the member typed before sign-in finished, over an older draft', async () => {
    const backend = createDemoBackend();
    await backend.ready;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const signIn = backend.signInAs('alex');
    const session = new SessionManager({
      endpoint: backend.endpoint,
      fetch: backend.fetch,
      signIn: async () => {
        await held;
        return signIn();
      },
    });
    const form = await fixture<ConsultForm>(html`<consult-form .session=${session}></consult-form>`);
    await typeInto(form, 0, 'My newest words');
    release();
    await formShown(form);
    expect(textarea(form).value).to.equal('My newest words');
    expect(storedDraft()?.questions).to.deep.equal(['My newest words']);
  });

  it('is accessible with the form shown', async () => {
    const { element: form } = await inSession<ConsultForm>(html`<consult-form></consult-form>`);
    await formShown(form);
    expect(part(form, 'submit-button')!.getAttribute('aria-disabled')).to.equal('false');
    await expect(form).to.be.accessible();
  });

  it('has sensible defaults', () => {
    const form = document.createElement('consult-form') as ConsultForm;
    expect(form.busy).to.equal(false);
    expect(form.endpoint).to.equal(undefined);
    expect(form.session).to.equal(undefined);
    expect(form.theme).to.equal(undefined);
  });

  it('reflects its attributes and properties', async () => {
    const never = new SessionManager({ endpoint: '/consult', signIn: () => new Promise(() => {}) });
    const form = await fixture<ConsultForm>(
      html`<consult-form endpoint="/elsewhere" theme="dark" .session=${never}></consult-form>`,
    );
    expect(form.endpoint).to.equal('/elsewhere');
    expect(form.theme).to.equal('dark');
    expect(form.activeSession).to.equal(never, 'a session set from JavaScript wins');
    form.busy = true;
    await form.updateComplete;
    expect(form.hasAttribute('busy')).to.equal(true);
    form.busy = false;
    await form.updateComplete;
    expect(form.hasAttribute('busy')).to.equal(false);
  });

  it('shows one question, the emergency notice above it and the counter', async () => {
    const { element: form } = await inSession<ConsultForm>(html`<consult-form></consult-form>`);
    await formShown(form);
    expect(textareas(form)).to.have.length(1);
    expect(labelOf(form, textarea(form))).to.equal('Your question');
    const emergency = part(form, 'emergency')!;
    expect(emergency.textContent).to.contain('If this is an emergency, call your local emergency number now');
    expect(emergency.compareDocumentPosition(textarea(form)) & Node.DOCUMENT_POSITION_FOLLOWING).to.not.equal(
      0,
    );
    expect(part(form, 'counter')!.textContent).to.contain('1 of 3 questions');
    expect(part(form, 'counter')!.textContent).to.contain('2 more possible');
    // Errors come after interaction, not on first paint.
    expect(textarea(form).getAttribute('aria-invalid')).to.equal('false');
    expect(form.shadowRoot!.querySelector('.error')).to.equal(null);
    expect(part(form, 'character-count')).to.equal(null, 'no counter far from the limit');
  });

  it('lets a partner replace the emergency notice', async () => {
    const { element: form } = await inSession<ConsultForm>(
      html`<consult-form><p slot="emergency">Call 112 or our nurse line.</p></consult-form>`,
    );
    await formShown(form);
    const slot = part(form, 'emergency')!.querySelector('slot')!;
    expect(slot.assignedElements()[0]!.textContent).to.equal('Call 112 or our nurse line.');
  });

  describe('when the member asks three questions', () => {
    it('sends them as one consultation, shows its thread and announces it', async () => {
      const { element: form, backend } = await inSession<ConsultForm>(html`<consult-form></consult-form>`);
      await formShown(form);
      await typeInto(form, 0, 'I have had a dry cough for two weeks.');
      part(form, 'add-button')!.click();
      await form.updateComplete;
      expect(focused(form)).to.equal(textarea(form, 1), 'focus moves to the new question');
      expect(labelOf(form, textarea(form, 1))).to.equal('Question 2');
      await sendKeys({ type: 'Should I stop running?' });
      part(form, 'add-button')!.click();
      await form.updateComplete;
      expect(focused(form)).to.equal(textarea(form, 2));
      await sendKeys({ type: 'Could it be my inhaler?' });
      expect(part(form, 'counter')!.textContent).to.contain('3 of 3 questions');

      const submitted = oneEvent(form, 'consult-submitted');
      part(form, 'submit-button')!.click();
      const event = await submitted;
      expect(event.detail.questions).to.equal(3);
      expect(Object.keys(event.detail).sort()).to.deep.equal(
        ['consultationId', 'questions'],
        'ids only, no text',
      );

      const thread = await threadShown(form);
      expect(thread.getAttribute('consultation-id')).to.equal(event.detail.consultationId);
      await form.updateComplete;
      expect(focused(form)?.textContent).to.contain('Your question was sent');

      const created = backend.sandbox.state.consultations.get(event.detail.consultationId)!;
      expect(created.userId).to.equal(ALEX);
      expect(created.questions.map((q) => q.question)).to.deep.equal([
        'I have had a dry cough for two weeks.',
        'Should I stop running?',
        'Could it be my inhaler?',
      ]);
      await expect(form).to.be.accessible();

      // Once the answers are there, "sent" has done its work and goes away.
      const answered = oneEvent(form, 'consult-answered');
      const reply = await backend.sandbox.fetch(
        `/_sandbox/consultations/${event.detail.consultationId}/answer`,
        { method: 'POST', body: JSON.stringify({ answer: 'Keep running, **gently**.' }) },
      );
      expect(reply.status).to.equal(200);
      await answered;
      await form.updateComplete;
      expect(form.shadowRoot!.querySelector('#sent')).to.equal(null);
      await expect(form).to.be.accessible();
    });

    it('sends from the keyboard and starts a new, empty form with "Ask another question"', async () => {
      const { element: form, backend } = await inSession<ConsultForm>(html`<consult-form></consult-form>`);
      await formShown(form);
      await typeInto(form, 0, 'Is a rash after sun normal?');
      await sendKeys({ press: 'Shift+Enter' });
      await sendKeys({ type: 'It itches.' });
      await sendKeys({ press: 'Control+Enter' }); // sends from the keyboard; Enter alone is a new line
      const thread = await threadShown(form);
      const created = backend.sandbox.state.consultations.get(thread.getAttribute('consultation-id')!)!;
      expect(created.questions.map((q) => q.question)).to.deep.equal([
        'Is a rash after sun normal?\nIt itches.',
      ]);
      button(form, 'Ask another question')!.click();
      await form.updateComplete;
      expect(form.shadowRoot!.querySelector('consult-thread')).to.equal(null);
      expect(textareas(form)).to.have.length(1);
      expect(textarea(form).value).to.equal('');
      expect(focused(form)).to.equal(textarea(form));
    });
  });

  describe('when the page reloads', () => {
    it('restores the draft for the same member, and another member sees an empty form', async () => {
      const {
        element: form,
        session,
        backend,
      } = await inSession<ConsultForm>(html`<consult-form></consult-form>`);
      await formShown(form);
      await typeInto(form, 0, 'Draft about my knee');
      part(form, 'add-button')!.click();
      await form.updateComplete;
      await sendKeys({ type: 'And my ankle' });
      form.remove();

      const again = document.createElement('consult-form') as ConsultForm;
      session.append(again);
      await formShown(again);
      expect(textareas(again).map((t) => t.value)).to.deep.equal(['Draft about my knee', 'And my ankle']);
      expect(announced(again)).to.contain('Your unsent draft was restored.');

      const { element: noorForm } = await inSession<ConsultForm>(
        html`<consult-form lang="en"></consult-form>`,
        {
          member: 'noor',
          backend,
        },
      );
      await formShown(noorForm);
      expect(textareas(noorForm).map((t) => t.value)).to.deep.equal(['']);
    });

    it('clears the draft once the question is sent', async () => {
      const { element: form, session } = await inSession<ConsultForm>(html`<consult-form></consult-form>`);
      await formShown(form);
      await typeInto(form, 0, 'Sent question');
      await waitUntil(() => storedDraft(), 'the draft is saved as the member types');
      part(form, 'submit-button')!.click();
      await threadShown(form);
      expect(storedDraft()).to.equal(undefined);
      form.remove();
      const again = document.createElement('consult-form') as ConsultForm;
      session.append(again);
      await formShown(again);
      expect(textarea(again).value).to.equal('');
    });

    it('forgets the draft when the member signs out', async () => {
      const { element: form, session } = await inSession<ConsultForm>(html`<consult-form></consult-form>`);
      await formShown(form);
      await typeInto(form, 0, 'Private words');
      form.remove(); // saves the draft at once
      expect(storedDraft()).to.deep.equal({ questions: ['Private words'] });
      session.append(form);
      await formShown(form);
      session.signOut();
      await form.updateComplete;
      expect(storedDraft()).to.equal(undefined);
      expect(textareas(form).map((t) => t.value)).to.not.include('Private words');
    });
  });

  describe('when the member clicks send twice', () => {
    it('creates one consultation', async () => {
      const { element: form, backend } = await inSession<ConsultForm>(html`<consult-form></consult-form>`);
      await formShown(form);
      const before = consultationsOf(backend, ALEX).length;
      await typeInto(form, 0, 'Only once, please');
      const submit = part(form, 'submit-button')!;
      submit.click();
      submit.click();
      await threadShown(form);
      expect(upstreamCreates(backend)).to.have.length(1);
      expect(upstreamCalls(backend, 'POST', /^\/consultation$/)).to.equal(1);
      expect(consultationsOf(backend, ALEX)).to.have.length(before + 1);
    });

    it('is busy and accessible while sending', async () => {
      const backend = createDemoBackend();
      await backend.ready;
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      let sent = 0;
      const heldFetch: typeof fetch = async (input, init) => {
        if (init?.method === 'POST' && String(input).endsWith('/consultation')) {
          sent++;
          await held;
        }
        return backend.fetch(input, init);
      };
      // On its own, with a session from JavaScript.
      const session = new SessionManager({
        endpoint: backend.endpoint,
        fetch: heldFetch,
        signIn: backend.signInAs('alex'),
      });
      const form = await fixture<ConsultForm>(html`<consult-form .session=${session}></consult-form>`);
      await formShown(form);
      await typeInto(form, 0, 'Held question');
      const submit = part(form, 'submit-button')!;
      submit.focus();
      await sendKeys({ press: 'Enter' });
      await form.updateComplete;
      expect(form.busy).to.equal(true);
      expect(form.hasAttribute('busy')).to.equal(true);
      expect(submit.getAttribute('aria-disabled')).to.equal('true');
      expect(submit.textContent?.trim()).to.equal('Sending…');
      expect(focused(form)).to.equal(submit, 'focus stays on the button');
      expect(textarea(form).readOnly).to.equal(true);
      expect(announced(form)).to.contain('Sending your question');
      await expect(form).to.be.accessible();
      submit.click();
      textarea(form).focus();
      await sendKeys({ press: 'Control+Enter' });
      form.startWith('Handed over while sending'); // waits for the new form instead of being lost
      release();
      await threadShown(form);
      button(form, 'Ask another question')!.click();
      await form.updateComplete;
      expect(textarea(form).value).to.equal('Handed over while sending');
      expect(form.busy).to.equal(false);
      expect(sent).to.equal(1, 'one request left the page');
      expect(upstreamCreates(backend)).to.have.length(1);
      backend.close();
    });
  });

  describe('when sending fails', () => {
    it('waits to send while the service cannot be reached, then sends once with the same key', async () => {
      const {
        element: form,
        backend,
        session,
      } = await inSession<ConsultForm>(html`<consult-form></consult-form>`);
      await formShown(form);
      const before = consultationsOf(backend, ALEX).length;
      await typeInto(form, 0, 'Will this survive an outage?');

      await setFaults(backend, { errorRate: 1 });
      part(form, 'submit-button')!.click();
      await waitUntil(() => button(form, 'Cancel sending'), 'it waits to send', { timeout: 8000 });
      // One notice for the session, not an error in the form; the text stays, with its key.
      expect(part(form, 'submit-button')!.textContent!.trim()).to.equal('Waiting to send…');
      expect(form.shadowRoot!.querySelector('[role=alert]')).to.equal(null);
      const notice = session.shadowRoot!.querySelector('[part~=connection]')!;
      expect(notice.textContent).to.contain('Reconnecting');
      expect(announced(form)).to.contain('Reconnecting');
      expect(textarea(form).value).to.equal('Will this survive an outage?');
      expect(form.busy).to.equal(true);
      expect(storedDraft()?.idempotencyKey).to.be.a('string');
      await expect(form).to.be.accessible();

      // Back: it goes out by itself.
      await setFaults(backend, { errorRate: 0 });
      session.manager.state.link.reconnect();
      await threadShown(form);
      expect(session.shadowRoot!.querySelector('[part~=connection]')).to.equal(null);

      const creates = upstreamCreates(backend);
      expect(creates.length).to.be.greaterThan(1, 'the failed attempts reached the upstream too');
      expect(new Set(creates.map((r) => r.idempotencyKey)).size).to.equal(1, 'one key for every attempt');
      expect(creates.filter((r) => r.status === 201)).to.have.length(1);
      expect(consultationsOf(backend, ALEX)).to.have.length(before + 1);
    });

    it('lets the member cancel a question waiting to be sent, keeping the text', async () => {
      // The tries the proxy is still working on: a try already on its way when the member cancels
      // is the proxy's to finish (with its own one retry upstream), as a real server would.
      const service = createDemoBackend();
      let creating = 0;
      let tries = 0;
      const counting: typeof fetch = async (input, init) => {
        const create = init?.method === 'POST' && /\/consultation$/.test(String(input));
        if (create) {
          creating++;
          tries++;
        }
        try {
          return await service.fetch(input, init);
        } finally {
          if (create) creating--;
        }
      };
      const {
        element: form,
        backend,
        session,
      } = await inSession<ConsultForm>(html`<consult-form></consult-form>`, {
        backend: { ...service, fetch: counting },
      });
      await formShown(form);
      const before = consultationsOf(backend, ALEX).length;
      await typeInto(form, 0, 'Never mind, I will call instead.');
      await setFaults(backend, { errorRate: 1 });
      part(form, 'submit-button')!.click();
      await waitUntil(() => button(form, 'Cancel sending'), 'it waits to send', { timeout: 8000 });
      button(form, 'Cancel sending')!.focus();
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => !form.busy, 'it stops waiting', { timeout: 5000 });
      await form.updateComplete;
      expect(textarea(form).value).to.equal('Never mind, I will call instead.');
      expect(focused(form)).to.equal(textarea(form));
      expect(button(form, 'Cancel sending')).to.equal(undefined);
      // No try made before the cancel is still on its way when the service comes back.
      expect(tries).to.be.greaterThan(0);
      await waitUntil(() => creating === 0, 'the proxy has answered every try', { timeout: 8000 });
      await setFaults(backend, { errorRate: 0 });
      session.manager.state.link.reconnect();
      await waitUntil(() => session.manager.state.connection === 'online', 'back online', { timeout: 8000 });
      // A send still waiting would have gone out as the connection came back, ahead of this read
      // through the same proxy: once the read is answered, it had its chance.
      await session.manager.client.getCaseHistory(ALEX);
      expect(consultationsOf(backend, ALEX)).to.have.length(before, 'nothing was sent');
    });

    it('after a reload, sending the restored draft uses the same key', async () => {
      const {
        element: form,
        session,
        backend,
      } = await inSession<ConsultForm>(html`<consult-form></consult-form>`);
      await formShown(form);
      await typeInto(form, 0, 'Sent before the reload');
      await setFaults(backend, { errorRate: 1 });
      part(form, 'submit-button')!.click();
      await waitUntil(() => button(form, 'Cancel sending'), 'it waits to send', { timeout: 8000 });
      await setFaults(backend, { errorRate: 0 });
      form.remove();

      const again = document.createElement('consult-form') as ConsultForm;
      session.append(again);
      await formShown(again);
      expect(textarea(again).value).to.equal('Sent before the reload');
      part(again, 'submit-button')!.click();
      await threadShown(again);
      const creates = upstreamCreates(backend);
      expect(new Set(creates.map((r) => r.idempotencyKey)).size).to.equal(1);
      expect(creates.filter((r) => r.status === 201)).to.have.length(1);
    });

    it('a changed question after a failure is a new request with a new key', async () => {
      const { element: form, backend } = await inSession<ConsultForm>(html`<consult-form></consult-form>`);
      await formShown(form);
      await typeInto(form, 0, 'First wording');
      await setFaults(backend, { errorRate: 1 });
      part(form, 'submit-button')!.click();
      await waitUntil(() => button(form, 'Cancel sending'), 'it waits to send', { timeout: 8000 });
      button(form, 'Cancel sending')!.click();
      await waitUntil(() => !form.busy, 'it stops waiting', { timeout: 5000 });
      await setFaults(backend, { errorRate: 0 });
      await typeInto(form, 0, ', better');
      part(form, 'submit-button')!.click();
      const thread = await threadShown(form);
      const created = backend.sandbox.state.consultations.get(thread.getAttribute('consultation-id')!)!;
      expect(created.questions.map((q) => q.question)).to.deep.equal(['First wording, better']);
      expect(new Set(upstreamCreates(backend).map((r) => r.idempotencyKey)).size).to.equal(2);
    });
  });

  describe('when a question is empty or too long', () => {
    it('flags an empty question on send, focuses it and sends nothing', async () => {
      const { element: form, backend } = await inSession<ConsultForm>(html`<consult-form></consult-form>`);
      await formShown(form);
      part(form, 'submit-button')!.click();
      await form.updateComplete;
      const field = textarea(form);
      expect(field.getAttribute('aria-invalid')).to.equal('true');
      expect(describedBy(form, field)).to.contain('Write your question before sending.');
      expect(focused(form)).to.equal(field);
      expect(announced(form)).to.contain('needs your attention');
      expect(upstreamCreates(backend)).to.have.length(0);
      await expect(form).to.be.accessible();

      await sendKeys({ type: 'Now it has words' });
      expect(field.getAttribute('aria-invalid')).to.equal('false');
      expect(form.shadowRoot!.querySelector('.error')).to.equal(null);
    });

    it('flags an empty extra question and focuses it', async () => {
      const { element: form } = await inSession<ConsultForm>(html`<consult-form></consult-form>`);
      await formShown(form);
      await typeInto(form, 0, 'The first one');
      part(form, 'add-button')!.click();
      await form.updateComplete;
      part(form, 'submit-button')!.click();
      await form.updateComplete;
      expect(textarea(form, 0).getAttribute('aria-invalid')).to.equal('false');
      expect(textarea(form, 1).getAttribute('aria-invalid')).to.equal('true');
      expect(describedBy(form, textarea(form, 1))).to.contain('Write this question, or remove it.');
      expect(focused(form)).to.equal(textarea(form, 1));
    });

    it('shows the characters left near the limit and flags text over it without losing any', async () => {
      const { element: form, backend } = await inSession<ConsultForm>(html`<consult-form></consult-form>`);
      await formShown(form);
      await paste(form, 0, 'a'.repeat(MAX_QUESTION_LENGTH * 0.8 - 2));
      expect(part(form, 'character-count')).to.equal(null);
      await sendKeys({ type: 'bb' });
      await form.updateComplete;
      expect(part(form, 'character-count')!.textContent).to.contain('400 characters left');
      expect(describedBy(form, textarea(form))).to.contain('400 characters left');
      expect(textarea(form).getAttribute('aria-invalid')).to.equal('false');

      await paste(form, 0, 'a'.repeat(MAX_QUESTION_LENGTH));
      await sendKeys({ type: 'xy' });
      await form.updateComplete;
      const field = textarea(form);
      expect(field.value).to.have.length(MAX_QUESTION_LENGTH + 2, 'nothing is cut off');
      expect(part(form, 'character-count')!.textContent).to.contain('2 characters too many');
      expect(field.getAttribute('aria-invalid')).to.equal('true');
      expect(describedBy(form, field)).to.contain('This question is too long');
      await expect(form).to.be.accessible();

      part(form, 'submit-button')!.click();
      await form.updateComplete;
      expect(focused(form)).to.equal(field);
      expect(upstreamCreates(backend)).to.have.length(0);
    });
  });

  describe('when three questions are there', () => {
    it('offers no fourth, and removing one offers it again', async () => {
      const { element: form } = await inSession<ConsultForm>(html`<consult-form></consult-form>`);
      await formShown(form);
      part(form, 'add-button')!.click();
      await form.updateComplete;
      part(form, 'add-button')!.click();
      await form.updateComplete;
      expect(textareas(form)).to.have.length(3);
      expect(part(form, 'add-button')).to.equal(null);
      expect(part(form, 'counter')!.textContent).to.contain('3 of 3 questions');
      expect(part(form, 'counter')!.textContent).to.contain('none left to add');

      const remove = form.shadowRoot!.querySelector<HTMLButtonElement>(
        'button[aria-label="Remove question 3"]',
      )!;
      remove.click();
      await form.updateComplete;
      expect(textareas(form)).to.have.length(2);
      expect(focused(form)).to.equal(textarea(form, 1), 'focus goes to the question before');
      expect(part(form, 'add-button')).to.exist;
      expect(part(form, 'counter')!.textContent).to.contain('2 of 3 questions');
    });

    it('keeps text handed over when all three are taken, without a fourth', async () => {
      const { element: form } = await inSession<ConsultForm>(html`<consult-form></consult-form>`);
      await formShown(form);
      form.startWith('one');
      form.startWith('two');
      form.startWith('three');
      form.startWith('four');
      await form.updateComplete;
      expect(textareas(form).map((t) => t.value)).to.deep.equal(['one', 'two', 'three\n\nfour']);
    });
  });

  describe('where a question lands (the session’s placement)', () => {
    /** Types `text` in the form's first question as a member does and sends it. */
    async function send(form: ConsultForm, text: string): Promise<void> {
      await formShown(form);
      textarea(form).focus();
      await sendKeys({ type: text });
      part(form, 'submit-button')!.click();
    }

    const openedThread = (history: CaseHistory) =>
      history.shadowRoot!.querySelector<ConsultThread>('consult-thread');

    /** A page with the form and the member's list in one session, its tab's storage empty. */
    async function formBesideList() {
      sessionStorage.clear();
      const { session } = await inSession<HTMLElement>(
        html`<div><consult-form></consult-form><case-history></case-history></div>`,
      );
      return {
        session,
        form: session.querySelector<ConsultForm>('consult-form')!,
        history: session.querySelector<CaseHistory>('case-history')!,
      };
    }

    it('opens a question just sent in the page’s list, its heading focused, and offers a fresh form', async () => {
      const { form, history } = await formBesideList();
      const submitted = oneEvent(form, 'consult-submitted');
      await send(form, 'My ankle is swollen after a run.');
      const { consultationId } = (await submitted).detail;
      await waitUntil(() => history.selected === consultationId, 'the case opens in the list', {
        timeout: 5000,
      });
      await waitUntil(
        () => openedThread(history)?.shadowRoot!.activeElement?.id === 'heading',
        'its heading has focus',
        { timeout: 5000 },
      );
      expect(document.activeElement).to.equal(history);
      // One live copy on the page: the form shows no thread of its own, only a fresh question.
      expect(form.shadowRoot!.querySelector('consult-thread')).to.equal(null);
      expect(textarea(form).value).to.equal('');
      expect(announced(form)).to.contain('in your consultations');
    });

    it('says "sent" only while the page’s list does not show the question open', async () => {
      const { form, history } = await formBesideList();
      const sentNote = () => form.shadowRoot!.querySelector<HTMLElement>('.sent-to');
      // Watched from the send on: the note must not flash up while the list opens the question.
      let noteSeen = false;
      const watch = new MutationObserver((records) => {
        const added = records.flatMap((r) => [...r.addedNodes]);
        noteSeen ||= added.some((n) => n instanceof Element && n.matches('.sent-to, :has(.sent-to)'));
      });
      await formShown(form);
      watch.observe(form.shadowRoot!, { childList: true, subtree: true });
      const submitted = oneEvent(form, 'consult-submitted');
      await send(form, 'My wrist hurts when I type.');
      const { consultationId } = (await submitted).detail;
      await waitUntil(() => openedThread(history)?.consultationId === consultationId, 'the list shows it', {
        timeout: 5000,
      });
      await form.updateComplete;
      watch.disconnect();
      expect(noteSeen, 'the note showed beside the list’s open question').to.equal(false);
      expect(sentNote()).to.equal(null);

      // Back to the list: the question is no longer in view, and the note says where it went.
      $<HTMLButtonElement>(history, '[part~=back-button]')!.click();
      await waitUntil(() => sentNote(), 'the note is back', { timeout: 5000 });
      expect(sentNote()!.textContent).to.contain('in your consultations');

      // Its link opens the question in the list again, and the note goes.
      button(form, 'Open your question')!.click();
      await waitUntil(() => history.selected === consultationId, 'the list shows it again', {
        timeout: 5000,
      });
      await waitUntil(() => sentNote() === null, 'the note is gone again', { timeout: 5000 });
    });

    it('shows the question where it was sent when the page has no list', async () => {
      sessionStorage.clear();
      const { element: form } = await inSession<ConsultForm>(html`<consult-form></consult-form>`);
      const submitted = oneEvent(form, 'consult-submitted');
      await send(form, 'Is it normal to sneeze in the sun?');
      const { consultationId } = (await submitted).detail;
      await waitUntil(() => form.shadowRoot!.querySelector('consult-thread'), 'the thread shows here', {
        timeout: 5000,
      });
      expect(form.shadowRoot!.querySelector<ConsultThread>('consult-thread')!.consultationId).to.equal(
        consultationId,
      );
    });

    it('lands "Start a new consultation" in the box, with focus, after a case sent here reached its limit', async () => {
      const { session, form, history } = await formBesideList();
      const submitted = oneEvent(form, 'consult-submitted');
      await send(form, 'My knee clicks when I climb stairs.');
      const { consultationId } = (await submitted).detail;
      await waitUntil(() => openedThread(history), 'the case opens in the list', { timeout: 5000 });
      const state = session.manager.state;
      await state.addFollowUp(consultationId, 'Two?', 'key-placement-2');
      await state.addFollowUp(consultationId, 'Three?', 'key-placement-3');
      const thread = openedThread(history)!;
      await waitUntil(() => thread.shadowRoot!.querySelector('[part=start-new-button]'), 'the limit', {
        timeout: 5000,
      });
      thread.shadowRoot!.querySelector<HTMLButtonElement>('[part=start-new-button]')!.focus();
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => focused(form) === textarea(form), 'focus in the form’s question box', {
        timeout: 5000,
      });
      expect(document.activeElement).to.equal(form);
      expect(textarea(form).value).to.equal('');
    });
  });

  describe('when the navigator hands over', () => {
    it('startWith fills the first empty question and focuses it', async () => {
      const { element: form } = await inSession<ConsultForm>(html`<consult-form></consult-form>`);
      await formShown(form);
      form.startWith('Text from the navigator');
      await form.updateComplete;
      expect(textarea(form).value).to.equal('Text from the navigator');
      expect(focused(form)).to.equal(textarea(form));
      await waitUntil(() => storedDraft(), 'kept as a draft');
    });

    it('startWith before the form is ready keeps the text until it is', async () => {
      const { session } = await inSession<HTMLElement>(html`<p>portal</p>`);
      const form = document.createElement('consult-form') as ConsultForm;
      form.startWith('Early words');
      session.append(form);
      await formShown(form);
      await form.updateComplete;
      expect(textarea(form).value).to.equal('Early words');
      expect(focused(form)).to.equal(textarea(form));
    });
  });

  describe('when the member has no active subscription', () => {
    it('shows a clear state instead of the form', async () => {
      const { element: form } = await inSession<ConsultForm>(html`<consult-form></consult-form>`, {
        member: 'sam',
      });
      await waitUntil(() => shadowText(form).includes('Not included in your plan'), 'the state is shown', {
        timeout: 5000,
      });
      expect(textareas(form)).to.have.length(0);
      expect(shadowText(form)).to.contain('does not include questions to a doctor');
      await expect(form).to.be.accessible();
    });

    it('lets the partner explain their offer', async () => {
      const { element: form } = await inSession<ConsultForm>(
        html`<consult-form><p slot="no-subscription">Upgrade to Plus to ask a doctor.</p></consult-form>`,
        { member: 'sam' },
      );
      await waitUntil(
        () => form.shadowRoot!.querySelector('slot[name=no-subscription]'),
        'the state is shown',
        {
          timeout: 5000,
        },
      );
      const slot = form.shadowRoot!.querySelector<HTMLSlotElement>('slot[name=no-subscription]')!;
      expect(slot.assignedElements()[0]!.textContent).to.equal('Upgrade to Plus to ask a doctor.');
    });

    it('switches to that state when the service refuses the question', async () => {
      const { element: form, backend } = await inSession<ConsultForm>(html`<consult-form></consult-form>`);
      await formShown(form);
      await typeInto(form, 0, 'Asked just after my plan ended');
      for (const subscription of backend.sandbox.state.subscriptions.values()) {
        if (subscription.userId === ALEX) subscription.canceledAt = new Date().toISOString();
      }
      part(form, 'submit-button')!.click();
      await waitUntil(() => shadowText(form).includes('Not included in your plan'), 'the state is shown', {
        timeout: 5000,
      });
      await form.updateComplete;
      expect(focused(form)?.textContent).to.contain('Not included in your plan', 'focus follows the notice');
      expect(storedDraft()?.questions).to.deep.equal(['Asked just after my plan ended']);
    });
  });

  describe('when the account is not active', () => {
    it('shows a clear state instead of the form', async () => {
      const backend = createDemoBackend();
      await backend.ready;
      backend.sandbox.state.users.get(ALEX)!.userStatus = 'deactivatedUser';
      const { element: form } = await inSession<ConsultForm>(
        html`<consult-form><p slot="inactive">Call us on 0800 123.</p></consult-form>`,
        { backend },
      );
      await waitUntil(() => shadowText(form).includes('Account not active'), 'the state is shown', {
        timeout: 5000,
      });
      expect(textareas(form)).to.have.length(0);
      const slot = form.shadowRoot!.querySelector<HTMLSlotElement>('slot[name=inactive]')!;
      expect(slot.assignedElements()[0]!.textContent).to.equal('Call us on 0800 123.');
      await expect(form).to.be.accessible();
    });
  });

  describe('when loading fails', () => {
    it('shows an error with a retry that recovers', async () => {
      const broken = withFailures(createDemoBackend());
      const { session } = await inSession<HTMLElement>(html`<p>portal</p>`, { backend: broken.backend });
      broken.fail(true);
      const form = document.createElement('consult-form') as ConsultForm;
      const failed = oneEvent(form, 'consult-error');
      session.append(form);
      await waitUntil(() => shadowText(form).includes('could not check your plan'), 'the error is shown', {
        timeout: 8000,
      });
      const { detail } = await failed;
      expect(detail.operation).to.equal('getUserSubscriptions');
      expect(detail.status).to.equal(500, 'a failure that waiting does not mend');
      expect(form.shadowRoot!.querySelector('[role=alert]')).to.exist;
      await expect(form).to.be.accessible();

      broken.fail(false);
      button(form, 'Try again')!.click();
      await formShown(form);
      await form.updateComplete;
      expect(focused(form)).to.equal(textarea(form), 'focus goes to the form that replaced the button');
    });

    it('shows the error on its own when its endpoint cannot be reached', async () => {
      const form = await fixture<ConsultForm>(html`<consult-form endpoint="/no-such-proxy"></consult-form>`);
      // What failed is named: signing in, not the plan.
      await waitUntil(() => shadowText(form).includes('We could not sign you in'), 'the error is shown', {
        timeout: 8000,
      });
      expect(button(form, 'Try again')).to.exist;
    });
  });

  describe('in every language', () => {
    const english = ['Your question', 'Add another question', 'emergency', 'Send to a doctor', 'questions'];

    it('renders with no English left, Arabic right to left', async () => {
      const backend = createDemoBackend();
      await backend.ready;
      for (const lang of LANGUAGES) {
        const { element: form } = await inSession<ConsultForm>(
          html`<consult-form lang=${lang}></consult-form>`,
          {
            backend,
          },
        );
        await formShown(form);
        const base = part(form, 'base')!;
        expect(base.getAttribute('lang')).to.equal(lang);
        expect(base.getAttribute('dir')).to.equal(lang === 'ar' ? 'rtl' : 'ltr');
        expect(labelOf(form, textarea(form))).to.have.length.greaterThan(2);
        if (lang !== 'en') {
          const text = shadowText(form);
          for (const phrase of english) expect(text, `${lang}: ${phrase}`).to.not.contain(phrase);
        }
      }
    });

    it("follows the member's language", async () => {
      const { element: form } = await inSession<ConsultForm>(html`<consult-form></consult-form>`, {
        member: 'noor',
      });
      await formShown(form);
      expect(part(form, 'base')!.getAttribute('dir')).to.equal('rtl');
      expect(labelOf(form, textarea(form))).to.equal('سؤالك');
    });
  });
});
