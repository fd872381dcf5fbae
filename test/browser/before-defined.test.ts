/**
 * Properties a page or a framework sets on an element before the loader has defined it: on the
 * plain, not yet upgraded element they are own properties of the instance, which would hide the
 * element's own accessors. Every element keeps every public property set that way, whether it was
 * set before the tag was defined at all, or after the tag was defined and before the element met
 * the page (and so was upgraded). Nothing is defined when this file starts.
 */
import { expect } from '@open-wc/testing';
import { CaseHistory } from '../../src/elements/case-history/case-history.js';
import { ConsultAccess } from '../../src/elements/consult-access/consult-access.js';
import { ConsultForm } from '../../src/elements/consult-form/consult-form.js';
import { ConsultSession } from '../../src/elements/consult-session/consult-session.js';
import { ConsultThread } from '../../src/elements/consult-thread/consult-thread.js';
import { NavigatorChat } from '../../src/elements/navigator-chat/navigator-chat.js';
import type { Survey } from '../../src/elements/prescription-request/survey.js';
import { PrescriptionRequest } from '../../src/elements/prescription-request/prescription-request.js';
import { ELEMENTS, type ElementTag } from '../../src/elements/registry.js';
import type { ConsultElement } from '../../src/elements/shared/consult-element.js';
import { createDemoBackend } from '../../src/sandbox/demo-backend.js';
import { SessionManager } from '../../src/session/session.js';
import { waitUntil } from './support/elements.js';

const CLASSES: Record<ElementTag, typeof ConsultElement> = {
  'consult-session': ConsultSession,
  'consult-form': ConsultForm,
  'case-history': CaseHistory,
  'consult-thread': ConsultThread,
  'navigator-chat': NavigatorChat,
  'consult-access': ConsultAccess,
  'prescription-request': PrescriptionRequest,
};

const backend = createDemoBackend();
const session = new SessionManager({
  endpoint: backend.endpoint,
  fetch: backend.fetch,
  signIn: backend.signInAs('alex'),
});

const SURVEY: Survey = {
  questions: [{ id: 'medicine', kind: 'text', required: true, label: 'Which medicine do you need?' }],
};

const CONSULTATION = {
  consultationId: 'cns_set_early',
  userId: 'usr_set_early',
  status: 'resolved',
  createdAt: '2026-03-04T10:00:00.000Z',
  questions: [{ question: 'Was this set before the element was defined?', answer: 'It was kept.' }],
};

/** A value for every public property of every element, each unlike its default. */
const VALUES: Record<string, unknown> = {
  theme: 'dark',
  endpoint: backend.endpoint,
  session,
  tokenProvider: backend.signInAs('alex'),
  signInBody: { portal: 'acme' },
  fetch: backend.fetch,
  replyHours: 12,
  emergencyNumber: '112',
  pushWorker: '/consult/push/sw.js',
  serviceNotifications: true,
  busy: true,
  selected: 'cns_demo_alex_rash',
  chunkSize: 7,
  consultationId: CONSULTATION.consultationId,
  consultation: CONSULTATION,
  htmlFor: 'acme-form',
  suggestions: ['Is walking enough exercise?', 'Should I drink more water?'],
  expiringDays: 10,
  survey: SURVEY,
};

/**
 * The element's public properties, as a partner sets them from a script. `lang` and `dir` are the
 * browser's own (on every HTML element, defined or not), so setting them writes their attributes.
 */
function publicProperties(tag: ElementTag): string[] {
  return [...CLASSES[tag].elementProperties]
    .filter(([name, { state }]) => typeof name === 'string' && !state && name !== 'lang' && name !== 'dir')
    .map(([name]) => name as string);
}

/** Shadow-root text, whitespace folded (the support module would define <consult-session> on import). */
const shadowText = (element: Element) => (element.shadowRoot?.textContent ?? '').replace(/\s+/g, ' ');

const own = (element: Element) => element as unknown as Record<string, unknown>;

function setAll(element: HTMLElement, tag: ElementTag): void {
  for (const name of publicProperties(tag)) own(element)[name] = VALUES[name];
}

/** Every property reads back as it was set, through the element's accessor. */
async function expectKept(element: HTMLElement, tag: ElementTag): Promise<void> {
  await (element as ConsultElement).updateComplete;
  for (const name of publicProperties(tag)) {
    expect(Object.hasOwn(element, name), `${tag}.${name} is no longer an own property`).to.equal(false);
    expect(own(element)[name], `${tag}.${name}`).to.equal(VALUES[name]);
  }
}

describe('properties set before an element is defined', () => {
  let container: HTMLElement;
  before(async () => {
    await backend.ready;
  });
  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
  });
  afterEach(() => container.remove());

  it('have a value here for every public property of every element', () => {
    for (const { tag } of ELEMENTS) {
      // Not `expect(VALUES).to.have.property`: its failure message would print VALUES, session and
      // backend included, which takes the browser longer than the run allows (the file then hangs).
      for (const name of publicProperties(tag))
        expect(Object.hasOwn(VALUES, name), `VALUES has ${tag}.${name}`).to.equal(true);
    }
  });

  it('are kept when set before the tag is defined at all, and the elements use them', async () => {
    expect(customElements.get('consult-session')).to.equal(undefined);
    const elements = ELEMENTS.map(({ tag }) => {
      const element = document.createElement(tag);
      setAll(element, tag);
      return [tag, element] as const;
    });
    container.append(...elements.map(([, element]) => element));
    for (const { tag } of ELEMENTS) CLASSES[tag].define(tag);
    for (const [tag, element] of elements) await expectKept(element, tag);

    const find = <T extends Element>(tag: ElementTag) => container.querySelector(tag) as unknown as T;
    // The session signed in through the tokenProvider and fetch set on it before it was defined.
    const sessionElement = find<ConsultSession>('consult-session');
    await waitUntil(() => sessionElement.manager.status === 'ready', 'the session signs in', {
      timeout: 5000,
    });
    const chat = find<NavigatorChat>('navigator-chat');
    await waitUntil(
      () => chat.shadowRoot!.querySelectorAll('[part~=suggestion]').length === 2,
      'the chat shows the suggestions it was given',
      { timeout: 5000 },
    );
    expect(
      [...chat.shadowRoot!.querySelectorAll('[part~=suggestion]')].map((b) => b.textContent!.trim()),
    ).to.deep.equal(VALUES.suggestions);
    expect(shadowText(find('consult-thread'))).to.contain('Was this set before the element was defined?');
    expect(shadowText(find('prescription-request'))).to.contain('Which medicine do you need?');
    expect(find('consult-form').hasAttribute('busy'), 'busy is reflected').to.equal(true);
    expect(find('case-history').getAttribute('theme')).to.equal('dark');
  });

  it('read back at once when the element is defined, and one set again before its first update wins', async () => {
    const chat = document.createElement('later-navigator-chat') as NavigatorChat;
    chat.session = session;
    chat.suggestions = ['Set before it was defined'];
    container.append(chat);
    NavigatorChat.define('later-navigator-chat');
    expect(chat.suggestions).to.deep.equal(['Set before it was defined']);
    // Defined, not rendered yet: a framework updating its binding now must not be undone by the first update.
    expect(chat.hasUpdated).to.equal(false);
    chat.suggestions = ['Set once it was defined'];
    await chat.updateComplete;
    expect(chat.suggestions).to.deep.equal(['Set once it was defined']);
    await waitUntil(() => chat.shadowRoot!.querySelector('[part~=suggestion]'), 'the suggestion shows', {
      timeout: 5000,
    });
    expect(chat.shadowRoot!.querySelector('[part~=suggestion]')!.textContent!.trim()).to.equal(
      'Set once it was defined',
    );
  });

  it('are kept when set after the tag is defined but before the element is upgraded', async () => {
    const elements = ELEMENTS.map(({ tag }) => {
      const name = `acme-${tag}`;
      // Made while its name is not defined yet: a plain element, upgraded only once it is on the page.
      const element = document.createElement(name);
      CLASSES[tag].define(name);
      expect(element).not.to.be.instanceOf(CLASSES[tag]);
      setAll(element, tag);
      return [tag, element] as const;
    });
    container.append(...elements.map(([, element]) => element));
    for (const [tag, element] of elements) {
      expect(element).to.be.instanceOf(CLASSES[tag]);
      await expectKept(element, tag);
    }
    const chat = container.querySelector('acme-navigator-chat')!;
    await waitUntil(
      () => chat.shadowRoot!.querySelectorAll('[part~=suggestion]').length === 2,
      'the chat shows the suggestions it was given',
      { timeout: 5000 },
    );
    expect(shadowText(container.querySelector('acme-consult-thread')!)).to.contain(
      'Was this set before the element was defined?',
    );
  });
});
