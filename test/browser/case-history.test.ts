import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { CaseHistory } from '../../src/elements/case-history/case-history.js';
import { ConsultThread } from '../../src/elements/consult-thread/consult-thread.js';
import { LANGUAGES } from '../../src/elements/shared/localize.js';
import { SessionManager } from '../../src/session/session.js';
import { createDemoBackend, type DemoBackend } from '../../src/sandbox/demo-backend.js';
import { DEMO_USER_IDS } from '../../src/sandbox/seed.js';
import { announced, inSession, scriptedHistory, shadowText, withFailures } from './support/backend.js';
import { $, hasFocus, pressTryAgain, sandboxPost, waitUntil } from './support/elements.js';

CaseHistory.define('case-history');
ConsultThread.define('consult-thread');

const rows = (element: CaseHistory) => [
  ...element.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part=item]'),
];
/** Each row as a whole: its button (what it is named), and the subject, preview and count beside it. */
const cards = (element: CaseHistory) => rows(element).map((button) => button.closest('li')!);
const listed = (element: CaseHistory) =>
  waitUntil(() => rows(element).length > 0, 'the list loads', { timeout: 5000 });
const thread = (element: CaseHistory) => $<ConsultThread>(element, 'consult-thread');

const ALEX_NEWEST_FIRST = [
  'cns_demo_alex_vitamin',
  'cns_demo_alex_bp',
  'cns_demo_alex_rash',
  'cns_demo_alex_sleep',
];

const firstQuestion = (backend: DemoBackend, id: string) =>
  backend.sandbox.state.consultations.get(id)!.questions[0]!.question;

/** A signed-in session whose service fails every request, with a <case-history> added once it does. */
async function failingHistory() {
  const broken = withFailures(createDemoBackend());
  const fixtureResult = await inSession<HTMLElement>(html`<span></span>`, { backend: broken.backend });
  const { session } = fixtureResult;
  broken.fail(true);
  const element = document.createElement('case-history') as CaseHistory;
  session.append(element);
  await waitUntil(() => $(element, '[role=alert] button'), 'the error shows', { timeout: 15000 });
  return { ...fixtureResult, element, fail: broken.fail };
}

describe('<case-history>', () => {
  it('is accessible with a list', async () => {
    const { element } = await inSession<CaseHistory>(html`<case-history></case-history>`);
    await listed(element);
    await expect(element).to.be.accessible();
  });

  it('is accessible and busy while loading', async () => {
    const pending = new SessionManager({ endpoint: '/consult', signIn: () => new Promise(() => {}) });
    const element = await fixture<CaseHistory>(html`<case-history .session=${pending}></case-history>`);
    expect($(element, '[part=base]')!.getAttribute('aria-busy')).to.equal('true');
    expect(shadowText(element)).to.contain('Loading your consultations');
    // Placeholders shaped like the content, hidden from assistive technology, which hears the words.
    expect(
      element.shadowRoot!.querySelectorAll('[aria-hidden=true] .placeholder .skeleton-text').length,
    ).to.be.greaterThan(2);
    await expect(element).to.be.accessible();
  });

  it('has sensible defaults', () => {
    const element = document.createElement('case-history') as CaseHistory;
    expect(element.selected).to.equal(undefined);
    expect(element.chunkSize).to.equal(20);
    expect(element.endpoint).to.equal(undefined);
  });

  it('maps its attributes to properties', async () => {
    const pending = new SessionManager({ endpoint: '/consult', signIn: () => new Promise(() => {}) });
    const element = await fixture<CaseHistory>(
      html`<case-history
        open="cns_demo_alex_bp"
        chunk-size="20"
        endpoint="/elsewhere"
        .session=${pending}
      ></case-history>`,
    );
    expect(element.selected).to.equal('cns_demo_alex_bp');
    expect(element.chunkSize).to.equal(20);
    expect(element.endpoint).to.equal('/elsewhere');
    element.removeAttribute('open');
    expect(element.selected).to.equal(null);
  });

  describe('when the member has no consultations', () => {
    it('shows the empty state', async () => {
      const { element } = await inSession<CaseHistory>(html`<case-history></case-history>`, {
        member: 'sam',
      });
      await waitUntil(() => $(element, '[part=empty]'), 'the empty state shows', { timeout: 5000 });
      expect(shadowText(element)).to.contain('You have not asked a doctor yet');
      expect($(element, '[part=base]')!.getAttribute('aria-busy')).to.equal('false');
      await expect(element).to.be.accessible();
    });

    it('shows the partner’s own empty content from the empty slot', async () => {
      const { element } = await inSession<CaseHistory>(
        html`<case-history><p slot="empty">Ask our doctors anything.</p></case-history>`,
        { member: 'sam' },
      );
      await waitUntil(() => $(element, '[part=empty]'), 'the empty state shows', { timeout: 5000 });
      const slot = $<HTMLSlotElement>(element, 'slot[name=empty]')!;
      expect(slot.assignedElements()[0]!.textContent).to.equal('Ask our doctors anything.');
    });
  });

  describe('when the history cannot be loaded', () => {
    it('says so, is accessible, and loads on Try again', async () => {
      const backend = createDemoBackend();
      await backend.ready;
      let failing = true;
      const flaky: typeof fetch = (input, init) =>
        failing && String(input).includes('/case-history')
          ? Promise.resolve(new Response('{}', { status: 500 }))
          : backend.fetch(input, init);
      const manager = new SessionManager({
        endpoint: backend.endpoint,
        fetch: flaky,
        signIn: backend.signInAs('alex'),
      });
      const element = await fixture<CaseHistory>(html`<case-history .session=${manager}></case-history>`);
      await waitUntil(() => $(element, '[role=alert]'), 'the error shows', { timeout: 5000 });
      expect(shadowText(element)).to.contain('We could not load your consultations');
      await expect(element).to.be.accessible();
      failing = false;
      $<HTMLButtonElement>(element, '[role=alert] button')!.click();
      await listed(element);
      expect(rows(element)).to.have.length(4);
    });

    it('moves focus to the list once Try again has loaded it', async function () {
      this.timeout(30000);
      const { fail, element } = await failingHistory();
      fail(false);
      await pressTryAgain(element);
      await listed(element);
      await element.updateComplete;
      expect(hasFocus(element, rows(element)[0]), 'focus is on the first row').to.equal(true);
      expect(rows(element)[0]!.tabIndex).to.equal(0);
    });

    it('moves focus to the new error when Try again fails again', async function () {
      this.timeout(30000);
      const { fail, element } = await failingHistory();
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
      const notice = $(element, '[role=alert]')!;
      expect(notice.getAttribute('tabindex')).to.equal('-1');
      expect(notice.getAttribute('part')).to.equal('notice');
      fail(false);
      await expect(element).to.be.accessible();
    });

    it('leaves focus alone when it was elsewhere as Try again was pressed', async function () {
      this.timeout(30000);
      const { fail, session, element } = await failingHistory();
      fail(false);
      const outside = document.createElement('button');
      outside.textContent = 'Elsewhere on the page';
      session.before(outside);
      outside.focus();
      $<HTMLButtonElement>(element, '[role=alert] button')!.click();
      await listed(element);
      await element.updateComplete;
      expect(document.activeElement === outside, 'focus stays where the member put it').to.equal(true);
      expect(element.shadowRoot!.activeElement === null, 'nothing in the element has focus').to.equal(true);
      outside.remove();
    });
  });

  describe('when alex opens the history', () => {
    it('reopens the consultation that was open after a reload, and forgets it at sign-out', async () => {
      const { session, element } = await inSession<CaseHistory>(html`<case-history></case-history>`);
      await listed(element);
      rows(element)[1]!.click();
      await waitUntil(() => thread(element), 'the thread opens', { timeout: 5000 });
      const stored = () =>
        Object.keys(sessionStorage)
          .filter((key) => key.endsWith(':history:open'))
          .map((key) => sessionStorage.getItem(key));
      // Only the id is kept, with the page load that opened it.
      const [mark] = stored();
      expect(JSON.parse(mark!)).to.deep.equal({ id: 'cns_demo_alex_bp', page: performance.timeOrigin });

      // Another list on the same page starts from the list.
      const sibling = document.createElement('case-history') as CaseHistory;
      session.append(sibling);
      await listed(sibling);
      expect(thread(sibling)).to.equal(null);
      sibling.remove();

      // A reload: the mark is an earlier page load's, and a new list in the tab reopens it.
      const key = Object.keys(sessionStorage).find((k) => k.endsWith(':history:open'))!;
      sessionStorage.setItem(key, JSON.stringify({ id: 'cns_demo_alex_bp', page: 1 }));
      element.remove();
      const again = document.createElement('case-history') as CaseHistory;
      session.append(again);
      await waitUntil(() => thread(again), 'the consultation opens again', { timeout: 5000 });
      expect(again.selected).to.equal('cns_demo_alex_bp');
      // Back to the list: nothing to reopen.
      $<HTMLButtonElement>(again, '[part~=back-button]')!.click();
      await again.updateComplete;
      expect(stored()).to.deep.equal([]);

      rows(again)[0]!.click();
      await again.updateComplete;
      expect(stored()).to.have.length(1);
      session.signOut();
      expect(stored()).to.deep.equal([]);
    });

    it('lists the four cases newest first, with badges, dates and questions used', async () => {
      const { backend, element } = await inSession<CaseHistory>(html`<case-history></case-history>`);
      await listed(element);
      const items = cards(element);
      expect(items.map((row) => row.querySelector('.title')!.textContent)).to.deep.equal(
        ALEX_NEWEST_FIRST.map((id) => firstQuestion(backend, id)),
      );
      // A case no one has taken yet says what it waits for; the others show their status chip.
      expect(items.map((row) => row.querySelector('[part=status]')?.textContent!.trim())).to.deep.equal([
        undefined,
        'Answered',
        'Answered',
        'Closed',
      ]);
      expect(items[0]!.querySelector('.who')!.textContent).to.equal('Waiting for a professional');
      // When the latest message came is known only for what this tab saw arrive: else the case's date.
      const full = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
      ALEX_NEWEST_FIRST.forEach((id, index) => {
        const createdAt = backend.sandbox.state.consultations.get(id)!.createdAt;
        const time = items[index]!.querySelector('time')!;
        expect(time.getAttribute('datetime')).to.equal(createdAt);
        expect(time.title).to.equal(full.format(new Date(createdAt)));
      });
      // A one-line preview of the latest message, with who sent it.
      const previews = items.map((row) => row.querySelector('[part=preview]')!);
      expect(previews[0]!.querySelector('.from')!.textContent).to.equal('You:');
      const answered = backend.sandbox.state.consultations.get(ALEX_NEWEST_FIRST[1]!)!;
      const last = answered.questions.findLast((q) => q.answer !== undefined)!;
      expect(previews[1]!.querySelector('.from')!.textContent).to.equal(`${last.professional!.name}:`);
      expect(previews[1]!.querySelector('.text')!.textContent).not.to.match(/[*#[\]]/);
      // Closed: no question counter.
      expect(items[3]!.textContent).not.to.contain('of 3 questions');
      expect(items[0]!.textContent).to.contain('1 of 3 questions');
      expect(items[2]!.textContent).to.contain('2 of 3 questions');
      expect($(element, '[part=list]')!.getAttribute('aria-label')).to.equal('Your consultations');
    });

    for (const [lang, label] of [
      ['en', 'Answer:'],
      ['de', 'Antwort:'],
    ] as const) {
      it(`calls an answer without the professional's name an answer, not the member's words (${lang})`, async () => {
        // The service gives a professional's details only "when available": such an answer was
        // shown as "You: …", as if the member had written it.
        const element = await fixture<CaseHistory>(
          html`<case-history lang=${lang} .session=${scriptedHistory(2)}></case-history>`,
        );
        await listed(element);
        const preview = cards(element)[0]!.querySelector('[part=preview]')!;
        expect(preview.querySelector('.from')!.textContent).to.equal(label);
        expect(preview.querySelector('.text')!.textContent).to.equal('An answer.');
      });
    }

    it('opens a case with the list’s record and goes back with focus restored', async () => {
      const { backend, element } = await inSession<CaseHistory>(html`<case-history></case-history>`);
      await listed(element);
      const readsBefore = backend.sandbox.requests.filter((r) =>
        r.path.endsWith('/cns_demo_alex_rash'),
      ).length;
      rows(element)[2]!.click();
      await element.updateComplete;
      expect(element.selected).to.equal('cns_demo_alex_rash');
      const opened = thread(element)!;
      expect(opened.getAttribute('consultation-id')).to.equal('cns_demo_alex_rash');
      expect(element.shadowRoot!.activeElement).to.equal($(element, '[part=back-button]'));
      await waitUntil(
        () => opened.shadowRoot!.querySelectorAll('[part=answer] strong').length === 2,
        'the thread',
        {
          timeout: 5000,
        },
      );
      expect(shadowText(opened)).to.contain('Dr. Sofía Martínez');
      // One status chip, the same in the list and in the thread: words, shape and colours.
      const style = (chip: Element) => {
        const { color, backgroundColor, borderRadius, fontSize } = getComputedStyle(chip);
        // The words shown; the thread's chip adds a label for screen readers, a row names itself.
        const shown = [...chip.childNodes].filter(
          (n) => !(n as Element).classList?.contains('visually-hidden'),
        );
        const text = shown
          .map((n) => n.textContent)
          .join('')
          .trim();
        return { text, color, backgroundColor, borderRadius, fontSize };
      };
      $<HTMLButtonElement>(element, '[part=back-button]')!.click();
      await element.updateComplete;
      const inList = style(rows(element)[2]!.querySelector('[part=status]')!);
      rows(element)[2]!.click();
      await element.updateComplete;
      const reopened = thread(element)!;
      await waitUntil(() => reopened.shadowRoot!.querySelector('[part=status]'), 'the thread shows');
      expect(style(reopened.shadowRoot!.querySelector('[part=status]')!)).to.deep.equal(inList);
      expect(inList.backgroundColor).not.to.equal('rgba(0, 0, 0, 0)');
      const readsAfter = backend.sandbox.requests.filter((r) =>
        r.path.endsWith('/cns_demo_alex_rash'),
      ).length;
      expect(readsAfter, 'the thread used the list’s record').to.equal(readsBefore);
      await expect(element).to.be.accessible();

      $<HTMLButtonElement>(element, '[part=back-button]')!.click();
      await element.updateComplete;
      expect(thread(element)).to.equal(null);
      expect(element.selected).to.equal(undefined);
      expect(element.shadowRoot!.activeElement).to.equal(rows(element)[2]);
    });

    it('works from the keyboard: one tab stop, arrows, Enter to open', async () => {
      const { element } = await inSession<CaseHistory>(html`<case-history></case-history>`);
      await listed(element);
      expect(rows(element).map((row) => row.tabIndex)).to.deep.equal([0, -1, -1, -1]);
      rows(element)[0]!.focus();
      await sendKeys({ press: 'ArrowDown' });
      await sendKeys({ press: 'ArrowDown' });
      await element.updateComplete;
      expect(element.shadowRoot!.activeElement).to.equal(rows(element)[2]);
      expect(rows(element).map((row) => row.tabIndex)).to.deep.equal([-1, -1, 0, -1]);
      await sendKeys({ press: 'End' });
      await element.updateComplete;
      expect(element.shadowRoot!.activeElement).to.equal(rows(element)[3]);
      await sendKeys({ press: 'ArrowUp' });
      await element.updateComplete;
      expect(element.shadowRoot!.activeElement).to.equal(rows(element)[2]);

      await sendKeys({ press: 'Enter' });
      await element.updateComplete;
      expect(element.selected).to.equal('cns_demo_alex_rash');
      await sendKeys({ press: 'Enter' });
      await element.updateComplete;
      expect(element.selected).to.equal(undefined);
      expect(element.shadowRoot!.activeElement).to.equal(rows(element)[2]);
    });

    it('opens the deep-linked case and goes back to its row', async () => {
      const { element } = await inSession<CaseHistory>(
        html`<case-history open="cns_demo_alex_bp"></case-history>`,
      );
      await waitUntil(
        () => thread(element)?.shadowRoot?.querySelector('[part=answer] strong'),
        'the thread',
        {
          timeout: 5000,
        },
      );
      expect(shadowText(thread(element)!)).to.contain('142/91');
      await expect(element).to.be.accessible();
      $<HTMLButtonElement>(element, '[part=back-button]')!.click();
      await listed(element);
      await element.updateComplete;
      expect(element.shadowRoot!.activeElement).to.equal(rows(element)[1]);
    });
  });

  describe('when something changes while the list is shown', () => {
    it('updates the row live when an answer arrives, and announces it', async () => {
      const { backend, session, element } = await inSession<CaseHistory>(html`<case-history></case-history>`);
      await listed(element);
      await waitUntil(() => session.manager.live, 'the live stream opens', { timeout: 5000 });
      await sandboxPost(backend, '/_sandbox/consultations/cns_demo_alex_vitamin/answer', {
        answer: 'Yes, **10 micrograms** a day from October to March.',
      });
      await waitUntil(
        () => rows(element)[0]!.querySelector('[part=status]')?.textContent?.includes('Answered'),
        'the row shows the answer',
        { timeout: 5000 },
      );
      expect(announced(element)).to.match(/answered your question/);
      await expect(element).to.be.accessible();
    });

    it('marks an answer the member has not seen as new, counts it, and forgets it once opened', async () => {
      const { backend, session, element } = await inSession<CaseHistory>(html`<case-history></case-history>`);
      const counts: number[] = [];
      session.addEventListener('consult-unread-changed', (event) => counts.push(event.detail.count));
      await listed(element);
      expect(element.shadowRoot!.querySelector('[part~=unread]')).to.equal(
        null,
        'older answers count as seen',
      );
      await waitUntil(() => session.manager.live, 'the live stream opens', { timeout: 5000 });
      await sandboxPost(backend, '/_sandbox/consultations/cns_demo_alex_vitamin/answer', {
        answer: 'Yes, **10 micrograms** a day from October to March.',
      });
      await waitUntil(() => cards(element)[0]!.querySelector('[part~=unread]'), 'the row is marked new', {
        timeout: 5000,
      });
      const row = cards(element)[0]!;
      expect(row.textContent).to.match(/New answer/);
      expect(row.classList.contains('unread')).to.equal(true);
      expect(row.querySelector('.dot')).to.exist;
      // The preview is the answer just in, as plain words, from now.
      expect(row.querySelector('[part=preview] .text')!.textContent).to.equal(
        'Yes, 10 micrograms a day from October to March.',
      );
      expect(row.querySelector('time')!.textContent).to.equal('now');
      expect(shadowText(element)).to.contain('1 new answer');
      expect(element.shadowRoot!.querySelector('[part~=list]')!.getAttribute('aria-label')).to.equal(
        'Your consultations, 1 new answer',
      );
      expect(counts).to.deep.equal([1]);
      await expect(element).to.be.accessible();

      // Seen once its thread is on screen; the mark survives only as ids and counts, never text.
      row.querySelector<HTMLButtonElement>('[part=item]')!.click();
      await waitUntil(() => counts.length === 2, 'the count falls', { timeout: 5000 });
      expect(counts).to.deep.equal([1, 0]);
      const stored = Object.keys(sessionStorage)
        .filter((key) => key.startsWith('consult-elements:seen:'))
        .map((key) => sessionStorage.getItem(key)!);
      expect(stored).to.have.length(1);
      expect(stored[0]).to.contain('cns_demo_alex_vitamin');
      expect(stored[0]).not.to.contain('micrograms');
      $<HTMLButtonElement>(element, '[part~=back-button]')!.click();
      await element.updateComplete;
      expect(element.shadowRoot!.querySelector('[part~=unread]')).to.equal(null);

      // Signing out wipes the marks.
      session.signOut();
      expect(
        Object.keys(sessionStorage).filter((key) => key.startsWith('consult-elements:seen:')),
      ).to.deep.equal([]);
    });

    it('takes the proxy’s refusal of a mark another device has passed: no error, nothing left new, no failing promise', async () => {
      // This tab's read marks are held on their way until another device has read further.
      const backend = createDemoBackend();
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const marks: { answers: number; status?: number }[] = [];
      const held: typeof backend.fetch = async (input, init) => {
        if (init?.method !== 'PUT' || !String(input).endsWith('/seen')) return backend.fetch(input, init);
        const mark: { answers: number; status?: number } = JSON.parse(String(init.body));
        marks.push(mark);
        await released;
        const response = await backend.fetch(input, init);
        mark.status = response.status;
        return response;
      };
      const unhandled: unknown[] = [];
      const noteUnhandled = (event: PromiseRejectionEvent) => unhandled.push(event.reason);
      window.addEventListener('unhandledrejection', noteUnhandled);
      try {
        const { session, element } = await inSession<CaseHistory>(html`<case-history></case-history>`, {
          backend: { ...backend, fetch: held },
        });
        await listed(element);
        await waitUntil(() => session.manager.live, 'the live stream opens', { timeout: 5000 });
        const { consultationId } = await session.manager.client.createConsultation({
          userId: session.manager.user!.id,
          questions: ['Is a rash after a new soap an allergy?'],
        });
        await sandboxPost(backend, `/_sandbox/consultations/${consultationId}/answer`, {
          answer: 'It may be irritation rather than an allergy.',
        });
        await waitUntil(() => cards(element)[0]!.querySelector('[part~=unread]'), 'the row is marked new', {
          timeout: 5000,
        });
        rows(element)[0]!.click();
        await waitUntil(() => marks.length === 1, 'the tab tells the proxy it has seen the answer');
        expect(marks[0]!.answers).to.equal(1);

        // Meanwhile the member asks a follow-up on their phone, and reads its answer there.
        const phone = await backend.signInAs('alex')();
        const asPhone = (path: string, method: string, body: unknown) =>
          backend.fetch(`/consult${path}`, {
            method,
            headers: { authorization: `Bearer ${phone.token}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
        const followUp = await asPhone(`/consultation/${consultationId}`, 'POST', {
          question: 'Should I stop using it?',
        });
        expect(followUp.status).to.equal(200);
        await sandboxPost(backend, `/_sandbox/consultations/${consultationId}/answer`, {
          answer: 'Yes, stop for a week and see if it clears.',
        });
        expect(
          (await asPhone(`/consultations/${consultationId}/seen`, 'PUT', { answers: 2 })).status,
        ).to.equal(200);

        // This tab's mark of one answer now arrives: the proxy refuses it, as fewer than it holds.
        release();
        await waitUntil(() => marks[0]!.status !== undefined, 'the proxy answers the held mark');
        expect(marks[0]!.status).to.equal(409);
        await waitUntil(
          () => thread(element)?.shadowRoot?.textContent?.includes('stop for a week'),
          'the thread shows the second answer',
          { timeout: 5000 },
        );
        await waitUntil(() => session.manager.state.unread.length === 0, 'nothing is left new', {
          timeout: 5000,
        });
        const alerts = [element, thread(element)!].flatMap((shown) => [
          ...shown.shadowRoot!.querySelectorAll('[role=alert]'),
        ]);
        expect(alerts.map((alert) => alert.textContent)).to.deep.equal([], 'no error is shown');
        expect(session.shadowRoot!.querySelector('[part=connection]')).to.equal(null, 'no outage is shown');
        // The refusal goes nowhere else. (That a refused mark is not sent again, and one that could
        // not reach the proxy is, is test/node/seen-marks.test.ts's.)
        await waitUntil(() => marks.every((mark) => mark.status !== undefined), 'nothing is left waiting', {
          timeout: 5000,
        });
        expect(unhandled.map(String)).to.deep.equal([], 'no promise is left failing');
      } finally {
        window.removeEventListener('unhandledrejection', noteUnhandled);
      }
    });

    it('adds a consultation created elsewhere on the page', async () => {
      const { backend, session, element } = await inSession<CaseHistory>(html`<case-history></case-history>`);
      await listed(element);
      await waitUntil(() => session.manager.live, 'the live stream opens', { timeout: 5000 });
      const created = await session.manager.client.createConsultation({
        userId: session.manager.user!.id,
        questions: ['Can I fly with an ear infection?'],
      });
      // Creating sends no event; the claim does.
      await sandboxPost(backend, `/_sandbox/consultations/${created.consultationId}/claim`);
      await waitUntil(() => rows(element).length === 5, 'the new case is listed', { timeout: 5000 });
      expect(cards(element)[0]!.textContent).to.contain('Can I fly with an ear infection?');
      expect(cards(element)[0]!.textContent).to.contain('In progress');
    });

    it('polls open cases while the live stream is down', async () => {
      const backend = createDemoBackend();
      await backend.ready;
      const noStream: typeof fetch = (input, init) =>
        String(input).endsWith('/events')
          ? Promise.reject(new TypeError('the stream is blocked'))
          : backend.fetch(input, init);
      const manager = new SessionManager({
        endpoint: backend.endpoint,
        fetch: noStream,
        signIn: backend.signInAs('alex'),
        poll: { firstMs: 100, maxMs: 400 },
      });
      const element = await fixture<CaseHistory>(html`<case-history .session=${manager}></case-history>`);
      await listed(element);
      await sandboxPost(backend, '/_sandbox/consultations/cns_demo_alex_vitamin/claim');
      await waitUntil(
        () => rows(element)[0]!.querySelector('[part=status]')?.textContent?.includes('In progress'),
        'the row follows by polling',
        { timeout: 5000 },
      );
      expect(manager.live).to.equal(false);
    });

    it('counts a follow-up asked in the opened thread', async () => {
      const { element } = await inSession<CaseHistory>(html`<case-history></case-history>`);
      await listed(element);
      rows(element)[0]!.click();
      await element.updateComplete;
      const opened = thread(element)!;
      await waitUntil(() => opened.shadowRoot!.querySelector('[part=followup-input]'), 'the thread', {
        timeout: 5000,
      });
      opened.shadowRoot!.querySelector<HTMLTextAreaElement>('[part=followup-input]')!.focus();
      await sendKeys({ type: 'Which dose is right for me?' });
      opened.shadowRoot!.querySelector<HTMLButtonElement>('[part=submit-button]')!.click();
      await waitUntil(() => opened.shadowRoot!.querySelectorAll('[part=question]').length === 2, 'sent', {
        timeout: 5000,
      });
      $<HTMLButtonElement>(element, '[part=back-button]')!.click();
      await element.updateComplete;
      expect(cards(element)[0]!.textContent).to.contain('2 of 3 questions');
    });
  });

  describe('when the history is long', () => {
    // A test that scrolls leaves the window scrolled down, where the next list's end would be in view.
    beforeEach(() => window.scrollTo(0, 0));
    afterEach(() => window.scrollTo(0, 0));

    it('renders 1,000 consultations in chunks without freezing', async () => {
      const backend = createDemoBackend();
      await backend.ready;
      const start = Date.parse('2020-01-01T00:00:00Z');
      for (let i = 0; i < 1000; i++) {
        const id = `cns_bulk_${String(i).padStart(4, '0')}`;
        backend.sandbox.state.consultations.set(id, {
          consultationId: id,
          userId: DEMO_USER_IDS.sam,
          status: i % 3 === 0 ? 'resolved' : 'closed',
          createdAt: new Date(start + i * 3_600_000).toISOString(),
          questions: [{ question: `Question number ${i} about something that worries me a little.` }],
        });
      }
      const before = performance.now();
      const { element } = await inSession<CaseHistory>(html`<case-history></case-history>`, {
        backend,
        member: 'sam',
      });
      await waitUntil(() => element.shadowRoot!.querySelector('[part=list]'), 'the list loads', {
        timeout: 10000,
      });
      const elapsed = performance.now() - before;
      console.log(`case-history: 1,000 consultations listed in ${elapsed.toFixed(1)} ms, sign-in included`);

      expect(rows(element).length).to.be.lessThan(100);
      expect(cards(element)[0]!.textContent).to.contain('Question number 999');
      expect(shadowText(element)).to.contain('Show more (980 left)');

      // Scrolling to the end renders the next chunk.
      element.shadowRoot!.querySelector('.sentinel')!.scrollIntoView();
      await waitUntil(() => rows(element).length >= 40, 'the next chunk renders on scrolling', {
        timeout: 5000,
      });
      expect(rows(element).length).to.be.lessThan(1000);

      // The button does the same, and focus moves to the first new row.
      const shown = rows(element).length;
      $<HTMLButtonElement>(element, '[part=more-button]')!.click();
      await element.updateComplete;
      expect(rows(element).length).to.be.greaterThan(shown);
      expect(element.shadowRoot!.activeElement).to.equal(rows(element)[shown]);
    });

    it('renders 1,000 consultations from a scripted fetch in under 100 rows', async () => {
      const manager = scriptedHistory(1000);
      const before = performance.now();
      const element = await fixture<CaseHistory>(html`<case-history .session=${manager}></case-history>`);
      await listed(element);
      console.log(
        `case-history: 1,000 scripted consultations listed in ${(performance.now() - before).toFixed(1)} ms`,
      );
      expect(rows(element)).to.have.length(20);
      expect(cards(element)[0]!.textContent).to.contain('Scripted question 999');
    });

    it('writes the seen-marks of 1,000 consultations once, and the list stays usable', async () => {
      const storageWrites: string[] = [];
      const setItem = Storage.prototype.setItem;
      Storage.prototype.setItem = function (this: Storage, key: string, value: string) {
        if (this === sessionStorage && key.startsWith('consult-elements:seen:')) storageWrites.push(key);
        setItem.call(this, key, value);
      };
      let element: CaseHistory;
      try {
        element = await fixture<CaseHistory>(
          html`<case-history .session=${scriptedHistory(1000)}></case-history>`,
        );
        await listed(element);
        await element.updateComplete;
      } finally {
        Storage.prototype.setItem = setItem;
      }
      // One write per batch: before, every consultation rewrote the whole growing record (quadratic).
      expect(storageWrites.length, `${storageWrites.length} writes`).to.be.at.most(2);
      expect(element.memberState!.consultations).to.have.length(1000);
      expect(rows(element)).to.have.length(20);
      expect(shadowText(element)).to.contain('Show more (980 left)');
      // Usable: the last rows render on demand, and a case opens and closes from the keyboard.
      for (let i = 0; i < 49; i++) {
        $<HTMLButtonElement>(element, '[part=more-button]')!.click();
        await element.updateComplete;
      }
      expect(rows(element)).to.have.length(1000);
      expect($(element, '[part=more-button]')).to.equal(null);
      expect(cards(element).at(-1)!.textContent).to.contain('Scripted question 0');
      rows(element)[0]!.focus();
      await sendKeys({ press: 'Enter' });
      await element.updateComplete;
      expect(thread(element)?.consultationId).to.equal('cns_scripted_999');
      $<HTMLButtonElement>(element, '[part=back-button]')!.click();
      await element.updateComplete;
      expect(hasFocus(element, rows(element)[0])).to.equal(true);
    });
    it('sorts a list of 1,000 once per change, not once per look, and every row is in keyboard order', async () => {
      // Each sort of the list parsed every time it compared (about 20,000 parses for 1,000), and the
      // list was sorted again at every look (each render several times): work that grew faster than
      // the list. Counted, not timed: parses of a time, while the list is read and shown.
      const parse = Date.parse;
      let parses = 0;
      Date.parse = (text: string) => {
        parses++;
        return parse(text);
      };
      let element: CaseHistory;
      try {
        element = await fixture<CaseHistory>(
          html`<case-history .session=${scriptedHistory(1000)}></case-history>`,
        );
        await listed(element);
        await element.updateComplete;
      } finally {
        Date.parse = parse;
      }
      expect(parses, `${parses} times parsed`).to.be.at.most(3 * 1000);
      for (let i = 0; i < 49; i++) {
        $<HTMLButtonElement>(element, '[part=more-button]')!.click();
        await element.updateComplete;
      }
      // Every row once, newest first, and the arrow keys walk them in that order.
      const texts = cards(element).map((card) => /Scripted question (\d+)/.exec(card.textContent ?? '')?.[1]);
      expect(texts).to.deep.equal(Array.from({ length: 1000 }, (_, i) => String(999 - i)));
      rows(element)[0]!.focus();
      for (let i = 1; i <= 3; i++) {
        await sendKeys({ press: 'ArrowDown' });
        expect(hasFocus(element, rows(element)[i]), `row ${i}`).to.equal(true);
      }
      await sendKeys({ press: 'End' });
      expect(hasFocus(element, rows(element)[999])).to.equal(true);
      await sendKeys({ press: 'ArrowUp' });
      expect(hasFocus(element, rows(element)[998])).to.equal(true);
      await sendKeys({ press: 'Home' });
      expect(hasFocus(element, rows(element)[0])).to.equal(true);
    });
  });

  describe('in every language', () => {
    const english = ['of 3 questions', 'Answered', 'Closed', 'Open'];

    for (const lang of LANGUAGES) {
      it(`renders in ${lang}`, async () => {
        const { backend, element } = await inSession<CaseHistory>(
          html`<case-history lang=${lang}></case-history>`,
        );
        await listed(element);
        const base = $(element, '[part=base]')!;
        expect(base.getAttribute('dir')).to.equal(lang === 'ar' ? 'rtl' : 'ltr');
        const text = shadowText(element);
        if (lang !== 'en') {
          for (const words of english) {
            if (lang === 'nl' && words === 'Open') continue; // the same word in Dutch
            expect(text, `${lang}: ${words}`).not.to.contain(words);
          }
        }
        const createdAt = backend.sandbox.state.consultations.get('cns_demo_alex_bp')!.createdAt;
        expect(text).to.contain(
          new Intl.DateTimeFormat(lang, { dateStyle: 'medium' }).format(new Date(createdAt)),
        );
        await expect(element).to.be.accessible();

        // The opened thread speaks the same language.
        rows(element)[1]!.click();
        await element.updateComplete;
        expect(thread(element)!.getAttribute('lang')).to.equal(lang);
      });
    }

    it('formats the questions used with Intl, as the browser writes Arabic numbers', async () => {
      const { element } = await inSession<CaseHistory>(html`<case-history lang="ar"></case-history>`);
      await listed(element);
      const ar = new Intl.NumberFormat('ar');
      expect(cards(element)[0]!.textContent).to.contain(`${ar.format(1)} من ${ar.format(3)} أسئلة`);
      expect(cards(element)[2]!.textContent).to.contain(`${ar.format(2)} من ${ar.format(3)} أسئلة`);
    });

    it('shows Arabic-Indic digits when the partner asks for them (ar-u-nu-arab)', async () => {
      const { element } = await inSession<CaseHistory>(
        html`<case-history lang="ar-u-nu-arab"></case-history>`,
      );
      await listed(element);
      expect(cards(element)[0]!.textContent).to.contain('١ من ٣ أسئلة');
      expect(cards(element)[2]!.textContent).to.contain('٢ من ٣ أسئلة');
      expect(cards(element)[2]!.textContent).not.to.match(/[0-9] من/);
    });

    for (const [lang, words] of [
      ['en', 'Show more (1,080 left)'],
      ['de', 'Mehr anzeigen (noch 1.080)'],
      ['ar', `عرض المزيد (المتبقي: ${new Intl.NumberFormat('ar').format(1080)})`],
    ] as const) {
      it(`formats the rows left with Intl in ${lang}`, async () => {
        const element = await fixture<CaseHistory>(
          html`<case-history lang=${lang} .session=${scriptedHistory(1100)}></case-history>`,
        );
        await listed(element);
        expect($(element, '[part=more-button]')!.textContent!.trim()).to.equal(words);
      });
    }

    it('follows an Arabic-speaking member right to left', async () => {
      const { element } = await inSession<CaseHistory>(html`<case-history></case-history>`, {
        member: 'noor',
      });
      await listed(element);
      expect($(element, '[part=base]')!.getAttribute('dir')).to.equal('rtl');
      expect(shadowText(element)).to.contain('تمت الإجابة');
    });

    it('shows an Arabic member two lines of the latest message on a 375 px phone', async () => {
      const { session } = await inSession<HTMLElement>(
        html`<div style="inline-size: 375px"><case-history></case-history></div>`,
        { member: 'noor' },
      );
      const element = session.querySelector<CaseHistory>('case-history')!;
      await listed(element);
      const preview = cards(element)[0]!.querySelector<HTMLElement>('[part=preview]')!;
      expect(preview.textContent).to.contain('شكرًا لسؤالك');
      expect(element.getBoundingClientRect().width).to.be.at.most(375);
      // The lines of text the member sees: boxes of the preview's words inside its visible box.
      const box = preview.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(preview);
      const lines: { top: number; bottom: number; left: number; right: number }[] = [];
      for (const rect of [...range.getClientRects()].sort((a, b) => a.top - b.top)) {
        const middle = (rect.top + rect.bottom) / 2;
        if (rect.width === 0 || middle < box.top || middle > box.bottom) continue;
        const line = lines.find((l) => middle >= l.top && middle <= l.bottom);
        if (!line) lines.push({ top: rect.top, bottom: rect.bottom, left: rect.left, right: rect.right });
        else
          Object.assign(line, {
            left: Math.min(line.left, rect.left),
            right: Math.max(line.right, rect.right),
          });
      }
      expect(lines.length, 'lines of the preview shown').to.equal(2);
      // Each runs across the row: more than a word or two beside the sender's name.
      for (const line of lines)
        expect(line.right - line.left, 'a line of the preview').to.be.greaterThan(box.width * 0.6);
    });
  });
});
