/**
 * What a screen reader gets, read from Chromium's own accessibility tree (not only axe): short row
 * names with the details as descriptions, the thread's subject as its heading, one announcement per
 * change in the words the screen shows, Escape back to the list, and no false alert at sign-out.
 */
import { expect, fixture, html, nextFrame } from '@open-wc/testing';
import { executeServerCommand, sendKeys } from '@web/test-runner-commands';
import { CaseHistory } from '../../src/elements/case-history/case-history.js';
import { ConsultThread } from '../../src/elements/consult-thread/consult-thread.js';
import { ConsultForm } from '../../src/elements/consult-form/consult-form.js';
import { NavigatorChat } from '../../src/elements/navigator-chat/navigator-chat.js';
import { ConsultAccess } from '../../src/elements/consult-access/consult-access.js';
import type { DemoBackend } from '../../src/sandbox/demo-backend.js';
import { inSession, scriptedHistory } from './support/backend.js';
import { waitUntil } from './support/elements.js';

CaseHistory.define('case-history');
ConsultThread.define('consult-thread');
ConsultForm.define('consult-form');
NavigatorChat.define('navigator-chat');
ConsultAccess.define('consult-access');

interface AxNode {
  role: string;
  name: string;
  description: string;
}

/**
 * Chromium's accessibility tree of the page, as screen readers get it; a space Chromium puts
 * between a row's parts before their comma (which no screen reader speaks) is left out.
 */
const accessibilityTree = async () =>
  (await executeServerCommand<AxNode[], undefined>('accessibility-tree')).map((node) => ({
    ...node,
    name: node.name.replace(/\s+,/g, ','),
  }));

const $ = <T extends Element = HTMLElement>(element: Element, selector: string) =>
  element.shadowRoot!.querySelector<T>(selector);
const rows = (element: CaseHistory) => [
  ...element.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part=item]'),
];
const listed = (element: CaseHistory) =>
  waitUntil(() => rows(element).length > 0, 'the list loads', { timeout: 5000 });
const thread = (element: CaseHistory) => $<ConsultThread>(element, 'consult-thread');

const sandboxPost = (backend: DemoBackend, path: string, body?: unknown) =>
  backend.sandbox.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** The buttons of the tree whose name or description mentions `words`. */
const buttonsAbout = (tree: AxNode[], words: string) =>
  tree.filter((n) => n.role === 'button' && (n.name + n.description).includes(words));

describe('screen readers', () => {
  it('names each row shortly (who, status, when, unread) and describes it with its subject', async () => {
    const { backend, element } = await inSession<CaseHistory>(html`<case-history></case-history>`);
    // An answer from Dr. Becker that Alex has not seen yet.
    await listed(element);
    await sandboxPost(backend, '/_sandbox/consultations/cns_demo_alex_vitamin/answer', {
      answer: `Yes. ${'Most adults benefit from 10 micrograms a day from October to March. '.repeat(10)}`,
      professional: {
        name: 'Dr. Amara Okafor',
        title: 'General Practitioner',
        specialties: ['General practice'],
        licenses: [{ licenseNumber: 'GMC 7212345', countries: ['GB'] }],
      },
    });
    await waitUntil(() => rows(element)[0]!.querySelector('[part~=unread]'), 'the answer arrives', {
      timeout: 5000,
    });

    const tree = await accessibilityTree();
    const [vitamin] = buttonsAbout(tree, 'vitamin D supplement');
    expect(vitamin, 'the row is in the tree').to.not.equal(undefined);
    expect(vitamin!.name).to.match(
      /^New answer, Dr\. Amara Okafor, Answered, (now|\d+ (seconds?|minutes?) ago)$/,
    );
    expect(vitamin!.description).to.equal(
      'Should I take a vitamin D supplement during winter?. 1 of 3 questions',
    );
    // Not a word of the answer in the name or description.
    expect(vitamin!.name + vitamin!.description).not.to.contain('micrograms');

    const [bp] = buttonsAbout(tree, '142/91');
    expect(bp!.name.startsWith('Dr. ')).to.equal(true);
    expect(bp!.name).to.contain(', Answered, ');
    expect(bp!.name).not.to.contain('142/91');
    expect(bp!.description).to.contain('My home blood pressure readings are around 142/91');
    // Every row's name is short: a glance, not the answer.
    const names = tree.filter((n) => n.role === 'button' && n.description).map((n) => n.name);
    expect(names).to.have.length(4);
    for (const name of names) expect(name.length).to.be.below(80);
  });

  it('gives every row of a long list to the screen reader, not only those on screen', async () => {
    // Rows a browser skips drawing (content-visibility) lose their description in Chromium's tree:
    // a member browsing the list by screen reader would find 11 of 50 rows described.
    const element = await fixture<CaseHistory>(
      html`<case-history chunk-size="50" .session=${scriptedHistory(50)}></case-history>`,
    );
    await waitUntil(() => rows(element).length === 50, 'the first 50 rows', { timeout: 5000 });
    await nextFrame();
    await nextFrame();
    const described = (await accessibilityTree()).filter(
      (node) => node.role === 'button' && node.description.includes('Scripted question'),
    );
    expect(described).to.have.length(50);
  });

  it('names a question that waits by what it waits for and when it was asked', async () => {
    const { session, element } = await inSession<CaseHistory>(html`<case-history></case-history>`);
    await listed(element);
    const user = await session.manager.ready();
    await session.manager.state.createConsultation(
      ['Is it normal to feel dizzy after standing up?'],
      'key-dizzy',
    );
    await waitUntil(() => rows(element).length === 5, 'the new case is listed', { timeout: 5000 });
    expect(user.id).to.be.a('string');
    const tree = await accessibilityTree();
    const [dizzy] = buttonsAbout(tree, 'dizzy');
    expect(dizzy!.name).to.match(/^Waiting for a professional, asked (now|\d+ seconds? ago)$/);
    expect(dizzy!.description).to.contain('Is it normal to feel dizzy after standing up?');
  });

  it('titles the open thread with its subject, with the status on screen but not as the heading', async () => {
    const { element } = await inSession<CaseHistory>(html`<case-history></case-history>`);
    await listed(element);
    rows(element)[1]!.click();
    await waitUntil(() => thread(element) && $(thread(element)!, '#heading'), 'the thread opens', {
      timeout: 5000,
    });
    const opened = thread(element)!;
    const tree = await accessibilityTree();
    const headings = tree.filter((n) => n.role === 'heading').map((n) => n.name);
    expect(headings).to.include('My home blood pressure readings are around 142/91. Should I be worried?');
    expect(headings.some((h) => h.includes('Status'))).to.equal(false);
    expect($(opened, '.header [part=status]')!.textContent).to.contain('Answered');
  });

  it('shortens a long subject in the heading', async () => {
    const { session, element } = await inSession<CaseHistory>(html`<case-history></case-history>`);
    await listed(element);
    const long = `I have had a headache every afternoon for two weeks, ${'and it gets worse when I look at a screen, '.repeat(8)}what should I do?`;
    const created = await session.manager.state.createConsultation([long], 'key-long');
    element.selected = created.consultationId;
    await waitUntil(() => thread(element) && $(thread(element)!, '#heading'), 'the thread opens', {
      timeout: 5000,
    });
    const heading = $(thread(element)!, '#heading')!.textContent!.trim();
    expect(heading.length).to.be.at.most(80);
    expect(heading.endsWith('…')).to.equal(true);
    expect(heading.startsWith('I have had a headache every afternoon')).to.equal(true);
  });

  it('announces a claim once, naming the professional the screen names', async () => {
    const { backend, session, element } = await inSession<CaseHistory>(html`<case-history></case-history>`);
    await listed(element);
    const heard: string[] = [];
    session.manager.announcer.addEventListener('change', () =>
      heard.push(session.manager.announcer.polite.trim() || session.manager.announcer.assertive.trim()),
    );
    await waitUntil(() => session.manager.live, 'the live stream opens', { timeout: 5000 });
    element.selected = 'cns_demo_alex_vitamin';
    await waitUntil(() => thread(element) && $(thread(element)!, '#heading'), 'the thread opens', {
      timeout: 5000,
    });
    await sandboxPost(backend, '/_sandbox/consultations/cns_demo_alex_vitamin/claim', {
      professional: {
        name: 'Dr Ana Ruiz',
        title: 'General practitioner',
        specialties: ['General practice'],
        licenses: [{ licenseNumber: 'GMC 7212346', countries: ['GB'] }],
      },
    });
    await waitUntil(() => heard.length > 0, 'the claim is announced', { timeout: 5000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const opened = thread(element)!;
    expect($(opened, '.status-line')!.textContent).to.equal(
      'Dr Ana Ruiz, General practitioner, is reviewing your question',
    );
    expect(heard).to.deep.equal(['Dr Ana Ruiz, General practitioner, is reviewing your question']);
  });

  it('goes back to the list on Escape, focus on the row of the consultation that was open', async () => {
    const { element } = await inSession<CaseHistory>(html`<case-history></case-history>`);
    await listed(element);
    rows(element)[2]!.focus();
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => thread(element) && $(thread(element)!, '#heading'), 'the thread opens', {
      timeout: 5000,
    });
    // From the follow-up box inside the thread, as well as from the back button.
    const box = $<HTMLTextAreaElement>(thread(element)!, 'textarea');
    box?.focus();
    await sendKeys({ press: 'Escape' });
    await waitUntil(() => !thread(element), 'the list is back', { timeout: 5000 });
    await waitUntil(
      () => element.shadowRoot!.activeElement === rows(element)[2],
      'focus is on the row that was open',
      { timeout: 5000 },
    );
    expect(rows(element)[2]!.textContent).to.contain('Dr.');
  });

  it('says nothing urgent at sign-out: no alert, no "not available"', async () => {
    const { session } = await inSession<HTMLElement>(
      html`<div>
        <consult-access></consult-access><consult-form></consult-form><case-history></case-history
        ><navigator-chat></navigator-chat>
      </div>`,
    );
    const history = session.querySelector<CaseHistory>('case-history')!;
    const navigator = session.querySelector<NavigatorChat>('navigator-chat')!;
    await listed(history);
    await waitUntil(() => $(navigator, '[part=input]'), 'the navigator is ready', { timeout: 5000 });
    const urgent: string[] = [];
    const polite: string[] = [];
    const { announcer } = session.manager;
    announcer.addEventListener('change', () => {
      if (announcer.assertive) urgent.push(announcer.assertive);
      if (announcer.polite) polite.push(announcer.polite);
    });
    session.signOut();
    await new Promise((resolve) => setTimeout(resolve, 1500));

    expect(urgent).to.deep.equal([]);
    expect(polite).to.deep.equal([]);
    const tree = await accessibilityTree();
    const alerts = tree.filter((n) => n.role === 'alert');
    expect(alerts.map((n) => n.name)).to.deep.equal([]);
    // Nor in any element's own DOM, where a live-region observer would hear it.
    for (const element of session.querySelectorAll('*'))
      expect(element.shadowRoot?.querySelector('[role=alert]') ?? null, element.localName).to.equal(null);
    const said = tree.map((n) => n.name).join(' | ');
    expect(said).not.to.contain('not available');
    // The session's own notice confirms it, politely.
    const notice = $(session, '[part=notice]')!;
    expect(notice.getAttribute('role')).to.equal('status');
    expect(notice.textContent).to.contain('You have signed out');
  });
});
