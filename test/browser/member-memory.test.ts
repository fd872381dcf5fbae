/**
 * What follows the member beyond one tab, against the in-page sandbox behind the real proxy: a new
 * visit (a new session, its tab's storage empty) shows each message with the time the proxy saw
 * it and the answer that came while the member was away as "New answer"; with two sessions in one
 * page (two tabs), reading the answer in one clears the mark in the other, live, and
 * `consult-unread-changed` reports it to each host page.
 */
import { expect, html } from '@open-wc/testing';
import { CaseHistory } from '../../src/elements/case-history/case-history.js';
import { ConsultThread } from '../../src/elements/consult-thread/consult-thread.js';
import { createDemoBackend, type DemoBackend } from '../../src/sandbox/demo-backend.js';
import { inSession, type SessionFixture } from './support/backend.js';
import { waitUntil } from './support/elements.js';

CaseHistory.define('case-history');
ConsultThread.define('consult-thread');

const QUESTION = 'Does a ringing in the ears go away by itself?';
const ANSWER = 'Usually within a day after loud music.';

/**
 * The button of the consultation asked here: its row's subject or preview holds the question or
 * answer (beside the button, whose name is only who, status, when and unread).
 */
const rowOf = (element: CaseHistory, _id: string) =>
  [...element.shadowRoot!.querySelectorAll<HTMLElement>('li.row')]
    .find((row) => row.textContent!.includes(QUESTION) || row.textContent!.includes(ANSWER))
    ?.querySelector<HTMLElement>('[part~=item]') ?? undefined;
const isNew = (element: CaseHistory, id: string) =>
  Boolean(rowOf(element, id)?.querySelector('[part~=unread]'));

/** Asks on a first visit, then closes that tab: the question went out through the proxy. */
async function askThenLeave(backend: DemoBackend): Promise<string> {
  const first = await inSession<HTMLElement>(html`<span></span>`, { backend });
  const created = await first.session.manager.state.createConsultation([QUESTION], 'memory-visit-1');
  first.session.remove();
  sessionStorage.clear();
  return created.consultationId;
}

/** The professional answers while the member is away; the proxy's webhook takes the event. */
async function answerWhileAway(backend: DemoBackend, id: string): Promise<void> {
  await backend.sandbox.fetch(`/_sandbox/consultations/${id}/answer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ answer: ANSWER }),
  });
  await waitUntil(
    () =>
      backend.sandbox.webhookDeliveries.some(
        (d) => d.event.caseId === id && d.event.type === 'questionResolved' && d.ok,
      ),
    'the proxy took the answer’s event',
    { timeout: 5000 },
  );
}

/**
 * A history in a session of its own, with `counts()`: every unread count its session told the page.
 * Heard from the page's start: the list may load before the session has finished signing in.
 */
async function historyIn(
  backend: DemoBackend,
): Promise<SessionFixture<CaseHistory> & { counts: () => number[] }> {
  const heard: { target: EventTarget | null; count: number }[] = [];
  const hear = (event: Event) =>
    heard.push({ target: event.target, count: (event as CustomEvent<{ count: number }>).detail.count });
  document.addEventListener('consult-unread-changed', hear);
  const fixture = await inSession<CaseHistory>(html`<case-history></case-history>`, { backend });
  const counts = () => heard.filter((h) => h.target === fixture.session).map((h) => h.count);
  return { ...fixture, counts };
}

describe('what follows the member to their next visit and other tabs', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => sessionStorage.clear());

  it('a new visit shows each message’s time and the answer that came while away as new', async () => {
    const backend = createDemoBackend();
    await backend.ready;
    const before = Date.now();
    const id = await askThenLeave(backend);
    await answerWhileAway(backend, id);

    const { element, counts } = await historyIn(backend);
    await waitUntil(() => isNew(element, id), 'the answer is marked new on the next visit', {
      timeout: 5000,
    });
    expect(rowOf(element, id)!.textContent).to.match(/New answer/);
    await waitUntil(() => counts().includes(1), 'the host page hears of one unread answer');

    rowOf(element, id)!.click();
    const thread = () => element.shadowRoot!.querySelector<ConsultThread>('consult-thread');
    await waitUntil(
      () => thread()?.shadowRoot?.querySelector('[part=answer]'),
      'the thread shows the answer',
      {
        timeout: 5000,
      },
    );
    // The question's time and the answer's, as the proxy saw them: not "unknown", not made up.
    const times = [...thread()!.shadowRoot!.querySelectorAll('time')].map((t) => Date.parse(t.dateTime));
    expect(times.length).to.equal(2);
    for (const at of times) expect(at).to.be.within(before - 1000, Date.now());
    expect(times[1]).to.be.at.least(times[0]!);
    await waitUntil(() => !isNew(element, id), 'opening it clears the mark');
    await waitUntil(() => counts().at(-1) === 0, 'the host page hears the count fall to 0');
  });

  it('reading in one tab clears the mark in another, live', async () => {
    const backend = createDemoBackend();
    await backend.ready;
    const id = await askThenLeave(backend);
    await answerWhileAway(backend, id);

    const one = await historyIn(backend);
    const other = await historyIn(backend);
    await waitUntil(() => isNew(one.element, id) && isNew(other.element, id), 'new in both tabs', {
      timeout: 5000,
    });
    await waitUntil(() => other.session.manager.live, 'the other tab’s stream is open', { timeout: 5000 });

    rowOf(one.element, id)!.click();
    await waitUntil(() => !isNew(one.element, id), 'read here');
    await waitUntil(() => !isNew(other.element, id), 'and cleared in the other tab without a reload', {
      timeout: 5000,
    });
    expect(other.counts().at(-1)).to.equal(0);
    await expect(other.element).to.be.accessible();
  });
});
