import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import type { Consultation } from '../../src/client/types.js';
import { ConsultForm } from '../../src/elements/consult-form/consult-form.js';
import { ConsultThread } from '../../src/elements/consult-thread/consult-thread.js';
import { LANGUAGES } from '../../src/elements/shared/localize.js';
import { SessionManager } from '../../src/session/session.js';
import { createDemoBackend } from '../../src/sandbox/demo-backend.js';
import { announced, inSession, shadowText, withFailures } from './support/backend.js';
import { $, $$, hasFocus, pressTryAgain, sandboxPost, waitUntil } from './support/elements.js';

ConsultThread.define('consult-thread');
ConsultForm.define('consult-form');

/** Waits until the thread shows its questions, and every answer has been rendered from markdown. */
async function loaded(element: ConsultThread): Promise<void> {
  await waitUntil(() => $(element, '[part=question]'), 'the thread loads', { timeout: 5000 });
  await waitUntil(
    () => $$(element, '[part=answer]').every((answer) => answer.firstElementChild !== null),
    'the answers render as markdown',
    { timeout: 5000 },
  );
}

/** Types into the follow-up box as a member does and sends it with the button. */
async function askFollowUp(element: ConsultThread, text: string): Promise<void> {
  $<HTMLTextAreaElement>(element, '[part=followup-input]')!.focus();
  await sendKeys({ type: text });
  $<HTMLButtonElement>(element, '[part=submit-button]')!.click();
}

/** A signed-in session whose service fails every request, with a thread for alex's bp case added once it does. */
async function failingThread() {
  const broken = withFailures(createDemoBackend());
  const fixtureResult = await inSession<HTMLElement>(html`<span></span>`, { backend: broken.backend });
  const { session } = fixtureResult;
  broken.fail(true);
  const element = document.createElement('consult-thread') as ConsultThread;
  element.consultationId = 'cns_demo_alex_bp';
  session.append(element);
  await waitUntil(() => $(element, '[role=alert] button'), 'the error shows', { timeout: 15000 });
  return { ...fixtureResult, element, fail: broken.fail };
}

/** A thread inside a signed-in session, for a consultation created now with `questions`. */
async function newThread(questions: string[]) {
  const fixtureResult = await inSession<ConsultThread>(html`<consult-thread></consult-thread>`);
  const { session, element } = fixtureResult;
  const user = await session.manager.ready();
  const created = await session.manager.client.createConsultation({ userId: user.id, questions });
  element.consultationId = created.consultationId;
  await waitUntil(() => $(element, '[part=question]'), 'the thread loads', { timeout: 5000 });
  return { ...fixtureResult, consultationId: created.consultationId };
}

const sample = (overrides: Partial<Consultation> = {}): Consultation => ({
  consultationId: 'cns_sample',
  userId: 'usr_sample',
  status: 'resolved',
  createdAt: '2026-03-04T10:00:00.000Z',
  questions: [
    {
      question: 'Is it safe to exercise with a cold?',
      answer: 'Light exercise is **usually fine** if your symptoms are above the neck.',
      professional: {
        name: 'Dr. Amara Okafor',
        title: 'General Practitioner',
        specialties: ['General practice'],
        licenses: [{ licenseNumber: 'GMC 7212345', countries: ['GB'] }],
        profileUrl: 'https://professionals.example.org/amara-okafor',
      },
    },
    { question: 'And with a fever?' },
  ],
  ...overrides,
});

describe('<consult-thread>', () => {
  it('is accessible with a resolved consultation', async () => {
    const { element } = await inSession<ConsultThread>(
      html`<consult-thread consultation-id="cns_demo_alex_rash"></consult-thread>`,
    );
    await loaded(element);
    await expect(element).to.be.accessible();
  });

  it('is accessible and busy while loading', async () => {
    const pending = new SessionManager({ endpoint: '/consult', signIn: () => new Promise(() => {}) });
    const element = await fixture<ConsultThread>(
      html`<consult-thread consultation-id="cns_demo_alex_rash" .session=${pending}></consult-thread>`,
    );
    expect($(element, '[part=base]')!.getAttribute('aria-busy')).to.equal('true');
    expect(shadowText(element)).to.contain('Loading the consultation');
    // Placeholders shaped like the content, hidden from assistive technology, which hears the words.
    expect(element.shadowRoot!.querySelectorAll('[aria-hidden=true] .skeleton').length).to.be.greaterThan(2);
    await expect(element).to.be.accessible();
  });

  it('is accessible with nothing selected', async () => {
    const element = await fixture<ConsultThread>(html`<consult-thread></consult-thread>`);
    expect(shadowText(element)).to.contain('No consultation is selected');
    await expect(element).to.be.accessible();
  });

  it('has sensible defaults', () => {
    const element = document.createElement('consult-thread') as ConsultThread;
    expect(element.consultationId).to.equal(undefined);
    expect(element.consultation).to.equal(undefined);
    expect(element.endpoint).to.equal(undefined);
  });

  it('maps its attributes to properties', async () => {
    const pending = new SessionManager({ endpoint: '/consult', signIn: () => new Promise(() => {}) });
    const element = await fixture<ConsultThread>(
      html`<consult-thread
        consultation-id="cns_a"
        endpoint="/elsewhere"
        .session=${pending}
      ></consult-thread>`,
    );
    expect(element.consultationId).to.equal('cns_a');
    expect(element.endpoint).to.equal('/elsewhere');
    element.setAttribute('consultation-id', 'cns_b');
    expect(element.consultationId).to.equal('cns_b');
  });

  describe('when the consultation does not exist', () => {
    it('says so in words and the way back, offers no retry, and is accessible', async () => {
      const { element } = await inSession<ConsultThread>(html`<consult-thread></consult-thread>`);
      const errors: string[] = [];
      element.addEventListener('consult-error', (event) => errors.push(event.detail.code));
      element.consultationId = 'cns_nothing_here';
      await waitUntil(() => $(element, '[role=alert]'), 'the error shows', { timeout: 5000 });
      expect(shadowText(element)).to.contain('This consultation could not be found');
      expect(shadowText(element)).not.to.contain('404');
      expect(shadowText(element)).to.contain('Go back to your consultations');
      expect(shadowText(element), 'trying again cannot find it').not.to.contain('Try again');
      expect($(element, '[part=base]')!.getAttribute('aria-busy')).to.equal('false');
      expect(errors).to.have.length(1);
      await expect(element).to.be.accessible();

      // Another id that exists loads.
      element.consultationId = 'cns_demo_alex_bp';
      await loaded(element);
      expect(shadowText(element)).to.contain('142/91');
    });

    it('loads when the member presses Try again', async () => {
      const backend = createDemoBackend();
      await backend.ready;
      let failing = true;
      const flaky: typeof fetch = (input, init) =>
        failing && String(input).includes('/consultation/')
          ? Promise.resolve(new Response('{}', { status: 500 }))
          : backend.fetch(input, init);
      const manager = new SessionManager({
        endpoint: backend.endpoint,
        fetch: flaky,
        signIn: backend.signInAs('alex'),
      });
      const element = await fixture<ConsultThread>(
        html`<consult-thread consultation-id="cns_demo_alex_bp" .session=${manager}></consult-thread>`,
      );
      await waitUntil(() => $(element, '[role=alert] button'), 'the error shows', { timeout: 5000 });
      expect(shadowText(element)).to.contain('We could not load this consultation');
      failing = false;
      $<HTMLButtonElement>(element, '[role=alert] button')!.click();
      await loaded(element);
      expect(shadowText(element)).to.contain('142/91');
    });
  });

  describe('when loading fails and the member presses Try again', () => {
    it('moves focus to the first question once Try again has loaded it', async function () {
      this.timeout(30000);
      const { fail, element } = await failingThread();
      fail(false);
      await pressTryAgain(element);
      await loaded(element);
      await element.updateComplete;
      expect(hasFocus(element, $(element, '#question-0')), 'focus is on the first question').to.equal(true);
    });

    it('moves focus to the new error when Try again fails again', async function () {
      this.timeout(30000);
      const { fail, element } = await failingThread();
      const first = $(element, '[role=alert]');
      await pressTryAgain(element);
      await waitUntil(
        () => {
          const notice = $(element, '[role=alert]');
          return notice !== first && hasFocus(element, notice);
        },
        'focus moves to the new error',
        { timeout: 15000 },
      );
      expect($(element, '[role=alert]')!.getAttribute('tabindex')).to.equal('-1');
      fail(false);
      await expect(element).to.be.accessible();
    });

    it('leaves focus alone when it was elsewhere as Try again was pressed', async function () {
      this.timeout(30000);
      const { fail, session, element } = await failingThread();
      fail(false);
      const outside = document.createElement('button');
      outside.textContent = 'Elsewhere on the page';
      session.before(outside);
      outside.focus();
      $<HTMLButtonElement>(element, '[role=alert] button')!.click();
      await loaded(element);
      await element.updateComplete;
      expect(document.activeElement === outside, 'focus stays where the member put it').to.equal(true);
      expect(element.shadowRoot!.activeElement === null, 'nothing in the element has focus').to.equal(true);
      outside.remove();
    });
  });

  describe('when it shows alex’s rash consultation', () => {
    it('renders both answers as markdown, with the professional, licences and attachments', async () => {
      const { element } = await inSession<ConsultThread>(
        html`<consult-thread consultation-id="cns_demo_alex_rash"></consult-thread>`,
      );
      await loaded(element);
      const answers = $$(element, '[part=answer]');
      expect(answers).to.have.length(2);
      for (const answer of answers) {
        expect(answer.classList.contains('markdown')).to.equal(true);
        expect(answer.querySelector('strong'), 'bold text').to.exist;
        expect(answer.querySelectorAll('li').length, 'list items').to.be.greaterThan(1);
      }
      const link = answers[0]!.querySelector('a')!;
      expect(link.protocol).to.equal('https:');
      expect(link.rel).to.contain('noopener');
      expect(link.target).to.equal('_blank');

      const professional = $$(element, '[part=professional]')[0]!;
      const text = professional.textContent!.replace(/\s+/g, ' ');
      expect(text).to.contain('Dr. Sofía Martínez');
      expect(text).to.contain('Dermatologist');
      expect(text).to.contain('Dermatology');
      expect(text).to.contain('Licence CMM 28/2811934 (Spain)');
      expect(text).to.contain('Licence GMC 7654321 (United Kingdom)');
      const profile = professional.querySelector('a')!;
      expect(profile.href).to.equal('https://professionals.example.org/sofia-martinez');
      expect(profile.rel).to.equal('noopener noreferrer');

      const attachment = $(element, '.attachments a') as HTMLAnchorElement;
      expect(attachment.textContent).to.equal('emollient-guide.pdf');
      expect(attachment.rel).to.equal('noopener noreferrer');

      expect($(element, '[part=status]')!.textContent).to.contain('Answered');
      expect(shadowText(element)).to.contain('2 of 3 questions used');
      expect(shadowText(element)).to.contain('Your follow-up question');
    });

    it('uses the consultation it is given instead of fetching it', async () => {
      const { backend, session, element } = await inSession<ConsultThread>(
        html`<consult-thread></consult-thread>`,
      );
      const consultation = await session.manager.client.getConsultation('cns_demo_alex_rash');
      const before = backend.sandbox.requests.filter((r) => r.path.endsWith('/cns_demo_alex_rash')).length;
      element.consultation = consultation;
      await loaded(element);
      expect(element.consultationId).to.equal('cns_demo_alex_rash');
      const after = backend.sandbox.requests.filter((r) => r.path.endsWith('/cns_demo_alex_rash')).length;
      expect(after).to.equal(before);
    });
  });

  it('follows a consultation set on its own to its id', async () => {
    const element = await fixture<ConsultThread>(
      html`<consult-thread .consultation=${sample()}></consult-thread>`,
    );
    element.consultation = sample({
      consultationId: 'cns_other',
      questions: [{ question: 'Another question?' }],
    });
    await element.updateComplete;
    expect(element.consultationId).to.equal('cns_other');
    expect(shadowText(element)).to.contain('Another question?');
  });

  it('keeps a newer record when the page hands back the one it first gave', async () => {
    const first = sample();
    const element = await fixture<ConsultThread>(
      html`<consult-thread .consultation=${first}></consult-thread>`,
    );
    const answered = sample({
      questions: [
        first.questions[0]!,
        { question: 'And with a fever?', answer: 'Rest **until it is gone**.' },
      ],
    });
    element.consultation = answered;
    await loaded(element);
    element.consultation = first;
    await element.updateComplete;
    expect(element.consultation).to.equal(answered);
    expect(element.shadowRoot!.querySelectorAll('[part=answer]')).to.have.length(2);
  });

  describe('when a doctor answers while the member watches', () => {
    it('shows the answer without a reload and announces it', async () => {
      const { backend, session, element, consultationId } = await newThread([
        'Can I take ibuprofen for a headache?',
      ]);
      expect(shadowText(element)).to.contain('Waiting for a professional to take your question');
      expect($(element, '[part=status]')!.textContent).to.contain('Open');
      await expect(element).to.be.accessible();
      await waitUntil(() => session.manager.live, 'the live stream opens', { timeout: 5000 });

      await sandboxPost(backend, `/_sandbox/consultations/${consultationId}/claim`, {
        professional: {
          name: 'Dr Ana Ruiz',
          title: 'General practitioner',
          specialties: ['General practice'],
          licenses: [{ licenseNumber: 'GMC 7212345', countries: ['GB'] }],
        },
      });
      // Named as soon as the case is claimed, with their role, and the step moves on.
      await waitUntil(
        () => shadowText(element).includes('Dr Ana Ruiz, General practitioner, is reviewing your question'),
        'claimed',
        { timeout: 5000 },
      );
      expect($(element, '[part=waiting] [aria-current=step]')!.textContent!.trim()).to.equal(
        'Being reviewed',
      );
      expect(shadowText(element)).not.to.contain('Waiting for a professional');
      await expect(element).to.be.accessible();

      const answered = oneEvent(element, 'consult-answered');
      await sandboxPost(backend, `/_sandbox/consultations/${consultationId}/answer`, {
        answer: 'Yes, **ibuprofen** is fine:\n\n- with food\n- for a few days',
      });
      const event = await answered;
      expect(event.detail).to.deep.equal({ consultationId, status: 'resolved' });
      await loaded(element);
      expect($(element, '[part=answer] strong')!.textContent).to.equal('ibuprofen');
      expect(announced(element)).to.match(/answered your question/);
      expect($(element, '[part=status]')!.textContent).to.contain('Answered');
      // The answer comes from them: initials, name and role on it, and the words say who answered.
      const who = $(element, '[part=professional]')!;
      expect(who.closest('.message')!.querySelector('.avatar')!.textContent).to.equal('AR');
      expect(who.querySelector('.name')!.textContent).to.equal('Dr Ana Ruiz');
      expect(who.querySelector('.role')!.textContent).to.equal('General practitioner');
      expect($(element, '.status-line')!.textContent).to.equal('Dr Ana Ruiz, General practitioner, answered');
      expect($(element, '[part=waiting]')).to.equal(null);
    });

    it('reads the consultation again when the live stream says events were missed', async () => {
      const { backend, session, element, consultationId } = await newThread(['Is this still waiting?']);
      // An answer the stream never told of (it arrived while the stream was away and is too old to replay).
      const stored = backend.sandbox.state.consultations.get(consultationId)!;
      stored.questions[0]!.answer = 'Answered **while you were away**.';
      stored.status = 'resolved';
      expect(shadowText(element)).to.contain('Waiting for a professional to take your question');
      session.manager.dispatchEvent(new Event('resync'));
      await waitUntil(() => $(element, '[part=answer] strong'), 'the answer shows', { timeout: 5000 });
      expect($(element, '[part=answer] strong')!.textContent).to.equal('while you were away');
    });

    it('polls for the answer while the live stream is down', async () => {
      const backend = createDemoBackend();
      await backend.ready;
      let streamAttempts = 0;
      const noStream: typeof fetch = (input, init) => {
        if (String(input).endsWith('/events')) {
          streamAttempts++;
          return Promise.reject(new TypeError('the stream is blocked'));
        }
        return backend.fetch(input, init);
      };
      // The polls waiting or running: once there are none, the polling has stopped. The connection's
      // own waits share the timer (the grace after a failed request, 1 s or more; its probes, 2 s or
      // more) and go on while the stream stays blocked; the polls are the waits within the pace.
      const pace = { firstMs: 100, maxMs: 400 };
      const polling = { waiting: new Set<unknown>(), running: 0 };
      const pollTimer = {
        set: (run: () => void, ms: number) => {
          const isPoll = ms <= pace.maxMs;
          const handle = setTimeout(() => {
            if (!isPoll) return run();
            polling.waiting.delete(handle);
            polling.running++;
            void Promise.resolve(run() as unknown).finally(() => polling.running--);
          }, ms);
          if (isPoll) polling.waiting.add(handle);
          return handle;
        },
        clear: (handle: unknown) => {
          polling.waiting.delete(handle);
          clearTimeout(handle as ReturnType<typeof setTimeout>);
        },
      };
      const manager = new SessionManager({
        endpoint: backend.endpoint,
        fetch: noStream,
        signIn: backend.signInAs('alex'),
        poll: pace,
        pollTimer,
      });
      const user = await manager.ready();
      const created = await manager.client.createConsultation({
        userId: user.id,
        questions: ['Is a cough after a cold normal?'],
      });
      const element = await fixture<ConsultThread>(
        html`<consult-thread consultation-id=${created.consultationId} .session=${manager}></consult-thread>`,
      );
      await waitUntil(() => $(element, '[part=question]'), 'the thread loads', { timeout: 5000 });
      await sandboxPost(backend, `/_sandbox/consultations/${created.consultationId}/answer`, {
        answer: 'A cough can last **three weeks** after a cold.',
      });
      await waitUntil(() => $(element, '[part=answer] strong'), 'the answer arrives by polling', {
        timeout: 5000,
      });
      expect(manager.live).to.equal(false);
      expect(streamAttempts).to.be.greaterThan(0);
      expect(announced(element)).to.match(/answered your question/);

      // Answered: the polling stops (a poll is scheduled only while a consultation waits).
      await waitUntil(() => polling.waiting.size === 0 && polling.running === 0, 'no poll waits or runs');
    });
  });

  describe('when the member asks follow-up questions', () => {
    it('sends them, counts them, focuses the new question and closes at the cap', async () => {
      const { backend, element, consultationId } = await newThread(['My knee clicks when I climb stairs.']);
      expect(shadowText(element)).to.contain('1 of 3 questions used');
      await expect(element).to.be.accessible();

      const followup = oneEvent(element, 'consult-followup');
      await askFollowUp(element, 'It does not hurt. Should I still worry?');
      const event = await followup;
      expect(event.detail).to.deep.equal({ consultationId, questionsUsed: 2 });
      await waitUntil(() => $$(element, '[part=question]').length === 2, 'the question appears');
      await element.updateComplete;
      expect($$(element, '[part=question]')[1]!.textContent).to.contain(
        'It does not hurt. Should I still worry?',
      );
      expect(shadowText(element)).to.contain('2 of 3 questions used');
      expect(element.shadowRoot!.activeElement?.id).to.equal('question-1');
      expect($<HTMLTextAreaElement>(element, '[part=followup-input]')!.value).to.equal('');
      expect(announced(element)).to.contain('Your question was sent');

      await askFollowUp(element, 'Can I keep running?');
      await waitUntil(() => $$(element, '[part=question]').length === 3, 'the third question appears');
      // The limit is said once, with the way forward; no counter beside it.
      expect(shadowText(element)).not.to.contain('3 of 3 questions used');
      expect(shadowText(element)).to.contain('You have asked all 3 questions of this consultation');
      expect($(element, '[part=start-new-button]')!.textContent!.trim()).to.equal('Start a new consultation');
      expect($(element, '[part=followup-input]')).to.equal(null);
      expect($(element, '[part=submit-button]')).to.equal(null);
      await expect(element).to.be.accessible();

      const posts = backend.sandbox.requests.filter(
        (r) => r.method === 'POST' && r.path.endsWith(consultationId),
      );
      expect(posts).to.have.length(2);
      expect(
        posts.every((r) => typeof r.idempotencyKey === 'string' && r.idempotencyKey.length > 0),
      ).to.equal(true);
      expect(new Set(posts.map((r) => r.idempotencyKey)).size).to.equal(2);
    });

    it('asks for words before sending an empty question', async () => {
      const { backend, element, consultationId } = await newThread(['Is it fine to sleep eight hours?']);
      $<HTMLButtonElement>(element, '[part=submit-button]')!.click();
      await element.updateComplete;
      const input = $<HTMLTextAreaElement>(element, '[part=followup-input]')!;
      expect(shadowText(element)).to.contain('Please write your question before sending it');
      expect(input.getAttribute('aria-invalid')).to.equal('true');
      expect(input.getAttribute('aria-describedby')).to.contain('followup-error');
      expect(element.shadowRoot!.activeElement).to.equal(input);
      await expect(element).to.be.accessible();
      expect(
        backend.sandbox.requests.some((r) => r.method === 'POST' && r.path.endsWith(consultationId)),
      ).to.equal(false);
      await sendKeys({ type: 'x' });
      await element.updateComplete;
      expect(input.getAttribute('aria-invalid')).to.equal('false');
    });

    it('keeps the draft across a reload and clears it once sent', async () => {
      const { session, element, consultationId } = await newThread(['How much water should I drink?']);
      $<HTMLTextAreaElement>(element, '[part=followup-input]')!.focus();
      await sendKeys({ type: 'And in hot weather?' });
      const user = session.manager.user!;
      const key = `consult-elements:draft:${user.id}:followup:${consultationId}`;
      expect(sessionStorage.getItem(key)).to.contain('And in hot weather?');

      // The page reloads: a new element for the same consultation gets the text back.
      element.remove();
      const again = document.createElement('consult-thread') as ConsultThread;
      again.consultationId = consultationId;
      session.append(again);
      await waitUntil(() => $(again, '[part=followup-input]'), 'the thread loads again', { timeout: 5000 });
      expect($<HTMLTextAreaElement>(again, '[part=followup-input]')!.value).to.equal('And in hot weather?');

      $<HTMLButtonElement>(again, '[part=submit-button]')!.click();
      await waitUntil(() => $$(again, '[part=question]').length === 2, 'sent');
      expect(sessionStorage.getItem(key)).to.equal(null);
    });

    it('sends with Ctrl+Enter', async () => {
      const { element } = await newThread(['Is coffee bad for my heart?']);
      $<HTMLTextAreaElement>(element, '[part=followup-input]')!.focus();
      await sendKeys({ type: 'What about tea?' });
      await sendKeys({ press: 'Control+Enter' });
      await waitUntil(() => $$(element, '[part=question]').length === 2, 'sent with the keyboard');
    });

    it('explains a failure in words and retries with the same idempotency key', async () => {
      const backend = createDemoBackend();
      await backend.ready;
      const keys: string[] = [];
      let failNext = true;
      const flaky: typeof fetch = (input, init) => {
        const followUp = init?.method === 'POST' && /\/consultation\/cns_/.test(String(input));
        if (followUp) {
          keys.push(new Headers(init?.headers).get('idempotency-key') ?? '');
          if (failNext) {
            failNext = false;
            return Promise.resolve(
              new Response(JSON.stringify({ code: 'internal', title: 'Server error', status: 500 }), {
                status: 500,
                headers: { 'content-type': 'application/problem+json' },
              }),
            );
          }
        }
        return backend.fetch(input, init);
      };
      const manager = new SessionManager({
        endpoint: backend.endpoint,
        fetch: flaky,
        signIn: backend.signInAs('alex'),
      });
      const user = await manager.ready();
      const created = await manager.client.createConsultation({
        userId: user.id,
        questions: ['Why do I sneeze in the sun?'],
      });
      const element = await fixture<ConsultThread>(
        html`<consult-thread consultation-id=${created.consultationId} .session=${manager}></consult-thread>`,
      );
      await waitUntil(() => $(element, '[part=followup-input]'), 'the thread loads', { timeout: 5000 });
      await askFollowUp(element, 'Is it hereditary?');
      await waitUntil(() => $(element, '[role=alert]'), 'the failure shows');
      expect(shadowText(element)).to.contain('Your question could not be sent');
      expect(shadowText(element)).not.to.contain('500');
      expect($<HTMLTextAreaElement>(element, '[part=followup-input]')!.value).to.equal('Is it hereditary?');
      await expect(element).to.be.accessible();

      $<HTMLButtonElement>(element, '[part=submit-button]')!.click();
      await waitUntil(() => $$(element, '[part=question]').length === 2, 'sent on the retry');
      expect(keys).to.have.length(2);
      expect(keys[0]).to.have.length.greaterThan(0);
      expect(keys[1]).to.equal(keys[0]);
      const recorded = backend.sandbox.requests.filter(
        (r) => r.method === 'POST' && r.path.endsWith(created.consultationId),
      );
      expect(recorded).to.have.length(1);
    });

    it('explains a 409 from the server in words', async () => {
      const { session, element, consultationId } = await newThread([
        'I have hay fever every spring.',
        'Which antihistamine is least drowsy?',
      ]);
      expect(shadowText(element)).to.contain('2 of 3 questions used');
      // Behind the element's back, the third question is used up.
      await session.manager.client.addConsultationFollowUp(consultationId, {
        question: 'Can children take it?',
      });

      await askFollowUp(element, 'Can I take it with alcohol?');
      await waitUntil(
        () => shadowText(element).includes('You have asked all 3 questions of this consultation'),
        'the limit is explained',
        { timeout: 5000 },
      );
      const text = shadowText(element);
      expect(text).not.to.contain('409');
      expect(text).not.to.contain('question_limit_reached');
      expect($(element, '[part=followup-input]')).to.equal(null);
      expect(element.shadowRoot!.activeElement?.id).to.equal('followup-notice');
      // What the member typed is not lost.
      expect($<HTMLTextAreaElement>(element, '#unsent')!.value).to.equal('Can I take it with alcohol?');
      await waitUntil(
        () => $$(element, '[part=question]').length === 3,
        'the thread shows the server’s questions',
      );
      await expect(element).to.be.accessible();
    });
  });

  describe('as a conversation', () => {
    it('shows each message with its heading, sender and time, the member’s on the other side', async () => {
      const { backend, element, consultationId } = await newThread(['Why do my eyes itch every May?']);
      await sandboxPost(backend, `/_sandbox/consultations/${consultationId}/claim`, {
        professional: { name: 'Priya Nair', title: 'Clinical Pharmacist', specialties: [], licenses: [] },
      });
      await sandboxPost(backend, `/_sandbox/consultations/${consultationId}/answer`, {
        answer: 'It sounds like **hay fever**.',
      });
      await waitUntil(() => $(element, '[part=answer] strong'), 'the answer arrives', { timeout: 5000 });
      await askFollowUp(element, 'Can I take an antihistamine daily?');
      await waitUntil(() => $$(element, '[part=question]').length === 2, 'the follow-up shows');

      // A heading per question, so a screen reader can jump between them.
      const headings = $$(element, '.thread h4').map((h) => h.textContent!.trim());
      expect(headings).to.deep.equal(['Your question', 'Your follow-up question']);
      // Who answered, on the answer, and in the words at the top.
      expect($(element, '[part=professional] .sender')!.textContent!.replace(/\s+/g, ' ').trim()).to.equal(
        'Priya Nair, Clinical Pharmacist',
      );
      expect($(element, '[part=professional] .role')!.textContent).to.equal('Clinical Pharmacist');
      expect($(element, '.message.theirs .avatar')!.textContent).to.equal('PN');
      expect($(element, '.status-line')!.textContent).to.equal(
        'Waiting for a professional to take your question',
      );

      // A time on every message: short on screen, the full date and time in its accessible name.
      const times = $$(element, '.thread time');
      expect(times).to.have.length(3);
      const full = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
      for (const time of times) {
        const at = time.getAttribute('datetime')!;
        expect(Number.isNaN(Date.parse(at)), at).to.equal(false);
        expect(time.querySelector('.visually-hidden')!.textContent).to.equal(full.format(new Date(at)));
        expect(time.querySelector('[aria-hidden=true]')!.textContent).to.equal('now');
      }
      // One day, one separator.
      expect($$(element, '.day').map((d) => d.textContent!.trim())).to.deep.equal(['Today']);

      // The member's messages sit at the inline end, answers at the inline start.
      const list = $(element, '.thread')!.getBoundingClientRect();
      const mine = $(element, '.message.mine')!.getBoundingClientRect();
      const theirs = $(element, '.message.theirs')!.getBoundingClientRect();
      expect(Math.abs(list.right - mine.right)).to.be.lessThan(2);
      expect(Math.abs(theirs.left - list.left)).to.be.lessThan(2);
      await expect(element).to.be.accessible();
    });

    it('shows the step a waiting question has reached and the reply time the partner sets', async () => {
      const { session, element } = await newThread(['Is a rash after a new soap common?']);
      const steps = $$(element, '[part=waiting] .steps li');
      expect(steps.map((li) => li.textContent!.trim())).to.deep.equal(['Sent', 'Being reviewed', 'Answered']);
      expect(steps.map((li) => li.getAttribute('aria-current'))).to.deep.equal(['step', 'false', 'false']);
      expect(shadowText(element)).to.contain('Most questions are answered within 24 hours.');
      session.replyHours = 1;
      await session.updateComplete;
      element.requestUpdate();
      await element.updateComplete;
      expect(shadowText(element)).to.contain('Most questions are answered within an hour.');
      await expect(element).to.be.accessible();
    });

    it('shows times this tab did not see arrive only where they are known', async () => {
      const element = await fixture<ConsultThread>(
        html`<consult-thread .consultation=${sample()}></consult-thread>`,
      );
      await loaded(element);
      // The first question was asked when the consultation was made; the rest arrived unseen.
      const times = $$(element, '.thread time');
      expect(times.map((t) => t.getAttribute('datetime'))).to.deep.equal(['2026-03-04T10:00:00.000Z']);
    });

    it('keeps what the member types in place when an answer arrives above it', async () => {
      const long = 'My ankle is swollen after a fall last week, and it hurts when I walk. '.repeat(6);
      const { backend, element, consultationId } = await newThread([long, long]);
      // As in browsers without scroll anchoring (Safari): the element keeps the place itself.
      document.documentElement.style.overflowAnchor = 'none';
      const box = () => $(element, '[part=followup]')!;
      // Scrolled to the follow-up box, as a member typing in it is.
      box().scrollIntoView({ block: 'end' });
      $<HTMLTextAreaElement>(element, '[part=followup-input]')!.focus();
      await sendKeys({ type: 'And ice?' });
      const before = box().getBoundingClientRect().top;
      expect(before).to.be.lessThan(innerHeight);
      expect(box().getBoundingClientRect().bottom).to.be.greaterThan(0);

      await sandboxPost(backend, `/_sandbox/consultations/${consultationId}/answer`, {
        answer:
          'Rest it.\n\n- Ice for 20 minutes\n- Raise it\n- Compress it\n\nSee a doctor if you **cannot walk**.',
      });
      await waitUntil(() => $(element, '[part=answer] strong'), 'the answer arrives above', {
        timeout: 5000,
      });
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      expect(Math.round(box().getBoundingClientRect().top)).to.equal(Math.round(before));
      expect($<HTMLTextAreaElement>(element, '[part=followup-input]')!.value).to.equal('And ice?');
      expect(element.shadowRoot!.activeElement?.id).to.equal('followup-input');
      document.documentElement.style.overflowAnchor = '';
    });

    it('keeps what the member reads in place when an answer arrives above it', async () => {
      const long = 'The rash on my arm spreads a little each day and itches most at night. '.repeat(8);
      const { backend, element, consultationId } = await newThread([long, long, long]);
      document.documentElement.style.overflowAnchor = 'none';
      // Reading the third question, near the top of the screen; nothing has focus.
      const third = () => $(element, '#question-2')!;
      window.scrollBy(0, third().getBoundingClientRect().top - 40);
      (document.activeElement as HTMLElement | null)?.blur();
      const before = third().getBoundingClientRect().top;
      await sandboxPost(backend, `/_sandbox/consultations/${consultationId}/answer`, {
        answer:
          'Try a **fragrance-free** cream.\n\n- Twice a day\n- After washing\n\nSee a doctor if it blisters.',
      });
      await waitUntil(() => $(element, '[part=answer] strong'), 'the answer arrives above', {
        timeout: 5000,
      });
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      expect(Math.round(third().getBoundingClientRect().top)).to.equal(Math.round(before));
      document.documentElement.style.overflowAnchor = '';
    });

    describe('on a phone', () => {
      before(() => setViewport({ width: 375, height: 640 }));
      after(() => setViewport({ width: 800, height: 600 }));

      it('keeps the follow-up box at the bottom of the screen in a long thread', async () => {
        const long =
          'Since Monday I have had a dry cough that gets worse at night and keeps me awake. '.repeat(8);
        const { element } = await newThread([long, long]);
        window.scrollTo(0, 0);
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const box = $(element, '[part=followup]')!.getBoundingClientRect();
        const threadBottom = $(element, '.thread')!.getBoundingClientRect().bottom;
        // The thread runs below the screen, yet the box is on it, at its bottom edge.
        expect(threadBottom).to.be.greaterThan(innerHeight);
        expect(Math.round(box.bottom)).to.be.at.most(innerHeight);
        expect(box.top).to.be.greaterThan(innerHeight / 2);
      });
    });
  });

  describe('when no more can be asked here', () => {
    it('takes the member to the page’s form with the text they had not sent', async () => {
      const { session, element } = await inSession<ConsultThread>(
        html`<consult-thread></consult-thread><consult-form></consult-form>`,
      );
      const user = await session.manager.ready();
      const created = await session.manager.client.createConsultation({
        userId: user.id,
        questions: ['Do I need a tetanus shot after a cat scratch?'],
      });
      element.consultationId = created.consultationId;
      await loaded(element);
      $<HTMLTextAreaElement>(element, '[part=followup-input]')!.focus();
      await sendKeys({ type: 'The scratch is red now.' });
      // Closed while the member was typing.
      await session.manager.client.addConsultationFollowUp(created.consultationId, { question: 'Two?' });
      await session.manager.client.addConsultationFollowUp(created.consultationId, { question: 'Three?' });
      session.manager.state.hint(created.consultationId);
      await waitUntil(() => $(element, '[part=start-new-button]'), 'the limit is reached', { timeout: 5000 });
      expect($<HTMLTextAreaElement>(element, '#unsent')!.value).to.equal('The scratch is red now.');

      const form = session.querySelector('consult-form')!;
      const started = oneEvent(element, 'consult-start-new');
      $<HTMLButtonElement>(element, '[part=start-new-button]')!.focus();
      await sendKeys({ press: 'Enter' });
      const event = await started;
      expect(event.detail).to.deep.equal({
        consultationId: created.consultationId,
        reason: 'limit',
        handedTo: 'consult-form',
      });
      await waitUntil(() => form.shadowRoot!.activeElement?.tagName === 'TEXTAREA', 'focus in the form', {
        timeout: 5000,
      });
      expect((form.shadowRoot!.activeElement as HTMLTextAreaElement).value).to.equal(
        'The scratch is red now.',
      );
      // Carried, not copied: the thread's box is empty now.
      await element.updateComplete;
      expect($(element, '#unsent')).to.equal(null);
      await expect(element).to.be.accessible();
    });

    it('takes the member into the form’s question box when nothing was typed', async () => {
      sessionStorage.clear(); // no draft of an earlier test in the form
      const { session, element } = await inSession<ConsultThread>(
        html`<consult-thread></consult-thread><consult-form></consult-form>`,
      );
      const user = await session.manager.ready();
      const created = await session.manager.client.createConsultation({
        userId: user.id,
        questions: ['Is a sore throat for a week a reason to see someone?', 'Two?', 'Three?'],
      });
      element.consultationId = created.consultationId;
      await loaded(element);
      await waitUntil(() => $(element, '[part=start-new-button]'), 'the limit is reached', { timeout: 5000 });
      expect($(element, '#unsent')).to.equal(null);
      const form = session.querySelector<ConsultForm>('consult-form')!;
      await waitUntil(() => form.shadowRoot!.querySelector('textarea'), 'the form is shown', {
        timeout: 5000,
      });

      const started = oneEvent(element, 'consult-start-new');
      $<HTMLButtonElement>(element, '[part=start-new-button]')!.focus();
      await sendKeys({ press: 'Enter' });
      expect((await started).detail.handedTo).to.equal('consult-form');
      await waitUntil(
        () => form.shadowRoot!.activeElement?.tagName === 'TEXTAREA',
        'focus in the form’s box',
        {
          timeout: 5000,
        },
      );
      expect(document.activeElement).to.equal(form);
      expect((form.shadowRoot!.activeElement as HTMLTextAreaElement).value).to.equal('');
    });

    it('says where to go, and tells the page, when it has no form to take the member to', async () => {
      const { backend, session, element, consultationId } = await newThread(['Can I fly with a cold?']);
      await waitUntil(() => session.manager.live, 'the live stream opens', { timeout: 5000 });
      await sandboxPost(backend, `/_sandbox/consultations/${consultationId}/cancel`);
      await waitUntil(() => $(element, '[part=start-new-button]'), 'the case is canceled', { timeout: 5000 });
      expect(shadowText(element)).not.to.contain('There is no question form on this page');
      const started = oneEvent(element, 'consult-start-new');
      $<HTMLButtonElement>(element, '[part=start-new-button]')!.click();
      expect((await started).detail).to.deep.equal({ consultationId, reason: 'canceled', handedTo: 'none' });
      await element.updateComplete;
      const where = 'There is no question form on this page';
      expect(shadowText(element)).to.contain(where);
      expect(announced(element)).to.contain(where);
      await expect(element).to.be.accessible();
    });
  });

  describe('when the consultation ends', () => {
    for (const [action, words] of [
      ['close', 'This consultation is closed.'],
      ['cancel', 'This consultation was canceled.'],
    ] as const) {
      it(`closes the follow-up box with the reason (${action})`, async () => {
        const { backend, session, element, consultationId } = await newThread([
          'Do I need a flu jab every year?',
        ]);
        await waitUntil(() => session.manager.live, 'the live stream opens', { timeout: 5000 });
        expect($(element, '[part=followup-input]')).to.exist;
        await sandboxPost(backend, `/_sandbox/consultations/${consultationId}/${action}`);
        await waitUntil(() => shadowText(element).includes(words), 'the reason shows', { timeout: 5000 });
        expect($(element, '[part=followup-input]')).to.equal(null);
        expect(shadowText(element)).to.contain('This question was not answered');
        // No question counter on an ended case; the way forward instead.
        expect(shadowText(element)).not.to.contain('questions used');
        expect($(element, '[part=start-new-button]')).to.exist;
        expect(announced(element)).to.contain(words);
        await expect(element).to.be.accessible();
      });
    }
  });

  describe('when the content is hostile', () => {
    it('renders hostile markdown and names with no script, handler, style or unsafe link', async () => {
      let alerted = false;
      const originalAlert = window.alert;
      window.alert = () => {
        alerted = true;
      };
      try {
        const { backend, session, element, consultationId } = await newThread([
          '<img src=x onerror=alert(1)> is this a rash?',
        ]);
        await waitUntil(() => session.manager.live, 'the live stream opens', { timeout: 5000 });
        const answer = [
          '**Bold** <img src=x onerror=alert(1)>',
          '[x](javascript:alert(1))',
          '<script>alert(1)</script>',
          '<svg onload=alert(1)><circle r="4"/></svg>',
          '<a href="data:text/html,<script>alert(1)</script>">data link</a>',
          '<div style="position:fixed;inset:0;background:red">overlay</div>',
          '<iframe src="https://example.org"></iframe>',
          '[fine](https://example.org/ok)',
        ].join('\n\n');
        await sandboxPost(backend, `/_sandbox/consultations/${consultationId}/answer`, {
          answer,
          professional: {
            name: '<img src=x onerror=alert(1)>',
            title: '<script>alert(1)</script>',
            specialties: ['<b onmouseover=alert(1)>x</b>'],
            licenses: [{ licenseNumber: '<svg onload=alert(1)>', countries: ['GB', 'not a country'] }],
            profileUrl: 'javascript:alert(1)',
          },
        });
        await waitUntil(() => $(element, '[part=answer] strong'), 'the answer renders', { timeout: 5000 });
        await new Promise((resolve) => setTimeout(resolve, 50));

        const root = element.shadowRoot!;
        // Only the element's own follow-up form may be a form; nothing from the content may add one.
        const content = [...root.querySelectorAll('[part=question], [part=answer], [part=professional]')];
        const forbidden = content.flatMap((part) => [
          ...part.querySelectorAll('script, svg, img, iframe, object, embed, form, input, [style]'),
        ]);
        expect(forbidden.map((node) => node.localName)).to.deep.equal([]);
        expect(root.querySelectorAll('script, svg, img, iframe, [style]').length).to.equal(0);
        for (const node of root.querySelectorAll('*')) {
          for (const attribute of node.attributes) {
            expect(attribute.name.startsWith('on'), `${node.localName} has ${attribute.name}`).to.equal(
              false,
            );
          }
        }
        for (const link of root.querySelectorAll('a')) {
          const href = link.getAttribute('href');
          if (href !== null) expect(href).to.match(/^(https:|mailto:|tel:)/);
        }
        expect(root.querySelector('[part=answer] a[href="https://example.org/ok"]')).to.exist;
        const professional = $(element, '[part=professional]')!;
        expect(professional.textContent).to.contain('<img src=x onerror=alert(1)>');
        expect(professional.querySelector('a'), 'no profile link for javascript:').to.equal(null);
        expect($(element, '[part=question]')!.textContent).to.contain(
          '<img src=x onerror=alert(1)> is this a rash?',
        );
        expect(alerted).to.equal(false);
      } finally {
        window.alert = originalAlert;
      }
    });

    it('links only https attachments and profiles, and says what it left out', async () => {
      const consultation = sample({
        questions: [
          {
            question: 'Here are my results.',
            answer: 'They look normal.',
            attachments: [
              'https://files.example.org/docs/lab%20results.pdf',
              'javascript:alert(1)',
              'http://insecure.example.org/scan.pdf',
              'not a url',
            ],
            professional: {
              name: 'Dr. Lukas Becker',
              title: 'Specialist in Internal Medicine',
              specialties: ['Internal medicine', 'Cardiology'],
              licenses: [{ licenseNumber: 'LÄK-BY 48213', countries: ['DE', 'AT'] }],
              profileUrl: 'http://professionals.example.org/lukas-becker',
            },
          },
        ],
      });
      const element = await fixture<ConsultThread>(
        html`<consult-thread .consultation=${consultation}></consult-thread>`,
      );
      await loaded(element);
      const links = $$(element, '.attachments a') as HTMLAnchorElement[];
      expect(links.map((a) => a.textContent)).to.deep.equal(['lab results.pdf']);
      expect(links[0]!.rel).to.equal('noopener noreferrer');
      expect(shadowText(element)).to.contain(
        '3 attachments were left out because their links are not secure.',
      );
      expect(shadowText(element)).not.to.contain('javascript:');
      expect($(element, '[part=professional] a')).to.equal(null);
      expect(shadowText(element)).to.contain('Licence LÄK-BY 48213 (Germany and Austria)');
      const specialties = $$(element, '[part=professional] .specialties li').map((li) => li.textContent);
      expect(specialties, 'each specialty as it is, never joined in another language').to.deep.equal([
        'Internal medicine',
        'Cardiology',
      ]);
      await expect(element).to.be.accessible();
    });
  });

  describe('in every language', () => {
    const english = [
      'Waiting for a professional',
      'questions used',
      'Ask a follow-up question',
      'Send question',
      'Most questions are answered',
      'Start a new consultation',
    ];

    for (const lang of LANGUAGES) {
      it(`renders in ${lang}`, async () => {
        const element = await fixture<ConsultThread>(
          html`<consult-thread lang=${lang} .consultation=${sample()}></consult-thread>`,
        );
        await loaded(element);
        const base = $(element, '[part=base]')!;
        expect(base.getAttribute('lang')).to.equal(lang);
        expect(base.getAttribute('dir')).to.equal(lang === 'ar' ? 'rtl' : 'ltr');
        const text = shadowText(element);
        if (lang !== 'en')
          for (const words of english) expect(text, `${lang}: ${words}`).not.to.contain(words);
        const region = new Intl.DisplayNames([lang], { type: 'region' }).of('GB')!;
        expect(text).to.contain(region);
        await expect(element).to.be.accessible();
      });
    }

    /** A used-up consultation whose answer has `insecure` attachments the thread leaves out. */
    const usedUp = (insecure: number) =>
      sample({
        questions: [
          {
            question: 'Here are my results.',
            answer: 'They look normal.',
            attachments: Array.from({ length: insecure }, (_, i) => `http://insecure.example.org/${i}.pdf`),
          },
          { question: 'And the next ones?' },
          { question: 'And after that?' },
        ],
      });

    it('formats its counts with Intl, as the browser writes Arabic numbers', async () => {
      const element = await fixture<ConsultThread>(
        html`<consult-thread lang="ar" .consultation=${usedUp(1200)}></consult-thread>`,
      );
      await loaded(element);
      const ar = new Intl.NumberFormat('ar');
      const text = shadowText(element);
      expect(text).to.contain(`هذه الاستشارة (${ar.format(3)}).`);
      expect(text).to.contain(`خلال ${ar.format(24)} ساعة`);
      expect(text).to.contain(`عدد المرفقات المحذوفة لأن روابطها غير آمنة: ${ar.format(1200)}`);
      // Grouped as the language groups: Latin digits still show Intl was asked.
      expect(ar.format(1200)).not.to.equal('1200');
    });

    it('shows Arabic-Indic digits in its counts when the partner asks for them (ar-u-nu-arab)', async () => {
      const element = await fixture<ConsultThread>(
        html`<consult-thread lang="ar-u-nu-arab" .consultation=${usedUp(2)}></consult-thread>`,
      );
      await loaded(element);
      const text = shadowText(element);
      expect(text).to.contain('هذه الاستشارة (٣).');
      expect(text).to.contain('خلال ٢٤ ساعة');
      expect(text).to.contain('عدد المرفقات المحذوفة لأن روابطها غير آمنة: ٢');
      for (const count of $$(element, '#followup-notice, .attachments .note, [part=waiting] .expect')) {
        expect(count.textContent).not.to.match(/[0-9]/);
      }
    });

    it('groups a large count as the language does and keeps the plural choice', async () => {
      const german = await fixture<ConsultThread>(
        html`<consult-thread lang="de" .consultation=${usedUp(1200)}></consult-thread>`,
      );
      await loaded(german);
      expect(shadowText(german)).to.contain('1.200 Anhänge wurden weggelassen');
      const english = await fixture<ConsultThread>(
        html`<consult-thread lang="en" .consultation=${usedUp(1)}></consult-thread>`,
      );
      await loaded(english);
      expect(shadowText(english)).to.contain('One attachment was left out because its link is not secure.');
      expect(shadowText(english)).to.contain('You have asked all 3 questions of this consultation.');
    });

    it('follows an Arabic-speaking member right to left', async () => {
      const { element } = await inSession<ConsultThread>(
        html`<consult-thread consultation-id="cns_demo_noor_fever"></consult-thread>`,
        { member: 'noor' },
      );
      await loaded(element);
      expect($(element, '[part=base]')!.getAttribute('dir')).to.equal('rtl');
      expect(shadowText(element)).to.contain('الإمارات');
      expect(shadowText(element)).to.contain('تمت الإجابة');
    });

    it('names an Arabic member’s professional by role and specialties in Arabic, on screen and in the announcement', async () => {
      const { backend, session, element } = await inSession<ConsultThread>(
        html`<consult-thread></consult-thread>`,
        { member: 'noor' },
      );
      const user = await session.manager.ready();
      const created = await session.manager.client.createConsultation({
        userId: user.id,
        questions: ['ابني عمره سنتان وعنده طفح أحمر على بطنه'],
      });
      element.consultationId = created.consultationId;
      await waitUntil(() => $(element, '[part=question]'), 'the thread loads', { timeout: 5000 });
      // The sandbox's own answer: a child's rash goes to its paediatrician, in Arabic.
      await sandboxPost(backend, `/_sandbox/consultations/${created.consultationId}/answer`);
      await waitUntil(() => $(element, '[part=answer]'), 'the answer arrives', { timeout: 5000 });
      await loaded(element);
      expect($(element, '[part=answer]')!.textContent).to.contain('كوب');

      const who = $(element, '[part=professional]')!;
      expect(who.querySelector('.role')!.textContent).to.equal('طب الأطفال');
      expect($(element, '.status-line')!.textContent).to.contain('طب الأطفال');
      const specialties = [...who.querySelectorAll('.specialties li')].map((li) => li.textContent);
      expect(specialties).to.deep.equal(['طب الأطفال', 'صحة المراهقين']);
      await waitUntil(() => announced(element).includes('طب الأطفال'), 'the announcement names the role', {
        timeout: 5000,
      });
      expect(announced(element)).to.contain('أجاب');
      expect(announced(element)).not.to.match(/Paediatric/);
      expect(shadowText(element)).not.to.match(/Paediatric|Adolescent/);
    });

    it('shows a role the translations do not know as the service sent it', async () => {
      const element = await fixture<ConsultThread>(
        html`<consult-thread
          lang="ar"
          .consultation=${sample({
            status: 'resolved',
            questions: [
              {
                question: 'سؤال',
                answer: 'جواب',
                professional: {
                  name: 'Dr. Imogen Hale',
                  title: 'Sports Physician',
                  specialties: ['Sports medicine', 'General practice'],
                  licenses: [],
                },
              },
            ],
          })}
        ></consult-thread>`,
      );
      await loaded(element);
      const who = $(element, '[part=professional]')!;
      expect(who.querySelector('.role')!.textContent).to.equal('Sports Physician');
      const specialties = [...who.querySelectorAll('.specialties li')].map((li) => li.textContent);
      expect(specialties).to.deep.equal(['Sports medicine', 'الطب العام']);
    });
  });
});
