/**
 * <prescription-request> driven as a member would, against the in-page sandbox behind the real
 * proxy: every question kind, validation, one request however often it is sent, the draft kept
 * for the tab and wiped on sign-out, refusals, a broken survey named for the partner, Arabic.
 */
import { expect, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { PrescriptionRequest } from '../../src/elements/prescription-request/prescription-request.js';
import type { Survey } from '../../src/elements/prescription-request/survey.js';
import type { PrescriptionSubmittedEvent } from '../../src/elements/shared/events.js';
import { createDemoBackend } from '../../src/sandbox/demo-backend.js';
import { announced, inSession, shadowText, upstreamCalls, withFailures } from './support/backend.js';
import { $, $$, waitUntil } from './support/elements.js';

PrescriptionRequest.define('prescription-request');

const SURVEY: Survey = {
  questions: [
    {
      id: 'medicine',
      kind: 'text',
      required: true,
      label: { en: 'Which medicine do you need?', ar: 'ما الدواء الذي تحتاجه؟' },
      hint: 'Name and strength, as on the pack.',
      maxLength: 40,
    },
    {
      id: 'before',
      kind: 'yes-no',
      required: true,
      label: { en: 'Have you taken it before?', ar: 'هل تناولته من قبل؟' },
    },
    {
      id: 'how-often',
      kind: 'single',
      required: true,
      label: 'How often do you take it?',
      options: [
        { value: 'daily', label: 'Every day' },
        { value: 'weekly', label: 'Every week' },
        { value: 'when-needed', label: 'When needed' },
      ],
    },
    {
      id: 'conditions',
      kind: 'multiple',
      label: 'Do any of these apply?',
      options: [
        { value: 'pregnant', label: 'Pregnant or breastfeeding' },
        { value: 'kidney', label: 'Kidney disease' },
        { value: 'allergy', label: 'Allergic to a medicine' },
      ],
    },
  ],
};

const PRESCRIPTION = /\/prescription$/;
const choice = (element: Element, text: string) =>
  $$(element, 'label.choice')
    .find((label) => label.textContent!.trim() === text)!
    .querySelector('input')!;

async function request(options: Parameters<typeof inSession>[1] = {}) {
  const fixture = await inSession<PrescriptionRequest>(
    html`<prescription-request .survey=${SURVEY}>
      <p slot="no-subscription">Prescriptions come with Northwind Plus.</p>
    </prescription-request>`,
    options,
  );
  await waitUntil(() => $(fixture.element, 'form'), 'the form shows');
  return fixture;
}

async function fillIn(element: PrescriptionRequest): Promise<void> {
  $<HTMLTextAreaElement>(element, '#q-medicine')!.focus();
  await sendKeys({ type: 'Salbutamol 100 micrograms' });
  choice(element, 'Yes').click();
  choice(element, 'When needed').click();
  choice(element, 'Allergic to a medicine').click();
  choice(element, 'Kidney disease').click();
  await element.updateComplete;
}

describe('<prescription-request>', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => sessionStorage.clear());

  it('renders every question kind accessibly, each with its label', async () => {
    const { element } = await request();
    expect($<HTMLLabelElement>(element, 'label[for=q-medicine]')!.textContent).to.contain(
      'Which medicine do you need?',
    );
    expect($(element, '#q-medicine')!.getAttribute('aria-describedby')).to.contain('q-medicine-hint');
    const legends = $$(element, 'legend').map((l) => l.textContent!.replace(/\s+/g, ' ').trim());
    expect(legends).to.deep.equal([
      'Have you taken it before?',
      'How often do you take it?',
      'Do any of these apply? (optional)',
    ]);
    expect($$(element, 'input[type=radio]')).to.have.length(5);
    expect($$(element, 'input[type=checkbox]')).to.have.length(3);
    await expect(element).to.be.accessible();
  });

  it('says which required questions are unanswered, and moves focus to the first', async () => {
    const { element, backend } = await request();
    $(element, '[part~=submit-button]')!.click();
    await element.updateComplete;
    expect($$(element, '.error').map((e) => e.textContent)).to.deep.equal([
      'Please answer this question.',
      'Please answer this question.',
      'Please answer this question.',
    ]);
    expect(element.shadowRoot!.activeElement?.id).to.equal('q-medicine');
    expect(announced(element)).to.contain('3 questions need your attention.');
    expect(upstreamCalls(backend, 'POST', PRESCRIPTION)).to.equal(0);
    await expect(element).to.be.accessible();
  });

  it('refuses an answer that is too long, saying by how much it must shrink', async () => {
    const { element } = await request();
    $<HTMLTextAreaElement>(element, '#q-medicine')!.focus();
    await sendKeys({ type: 'x'.repeat(45) });
    await element.updateComplete;
    // In the question form's words: how many too many, never "0 characters left".
    expect($(element, '.count')!.textContent!.trim()).to.equal('5 characters too many');
    expect(shadowText(element)).to.contain('This answer is too long: shorten it to 40 characters or fewer.');
    expect(shadowText(element)).not.to.contain('0 characters left');
    expect($(element, '#q-medicine')!.getAttribute('aria-invalid')).to.equal('true');
  });

  it('sends the answers once, however often it is sent, and reports ids only', async () => {
    const { element, backend } = await request();
    await fillIn(element);
    const submitted = oneEvent(element, 'prescription-submitted') as Promise<PrescriptionSubmittedEvent>;
    const button = $(element, '[part~=submit-button]')!;
    button.click();
    button.click();
    button.click();
    const event = await submitted;
    expect(Object.keys(event.detail).sort()).to.deep.equal(['prescriptionId', 'status']);
    expect(event.detail.status).to.equal('received');
    expect(upstreamCalls(backend, 'POST', PRESCRIPTION)).to.equal(1);
    const stored = backend.sandbox.state.prescriptions.get(event.detail.prescriptionId)!;
    expect(stored.indicationSurvey).to.deep.equal({
      medicine: 'Salbutamol 100 micrograms',
      before: true,
      'how-often': 'when-needed',
      conditions: ['kidney', 'allergy'],
    });
    await element.updateComplete;
    expect(shadowText(element)).to.contain('Your prescription request was sent');
    // What the service let us know, and no status it will never report.
    expect(shadowText(element)).to.contain(
      `The service has your request, reference ${event.detail.prescriptionId}. Its progress is not shown here.`,
    );
    expect(shadowText(element)).not.to.match(/Status|hear back/);
    expect(element.shadowRoot!.activeElement?.id).to.equal('sent');
    expect(sessionStorage.length, 'the draft is gone once sent').to.equal(0);
    await expect(element).to.be.accessible();

    // What was asked for stays on a card, with its reference and time.
    const card = () => $(element, '[part~=request]')!;
    expect(card().querySelector('.asked')!.textContent).to.equal('Salbutamol 100 micrograms');
    expect(card().querySelector('.reference')!.textContent!.trim()).to.equal(
      `Reference ${event.detail.prescriptionId}`,
    );
    expect(card().querySelector('time')!.getAttribute('datetime')).to.match(/^\d{4}-\d{2}-\d{2}T/);

    // A new request starts empty; the card stays above it.
    [...element.shadowRoot!.querySelectorAll('button')]
      .find((b) => b.textContent!.includes('another'))!
      .click();
    await element.updateComplete;
    expect($<HTMLTextAreaElement>(element, '#q-medicine')!.value).to.equal('');
    expect(card().querySelector('.asked')!.textContent).to.equal('Salbutamol 100 micrograms');

    // It stays for the session when the element leaves the page and comes back; never in storage.
    const parent = element.parentElement!;
    element.remove();
    parent.append(element);
    await element.updateComplete;
    expect(card().querySelector('.asked')!.textContent).to.equal('Salbutamol 100 micrograms');
    expect(JSON.stringify({ ...sessionStorage })).not.to.contain('Salbutamol');
    await expect(element).to.be.accessible();

    // Signing out takes it away.
    (parent as HTMLElement & { signOut(): void }).signOut();
    await element.updateComplete;
    expect(shadowText(element)).not.to.contain('Salbutamol');
  });

  it('a request sent on an earlier visit is found again: its reference and time, not what was asked', async () => {
    const first = await request();
    await fillIn(first.element);
    const submitted = oneEvent(
      first.element,
      'prescription-submitted',
    ) as Promise<PrescriptionSubmittedEvent>;
    $(first.element, '[part~=submit-button]')!.click();
    const { prescriptionId } = (await submitted).detail;
    first.session.remove();
    sessionStorage.clear();

    // A new visit (another tab or device): a new session on the same proxy.
    const { element } = await request({ backend: first.backend });
    await waitUntil(() => $(element, '[part~=request]'), 'the earlier request shows');
    const card = $(element, '[part~=request]')!;
    expect(card.querySelector('.reference')!.textContent!.trim()).to.equal(`Reference ${prescriptionId}`);
    expect(card.querySelector('time')!.getAttribute('datetime')).to.match(/^\d{4}-\d{2}-\d{2}T/);
    // What was asked for is health text: kept by nothing beyond the page that sent it.
    expect(card.querySelector('.asked')).to.equal(null);
    expect(shadowText(element)).not.to.contain('Salbutamol');
    expect(shadowText(element)).not.to.match(/Status/);
    await expect(element).to.be.accessible();
  });

  it('keeps the answers when sending fails, and a retry with the same answers makes one request', async () => {
    const broken = withFailures(createDemoBackend());
    const { element, backend } = await request({ backend: broken.backend });
    await fillIn(element);
    broken.fail(true);
    $(element, '[part~=submit-button]')!.click();
    await waitUntil(() => shadowText(element).includes('could not be sent'), 'the failure shows', {
      timeout: 15000,
    });
    expect($<HTMLTextAreaElement>(element, '#q-medicine')!.value).to.equal('Salbutamol 100 micrograms');
    expect(element.shadowRoot!.activeElement?.id).to.equal('problem');
    await expect(element).to.be.accessible();
    broken.fail(false);
    $(element, '[part~=submit-button]')!.click();
    await waitUntil(() => shadowText(element).includes('was sent'), 'sent on retry', { timeout: 5000 });
    expect(backend.sandbox.state.prescriptions.size).to.equal(1);
  });

  it('keeps a draft for the tab’s lifetime, and wipes it on sign-out', async () => {
    const first = await request();
    await fillIn(first.element);
    expect(sessionStorage.length).to.equal(1);
    first.element.remove();
    // The same member comes back (a reload): the answers are there.
    const again = document.createElement('prescription-request') as PrescriptionRequest;
    again.survey = SURVEY;
    first.session.append(again);
    await waitUntil(() => $(again, 'form'), 'the form shows again');
    expect($<HTMLTextAreaElement>(again, '#q-medicine')!.value).to.equal('Salbutamol 100 micrograms');
    expect(choice(again, 'When needed').checked).to.equal(true);
    first.session.signOut();
    await again.updateComplete;
    expect(sessionStorage.length, 'nothing left in storage').to.equal(0);
    expect(shadowText(again)).not.to.contain('Salbutamol');
    expect((again as unknown as { answers: object }).answers).to.deep.equal({});
  });

  it('shows the partner’s offer when the service refuses for want of a plan', async () => {
    const { element, backend } = await request();
    await fillIn(element);
    const refuse: typeof fetch = async (input, init) =>
      /\/prescription$/.test(String(input instanceof Request ? input.url : input))
        ? new Response(
            JSON.stringify({ code: 'subscription_required', title: 'No active subscription', status: 403 }),
            {
              status: 403,
              headers: { 'content-type': 'application/problem+json' },
            },
          )
        : backend.fetch(input, init);
    element.activeSession!.configure({ fetch: refuse, signIn: backend.signInAs('alex') });
    await element.activeSession!.ready();
    $(element, '[part~=submit-button]')!.click();
    await waitUntil(() => shadowText(element).includes('not included in your plan'), 'the refusal shows');
    const slot = $<HTMLSlotElement>(element, 'slot[name=no-subscription]')!;
    expect(slot.assignedElements()[0]!.textContent).to.contain('Northwind Plus');
    await expect(element).to.be.accessible();
  });

  it('names every mistake in a broken survey for the partner, and tells the member it is unavailable', async () => {
    const errors: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args.join(' '));
    try {
      const { element } = await inSession<PrescriptionRequest>(
        html`<prescription-request
          .survey=${
            {
              questions: [
                { id: 'a b', kind: 'text', label: 'x' },
                {
                  id: 'pick',
                  kind: 'single',
                  label: 'Pick',
                  options: [{ value: 'only', label: 'Only one' }],
                },
                { id: 'pick', kind: 'scale', label: '' },
              ],
            } as unknown as Survey
          }
        ></prescription-request>`,
      );
      await element.updateComplete;
      expect(shadowText(element)).to.contain('Prescription requests are not available here right now.');
      const message = errors.join('\n');
      expect(message).to.contain('questions[0].id must be 1 to 100 letters');
      expect(message).to.contain('questions[1].options must list at least two choices');
      expect(message).to.contain('questions[2].id "pick" is used twice');
      expect(message).to.contain('questions[2].kind must be one of text, yes-no, single, multiple');
      expect(message).to.contain('questions[2].label must be a text');
      await expect(element).to.be.accessible();
    } finally {
      console.error = original;
    }
  });

  it('reads its survey from a child script, and says when that is not JSON', async () => {
    const { element } = await inSession<PrescriptionRequest>(
      html`<prescription-request>
        <script type="application/json">
          { "questions": [{ "id": "why", "kind": "text", "required": true, "label": "Why do you need it?" }] }
        </script>
      </prescription-request>`,
    );
    await waitUntil(() => $(element, 'form'), 'the form shows');
    expect($(element, 'label[for=q-why]')!.textContent).to.contain('Why do you need it?');

    const errors: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args.join(' '));
    try {
      const broken = await inSession<PrescriptionRequest>(
        html`<prescription-request>
          <script type="application/json">
            { "questions": [ }
          </script>
        </prescription-request>`,
      );
      await broken.element.updateComplete;
      expect(shadowText(broken.element)).to.contain('not available');
      expect(errors.join('\n')).to.contain('is not JSON');
    } finally {
      console.error = original;
    }
  });

  it('asks in Arabic, right to left, with the labels the partner gave for Arabic', async () => {
    const { element } = await request({ member: 'noor' });
    // The member's language comes with the member, once signed in.
    await waitUntil(() => $(element, '[part~=base]')!.getAttribute('dir') === 'rtl', 'right to left', {
      timeout: 5000,
    });
    expect($(element, 'label[for=q-medicine]')!.textContent).to.contain('ما الدواء الذي تحتاجه؟');
    expect(shadowText(element)).to.contain('نعم');
    expect(shadowText(element)).to.contain('إرسال الطلب');
    await expect(element).to.be.accessible();
  });
});
