/**
 * A member's work is scoped (S21): every request, task, timer and stream started for a member
 * aborts when the member changes or signs out, and nothing that settles afterwards reaches state
 * or DOM.
 *
 * Each test drives one element as a member does, holds the one response it is about (the request
 * reaches the proxy and the sandbox; only its answer waits), signs the member out, releases the
 * answer, and then looks everywhere in the page for the member's words: the text of every shadow
 * root (elements nested in shadow roots too), every text box's value, the elements' properties and
 * sessionStorage.
 */
import { aTimeout, expect, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { TemplateResult } from 'lit';
import { CaseHistory } from '../../src/elements/case-history/case-history.js';
import { ConsultAccess } from '../../src/elements/consult-access/consult-access.js';
import { ConsultForm } from '../../src/elements/consult-form/consult-form.js';
import { ConsultThread } from '../../src/elements/consult-thread/consult-thread.js';
import { NavigatorChat } from '../../src/elements/navigator-chat/navigator-chat.js';
import { PrescriptionRequest } from '../../src/elements/prescription-request/prescription-request.js';
import type { Survey } from '../../src/elements/prescription-request/survey.js';
import { createDemoBackend } from '../../src/sandbox/demo-backend.js';
import { DEMO_USER_IDS } from '../../src/sandbox/seed.js';
import { hold, inSession, type Held } from './support/backend.js';
import { waitUntil } from './support/elements.js';

CaseHistory.define('case-history');
ConsultAccess.define('consult-access');
ConsultForm.define('consult-form');
ConsultThread.define('consult-thread');
NavigatorChat.define('navigator-chat');
PrescriptionRequest.define('prescription-request');

const ALEX = DEMO_USER_IDS.alex;

/** Words of alex's seeded consultations (src/sandbox/seed.ts): their first questions, as listed. */
const ALEX_SEEDED = ['vitamin D supplement', 'itchy, dry patch', '142/91', 'waking up at 4am'];

// --- Holding one response ---------------------------------------------------------------------

/** A fresh back end whose `method path` response is held, and `content` in a session as alex. */
async function heldSession<T extends Element>(content: TemplateResult, method: string, path: RegExp) {
  const backend = createDemoBackend();
  await backend.ready;
  const held = hold(backend, method, path);
  const fixture = await inSession<T>(content, { backend: { ...backend, fetch: held.fetch } });
  return { ...fixture, held };
}

async function madeOnce(held: Held, what: string): Promise<void> {
  await waitUntil(() => held.calls > 0, `the ${what} request is made`, { timeout: 5000 });
  expect(held.calls, `one ${what} request`).to.equal(1);
}

// --- Looking for the member's words -----------------------------------------------------------

interface Place {
  where: string;
  text: string;
}

/** Every element in `root` and in the shadow roots below it, with the chain of hosts it is in. */
function* elementsIn(root: Document | ShadowRoot, hosts: string): Generator<[Element, string]> {
  for (const element of root.querySelectorAll('*')) {
    yield [element, hosts];
    if (element.shadowRoot) {
      const inner = hosts ? `${hosts} › ${element.localName}` : element.localName;
      yield* elementsIn(element.shadowRoot, inner);
    }
  }
}

/** The element's reactive properties (public and Lit state), as JSON where they can be. */
function propertyText(element: Element): string {
  const names = (element.constructor as { elementProperties?: Map<PropertyKey, unknown> }).elementProperties;
  const values: string[] = [];
  for (const name of names?.keys() ?? []) {
    try {
      values.push(JSON.stringify((element as unknown as Record<PropertyKey, unknown>)[name]) ?? '');
    } catch {
      // A value that cannot be serialized (a session, a function) holds no member text of its own.
    }
  }
  return values.join('\n');
}

/** Everything of the page a member's words could be left in, each with where it is. */
function placesInPage(): Place[] {
  const places: Place[] = [{ where: 'the page (light DOM)', text: document.body.textContent ?? '' }];
  for (const [element, hosts] of elementsIn(document, '')) {
    const here = `${hosts ? `${hosts} › ` : ''}${element.localName}${element.id ? `#${element.id}` : ''}`;
    if (element.shadowRoot)
      places.push({ where: `<${here}> shadow root text`, text: element.shadowRoot.textContent ?? '' });
    if (element instanceof HTMLTextAreaElement || element instanceof HTMLInputElement)
      places.push({ where: `<${here}> value`, text: element.value });
    const properties = propertyText(element);
    if (properties) places.push({ where: `<${here}> properties`, text: properties });
  }
  for (const key of Object.keys(sessionStorage))
    places.push({ where: `sessionStorage "${key}"`, text: sessionStorage.getItem(key) ?? '' });
  return places;
}

/** Where each of `words` is found in the page, with a little of the text around it. */
function leftovers(words: readonly string[]): string[] {
  const found: string[] = [];
  for (const { where, text } of placesInPage()) {
    const folded = text.replace(/\s+/g, ' ');
    for (const word of words) {
      const at = folded.indexOf(word);
      if (at < 0) continue;
      const around = folded.slice(Math.max(0, at - 40), at + word.length + 40).trim();
      found.push(`"${word}" in ${where}: …${around}…`);
    }
  }
  return found;
}

/** Every element in the page, in shadow roots too, with an update to wait for. */
async function settled(): Promise<void> {
  await aTimeout(300);
  for (const [element] of elementsIn(document, '')) {
    const pending = (element as Partial<{ updateComplete: Promise<unknown> }>).updateComplete;
    if (pending) await pending;
  }
}

// --- Driving the elements ---------------------------------------------------------------------

const $ = <T extends Element = HTMLElement>(element: Element, selector: string) =>
  element.shadowRoot!.querySelector<T>(selector);

/** Types into a text box of `element`'s shadow root as a member does: focus, then keys. */
async function typeInto(element: Element, selector: string, text: string): Promise<void> {
  await waitUntil(() => $(element, selector), `${selector} shows`, { timeout: 5000 });
  $<HTMLTextAreaElement>(element, selector)!.focus();
  await sendKeys({ type: text });
  await waitUntil(() => $<HTMLTextAreaElement>(element, selector)?.value.includes(text), 'the text is typed');
}

const SURVEY: Survey = {
  questions: [
    { id: 'medicine', kind: 'text', required: true, label: 'Which medicine do you need?', maxLength: 60 },
    { id: 'before', kind: 'yes-no', required: true, label: 'Have you taken it before?' },
  ],
};

/** The send problems the elements show: a failed send's notice, in any element of the page. */
function problemsShown(): string[] {
  const shown: string[] = [];
  for (const [element] of elementsIn(document, '')) {
    const own = element as unknown as Record<string, unknown>;
    for (const name of ['sendProblem', 'sendError', 'problem']) {
      if (own[name] !== undefined && own[name] !== null) shown.push(`${element.localName}.${name}`);
    }
  }
  return shown;
}

/**
 * Signs out while the held response is on its way, then lets it arrive: nothing of `words` may be
 * found right after the sign-out, nor once the late answer has settled; and the send the sign-out
 * ended is no failure to report, for anyone.
 */
async function signOutThenRelease(
  session: { signOut(): void },
  held: Held,
  words: readonly string[],
): Promise<{ afterSignOut: string[]; afterLateAnswer: string[]; errors: string[] }> {
  const errors: string[] = [];
  const heard = (event: Event) =>
    errors.push(`consult-error ${(event as CustomEvent<{ code: string }>).detail.code}`);
  document.addEventListener('consult-error', heard, true);
  session.signOut();
  const afterSignOut = leftovers(words);
  held.release();
  await settled();
  document.removeEventListener('consult-error', heard, true);
  return { afterSignOut, afterLateAnswer: leftovers(words), errors: [...errors, ...problemsShown()] };
}

const nothingLeft = { afterSignOut: [], afterLateAnswer: [], errors: [] };

describe('a member’s work is scoped: nothing that settles after sign-out reaches the page', () => {
  // Drafts live in this page's sessionStorage and demo member ids are fixed: start each test clean.
  beforeEach(() => sessionStorage.clear());
  afterEach(() => sessionStorage.clear());

  it('form submit: a consultation created by <consult-form> answered after sign-out', async () => {
    const marker = 'Zebrafinch-form';
    const { session, element, held } = await heldSession<ConsultForm>(
      html`<consult-form></consult-form>`,
      'POST',
      /^\/consult\/consultation$/,
    );
    await waitUntil(
      () => $(element, '[part~=submit-button]')?.getAttribute('aria-disabled') === 'false',
      'the form is ready to send',
      { timeout: 5000 },
    );
    await typeInto(element, 'textarea', `${marker}: my knee clicks on the stairs`);
    $<HTMLButtonElement>(element, '[part~=submit-button]')!.click();
    await madeOnce(held, 'create consultation');
    expect(leftovers([marker]), 'the question is on the page before sign-out').to.not.deep.equal([]);

    const found = await signOutThenRelease(session, held, [marker]);

    const answer = await held.answer;
    expect(answer.status).to.equal(201);
    expect(answer.body, 'the late answer carries the question').to.contain(marker);
    expect(held.calls).to.equal(1);
    expect(found).to.deep.equal(nothingLeft);
  });

  it('follow-up: a follow-up sent from <consult-thread> answered after sign-out', async () => {
    const marker = 'Zebrafinch-followup';
    const { session, element, held } = await heldSession<ConsultThread>(
      html`<consult-thread consultation-id="cns_demo_alex_bp"></consult-thread>`,
      'POST',
      /^\/consult\/consultation\/cns_demo_alex_bp$/,
    );
    await waitUntil(() => $(element, '[part=followup-input]'), 'the thread loads', { timeout: 5000 });
    await typeInto(element, '[part=followup-input]', `${marker}: should I buy a cuff for my arm?`);
    $<HTMLButtonElement>(element, '[part=submit-button]')!.click();
    await madeOnce(held, 'follow-up');
    const words = [marker, '142/91'];
    expect(leftovers([marker]), 'the follow-up is on the page before sign-out').to.not.deep.equal([]);
    expect(leftovers(['142/91']), 'the consultation is on the page before sign-out').to.not.deep.equal([]);

    const found = await signOutThenRelease(session, held, words);

    const answer = await held.answer;
    expect(answer.status).to.equal(200);
    expect(answer.body, 'the late answer carries the consultation').to.contain(marker).and.contain('142/91');
    expect(held.calls).to.equal(1);
    expect(found).to.deep.equal(nothingLeft);
  });

  it('history load: <case-history>’s list answered after sign-out', async () => {
    const { session, held } = await heldSession<CaseHistory>(
      html`<case-history></case-history>`,
      'GET',
      new RegExp(`^/consult/user/${ALEX}/case-history$`),
    );
    await madeOnce(held, 'case history');

    const found = await signOutThenRelease(session, held, ALEX_SEEDED);

    const answer = await held.answer;
    expect(answer.status).to.equal(200);
    for (const words of ALEX_SEEDED) expect(answer.body, 'the late list has alex’s cases').to.contain(words);
    expect(held.calls).to.equal(1);
    expect(found).to.deep.equal(nothingLeft);
  });

  it('thread load: <consult-thread>’s consultation answered after sign-out', async () => {
    const words = ['142/91', 'blood pressure'];
    const { session, held } = await heldSession<ConsultThread>(
      html`<consult-thread consultation-id="cns_demo_alex_bp"></consult-thread>`,
      'GET',
      /^\/consult\/consultation\/cns_demo_alex_bp$/,
    );
    await madeOnce(held, 'consultation');

    const found = await signOutThenRelease(session, held, words);

    const answer = await held.answer;
    expect(answer.status).to.equal(200);
    for (const word of words) expect(answer.body, 'the late answer is alex’s consultation').to.contain(word);
    expect(held.calls).to.equal(1);
    expect(found).to.deep.equal(nothingLeft);
  });

  it('navigator reply: <navigator-chat>’s reply to a message answered after sign-out', async () => {
    const marker = 'Zebrafinch-navigator';
    const { session, element, held, backend } = await heldSession<NavigatorChat>(
      html`<navigator-chat></navigator-chat>`,
      'POST',
      /^\/consult\/v2\/health-navigator\/messages$/,
    );
    // The navigator's reply names the marker too: a reply shown late would be found.
    const queued = await backend.sandbox.fetch('/_sandbox/navigator/replies', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: `About ${marker}: rest and drink plenty of water.` }),
    });
    expect(queued.status).to.equal(200);
    await typeInto(element, '[part=input]', `${marker}: I have had a sore throat since Monday`);
    await sendKeys({ press: 'Enter' });
    await madeOnce(held, 'navigator message');
    expect(leftovers([marker]), 'the message is on the page before sign-out').to.not.deep.equal([]);

    const found = await signOutThenRelease(session, held, [marker]);

    const answer = await held.answer;
    expect(answer.status).to.equal(200);
    expect(answer.body, 'the late reply carries the marker').to.contain(`About ${marker}`);
    expect(held.calls).to.equal(1);
    expect(found).to.deep.equal(nothingLeft);
  });

  it('plan check: <consult-form>’s subscription check answered after sign-out', async () => {
    const marker = 'Zebrafinch-plan';
    const { session, element, held } = await heldSession<ConsultForm>(
      html`<consult-form></consult-form>`,
      'GET',
      new RegExp(`^/consult/user/${ALEX}/subscriptions$`),
    );
    await madeOnce(held, 'subscriptions');
    // The form can be typed in while the plan is checked: the member does.
    await typeInto(element, 'textarea', `${marker}: is my cough worth a doctor's time?`);
    expect(
      $(element, '[part~=submit-button]')!.getAttribute('aria-disabled'),
      'the plan is still being checked',
    ).to.equal('true');
    expect(leftovers([marker]), 'the question is on the page before sign-out').to.not.deep.equal([]);

    const found = await signOutThenRelease(session, held, [marker]);

    const answer = await held.answer;
    expect(answer.status).to.equal(200);
    expect(answer.body, 'the late answer is alex’s plan').to.contain('sub_demo_alex_2026');
    expect(held.calls).to.equal(1);
    expect(found).to.deep.equal(nothingLeft);
  });

  it('prescription send: <prescription-request> answered after sign-out', async () => {
    const marker = 'Zebrafinch-prescription';
    const { session, element, held, backend } = await heldSession<PrescriptionRequest>(
      html`<prescription-request .survey=${SURVEY}></prescription-request>`,
      'POST',
      /^\/consult\/prescription$/,
    );
    await typeInto(element, '#q-medicine', `${marker} 100 micrograms`);
    const yes = [...element.shadowRoot!.querySelectorAll('label.choice')]
      .find((label) => label.textContent!.trim() === 'Yes')!
      .querySelector('input')!;
    yes.click();
    await element.updateComplete;
    $<HTMLButtonElement>(element, '[part~=submit-button]')!.click();
    await madeOnce(held, 'prescription');
    expect(leftovers([marker]), 'the answer is on the page before sign-out').to.not.deep.equal([]);

    const found = await signOutThenRelease(session, held, [marker]);

    const answer = await held.answer;
    expect(answer.status).to.equal(201);
    expect(backend.sandbox.state.prescriptions.size, 'the request reached the service').to.equal(1);
    expect(held.calls).to.equal(1);
    expect(found).to.deep.equal(nothingLeft);
  });
});

describe('a member switch: no element keeps a copy of the previous member', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => sessionStorage.clear());

  it('every element, at the moment another member signs in, shows and holds nothing of the previous one', async () => {
    const typed = 'Zebrafinch-switch-form';
    const chatted = 'Zebrafinch-switch-navigator';
    const asked = 'Zebrafinch-switch-prescription';
    const {
      session,
      backend,
      element: root,
    } = await inSession<HTMLElement>(html`
      <div>
        <consult-form></consult-form>
        <case-history></case-history>
        <consult-thread consultation-id="cns_demo_alex_bp"></consult-thread>
        <navigator-chat></navigator-chat>
        <consult-access></consult-access>
        <prescription-request .survey=${SURVEY}></prescription-request>
      </div>
    `);
    const one = <T extends Element>(tag: string) => root.querySelector(tag) as T;
    const [form, history, thread, chat, access, prescription] = [
      'consult-form',
      'case-history',
      'consult-thread',
      'navigator-chat',
      'consult-access',
      'prescription-request',
    ].map(one);

    // Alex's data everywhere: the list with a case open, a thread, a navigator exchange, a plan
    // renewed with its history, a prescription request sent, and a question typed.
    await waitUntil(() => ALEX_SEEDED.every((words) => leftovers([words]).length > 0), 'the list shows', {
      timeout: 5000,
    });
    (history!.shadowRoot!.querySelector('[part~=item]') as HTMLButtonElement).click();
    await waitUntil(() => history!.shadowRoot!.querySelector('consult-thread'), 'a case opens', {
      timeout: 5000,
    });
    await waitUntil(() => $(access!, '[part~=history]'), 'the renewed plan shows its history', {
      timeout: 5000,
    });
    await backend.sandbox.fetch('/_sandbox/navigator/replies', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: `About ${chatted}: rest and drink plenty of water.` }),
    });
    await typeInto(chat!, '[part=input]', `${chatted}: a sore throat`);
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => leftovers([`About ${chatted}`]).length > 0, 'the navigator answers', {
      timeout: 5000,
    });
    await typeInto(prescription!, '#q-medicine', `${asked} 100 micrograms`);
    const yes = [...prescription!.shadowRoot!.querySelectorAll('label.choice')]
      .find((label) => label.textContent!.trim() === 'Yes')!
      .querySelector('input')!;
    yes.click();
    await (prescription as PrescriptionRequest).updateComplete;
    $<HTMLButtonElement>(prescription!, '[part~=submit-button]')!.click();
    await waitUntil(() => $(prescription!, '#sent'), 'the request is sent', { timeout: 5000 });
    await typeInto(form!, 'textarea', `${typed}: my knee clicks`);
    const shown = [typed, chatted, asked, 'Renewed from', '142/91'];
    for (const word of shown)
      expect(leftovers([word]), `"${word}" is on the page before`).to.not.deep.equal([]);
    // The list gave way to the case opened: its first questions are looked for too.
    const words = [...shown, ...ALEX_SEEDED];
    await settled();

    // Sam signs in: the moment the session says so, every element has let go of alex.
    let atSwitch: string[] | undefined;
    session.manager.addEventListener('status', () => {
      if (session.manager.status === 'ready' && session.manager.member.current?.uniqueId === 'sam')
        atSwitch ??= leftovers(words);
    });
    session.tokenProvider = backend.signInAs('sam');
    await waitUntil(() => atSwitch !== undefined, 'sam is signed in', { timeout: 5000 });
    expect(atSwitch, 'at the switch').to.deep.equal([]);
    // Each element's own view of the member, by its public side: none of alex's.
    expect((history as CaseHistory).selected, 'no case of alex open').to.equal(undefined);
    expect((thread as ConsultThread).consultation?.userId ?? DEMO_USER_IDS.sam).to.equal(DEMO_USER_IDS.sam);
    await settled();
    expect(leftovers(words), 'once sam’s data has arrived').to.deep.equal([]);
  });
});

describe('sign-out leaves no draft', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => sessionStorage.clear());

  /** The four boxes a member types health text into, each with the text area to type in. */
  const BOXES = {
    prescription: ['prescription-request', '#q-medicine'],
    question: ['consult-form', 'textarea'],
    followup: ['consult-thread', '[part=followup-input]'],
    navigator: ['navigator-chat', '[part=input]'],
  } as const;
  type Box = keyof typeof BOXES;

  /** The orders typed in: each box first once, and the issue's own (prescription, question, navigator). */
  const ORDERS: Box[][] = [
    ['prescription', 'question', 'navigator', 'followup'],
    ['question', 'followup', 'navigator', 'prescription'],
    ['navigator', 'prescription', 'followup', 'question'],
    ['followup', 'question', 'prescription', 'navigator'],
  ];

  it('whatever was typed, in what order, signed out at once or a second later: nothing stays, then or 10 s later', async function () {
    this.timeout(60_000);
    // Every write of a draft after a sign-out, however late: the draft came back.
    const writesAfterSignOut: string[] = [];
    let signedOut = false;
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key: string, value: string) {
      if (signedOut && key.includes(':draft:')) writesAfterSignOut.push(`${key}: ${value}`);
      return setItem.call(this, key, value);
    };
    const typedWords: string[] = [];
    let firstSignOut = 0;
    try {
      for (const [run, order] of ORDERS.entries()) {
        for (const wait of [0, 1000]) {
          signedOut = false;
          const { session, element: root } = await inSession<HTMLElement>(html`
            <div>
              <prescription-request .survey=${SURVEY}></prescription-request>
              <consult-form></consult-form>
              <consult-thread consultation-id="cns_demo_alex_bp"></consult-thread>
              <navigator-chat></navigator-chat>
            </div>
          `);
          const words: string[] = [];
          for (const box of order) {
            const [tag, selector] = BOXES[box];
            const word = `Zebrafinch-${box}-${run}-${wait}`;
            words.push(word);
            await typeInto(root.querySelector(tag)!, selector, `${word} about my anxiety`);
          }
          typedWords.push(...words);
          if (wait) await aTimeout(wait);
          session.signOut();
          signedOut = true;
          firstSignOut ||= performance.now();
          expect(leftovers(words), `${order.join(', ')}, signed out after ${wait} ms`).to.deep.equal([]);
          await settled();
          expect(leftovers(words), `${order.join(', ')}, once the page has settled`).to.deep.equal([]);
          // The page is left as the member left it: the next run is another visit in the same tab.
          session.remove();
        }
      }
      // 10 s after the first sign-out, nothing came back in any run.
      await aTimeout(Math.max(0, firstSignOut + 10_000 - performance.now()));
      expect(leftovers(typedWords), '10 s later').to.deep.equal([]);
      expect(writesAfterSignOut, 'no draft written after a sign-out').to.deep.equal([]);
    } finally {
      Storage.prototype.setItem = setItem;
    }
  });
});
