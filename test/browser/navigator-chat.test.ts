import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { ConsultForm } from '../../src/elements/consult-form/consult-form.js';
import { NavigatorChat } from '../../src/elements/navigator-chat/navigator-chat.js';
import type { NavigatorHandoffEvent, NavigatorMessageEvent } from '../../src/elements/shared/events.js';
import { LANGUAGES } from '../../src/elements/shared/localize.js';
import { preloadMarkdown } from '../../src/elements/shared/markdown.js';
import { SessionManager, type SessionGrant } from '../../src/session/session.js';
import { createDemoBackend, type DemoBackend } from '../../src/sandbox/demo-backend.js';
import { hold, inSession, shadowText, upstreamCalls } from './support/backend.js';
import { hasFocus, waitUntil } from './support/elements.js';

NavigatorChat.define('navigator-chat');

/**
 * A stand-in for `<consult-form>`: registers with its session's placement as a form does, and
 * records what the chat hands it.
 */
class StubConsultForm extends HTMLElement {
  received: string[] = [];
  #release?: () => void;
  connectedCallback(): void {
    const session = this.closest('consult-session') as (HTMLElement & { manager: SessionManager }) | null;
    this.#release = session?.manager.state.placement.addForm({
      idOnPage: () => this.id,
      startQuestion: (text) => this.received.push(text),
    });
  }
  disconnectedCallback(): void {
    this.#release?.();
  }
}
if (!customElements.get('consult-form')) customElements.define('consult-form', StubConsultForm);
// The real form, under a name of a partner's own (the stub above holds the default name).
ConsultForm.define('acme-question-form');

const SYMPTOM = 'I have had a headache and a fever since yesterday';
const GENERAL = 'How much exercise should I get?';
const EMERGENCY = 'I have chest pain';
const CONVERSATIONS = /\/v2\/health-navigator\/users\/[^/]+\/conversations$/;
const MESSAGES = /\/v2\/health-navigator\/messages$/;

const part = <T extends Element = HTMLElement>(element: Element, name: string) =>
  element.shadowRoot!.querySelector<T>(`[part~="${name}"]`);
const parts = (element: Element, name: string) => [
  ...element.shadowRoot!.querySelectorAll(`[part~="${name}"]`),
];
const input = (element: Element) => part<HTMLTextAreaElement>(element, 'input')!;
const replies = (element: Element) => [...element.shadowRoot!.querySelectorAll('.message.navigator')];

async function type(element: NavigatorChat, text: string): Promise<void> {
  input(element).focus();
  await sendKeys({ type: text });
}

/** Types a message, presses Enter and waits for the navigator's reply to it. */
async function ask(element: NavigatorChat, text: string): Promise<Element> {
  const before = replies(element).length;
  await type(element, text);
  await sendKeys({ press: 'Enter' });
  // The greeting arrives with the first message.
  await waitUntil(() => replies(element).length > before + (before === 0 ? 1 : 0), 'the navigator replies', {
    timeout: 5000,
  });
  await element.updateComplete;
  return replies(element).at(-1)!;
}

/** A chat whose session fails to sign in `failures` times, then signs alex in. */
async function chatSigningInAfter(failures: number) {
  const backend = createDemoBackend();
  await backend.ready;
  let attempts = 0;
  const signIn = backend.signInAs('alex');
  const session = new SessionManager({
    endpoint: backend.endpoint,
    fetch: backend.fetch,
    signIn: () => (++attempts <= failures ? Promise.reject(new Error('offline')) : signIn()),
  });
  const element = await fixture<NavigatorChat>(html`<navigator-chat .session=${session}></navigator-chat>`);
  await waitUntil(() => shadowText(element).includes('not available right now'), 'the error shows');
  return { element, attempts: () => attempts };
}

interface FailingMessages {
  backend: DemoBackend;
  /** Each message request: its idempotency key and the status it was answered. */
  attempts: { idempotencyKey: string | null; status: number }[];
  fail(on: boolean): void;
}

/**
 * The navigator's messages answered with the proxy's own 500 while `fail(true)`: a failure that
 * waiting does not mend, so a message shows "Not sent" with a retry. (An outage, a 502, 503, 504
 * or no answer, makes it wait and go out by itself instead: test/browser/offline.test.ts.)
 */
function failingMessages(backend: DemoBackend = createDemoBackend()): FailingMessages {
  let failing = false;
  const attempts: FailingMessages['attempts'] = [];
  const fetch: typeof backend.fetch = async (input, init) => {
    const path = new URL(String(input instanceof Request ? input.url : input), location.href).pathname;
    if (!MESSAGES.test(path) || init?.method !== 'POST') return backend.fetch(input, init);
    const idempotencyKey = new Headers(init.headers).get('idempotency-key');
    const problem = { type: 'about:blank', title: 'Internal error', status: 500, code: 'internal_error' };
    const response = failing
      ? new Response(JSON.stringify(problem), {
          status: 500,
          headers: { 'content-type': 'application/problem+json' },
        })
      : await backend.fetch(input, init);
    attempts.push({ idempotencyKey, status: response.status });
    return response;
  };
  return { backend: { ...backend, fetch }, attempts, fail: (on) => (failing = on) };
}

/** Sends `text` while the proxy fails, and waits for it to show as not sent. */
async function failToSend(element: NavigatorChat, line: FailingMessages, text: string): Promise<Element> {
  line.fail(true);
  await type(element, text);
  await sendKeys({ press: 'Enter' });
  await waitUntil(() => shadowText(element).includes('Not sent'), 'the failure shows', { timeout: 15000 });
  line.fail(false);
  return element.shadowRoot!.querySelector('.message.failed')!;
}

const chatIn = (options: Parameters<typeof inSession>[1] = {}) =>
  inSession<NavigatorChat>(html`<navigator-chat></navigator-chat>`, options);

/** A session for a member the test invents, answered by a scripted `fetch`. */
function scriptedSession(reply: (message: string) => string | string[]): SessionManager {
  const now = () => new Date().toISOString();
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  let sent = 0;
  const scripted: typeof fetch = async (input, init) => {
    const path = new URL(String(input instanceof Request ? input.url : input), location.href).pathname;
    if (CONVERSATIONS.test(path)) {
      return json(
        {
          conversationId: 'conv_scripted',
          userId: 'usr_scripted',
          createdAt: now(),
          messages: [{ messageId: 'msg_0', role: 'navigator', text: 'Hello.', createdAt: now() }],
        },
        201,
      );
    }
    if (MESSAGES.test(path)) {
      const { message } = JSON.parse(String(init?.body)) as { message: string };
      const answers = [reply(message)].flat();
      return json({
        conversationId: 'conv_scripted',
        messages: [
          { messageId: `msg_${++sent}`, role: 'member', text: message, createdAt: now() },
          ...answers.map((text) => ({
            messageId: `msg_${++sent}`,
            role: 'navigator',
            text,
            createdAt: now(),
          })),
        ],
      });
    }
    return json({ code: 'not_found', title: 'Not found', status: 404 }, 404);
  };
  return new SessionManager({
    endpoint: '/consult',
    fetch: scripted,
    signIn: async (): Promise<SessionGrant> => ({
      token: 'scripted-token',
      expiresAt: Date.now() + 3_600_000,
      user: { id: 'usr_scripted', language: 'en' },
    }),
  });
}

describe('<navigator-chat>', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => sessionStorage.clear());

  it('is accessible before the first message, with a welcome and example questions', async () => {
    const { element } = await chatIn();
    await element.updateComplete;
    expect(shadowText(element)).to.contain('Ask the health navigator a general health question');
    expect(parts(element, 'suggestion')).to.have.length(3);
    expect(part(element, 'log')!.getAttribute('role')).to.equal('log');
    expect(part(element, 'log')!.getAttribute('aria-live')).to.equal('polite');
    expect(input(element).labels?.[0]?.textContent).to.contain('Message to the health navigator');
    await expect(element).to.be.accessible();
  });

  it('is accessible and busy while the session signs in', async () => {
    const session = new SessionManager({ endpoint: '/consult', signIn: () => new Promise(() => {}) });
    const element = await fixture<NavigatorChat>(html`<navigator-chat .session=${session}></navigator-chat>`);
    await waitUntil(() => shadowText(element).includes('Connecting'));
    expect(part(element, 'base')!.getAttribute('aria-busy')).to.equal('true');
    await expect(element).to.be.accessible();
  });

  it('shows an error with a retry when the session cannot be had, and recovers', async () => {
    const backend = createDemoBackend();
    await backend.ready;
    let attempts = 0;
    const signIn = backend.signInAs('alex');
    const session = new SessionManager({
      endpoint: backend.endpoint,
      fetch: backend.fetch,
      signIn: () => (++attempts === 1 ? Promise.reject(new Error('offline')) : signIn()),
    });
    const element = await fixture<NavigatorChat>(html`<navigator-chat .session=${session}></navigator-chat>`);
    await waitUntil(() => shadowText(element).includes('not available right now'));
    expect(part(element, 'base')!.getAttribute('aria-busy')).to.equal('false');
    await expect(element).to.be.accessible();
    element.shadowRoot!.querySelector<HTMLButtonElement>('.notice button')!.click();
    await waitUntil(() => part(element, 'input'), 'the chat appears after the retry');
    expect(attempts).to.equal(2);
  });

  it('moves focus to the composer when Try again signs in', async () => {
    const { element, attempts } = await chatSigningInAfter(1);
    element.shadowRoot!.querySelector<HTMLButtonElement>('.notice button')!.focus();
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => part(element, 'input'), 'the chat appears after the retry');
    await element.updateComplete;
    expect(attempts()).to.equal(2);
    expect(hasFocus(element, input(element)), 'focus is in the composer').to.equal(true);
  });

  it('moves focus to the new error when Try again fails again', async () => {
    const { element, attempts } = await chatSigningInAfter(2);
    const first = element.shadowRoot!.querySelector('.notice');
    element.shadowRoot!.querySelector<HTMLButtonElement>('.notice button')!.focus();
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => {
      const notice = element.shadowRoot!.querySelector('.notice');
      return notice !== first && hasFocus(element, notice);
    }, 'focus moves to the new error');
    expect(attempts()).to.equal(2);
    expect(element.shadowRoot!.querySelector('.notice')!.getAttribute('tabindex')).to.equal('-1');
    await expect(element).to.be.accessible();
  });

  it('leaves focus alone when it was elsewhere as Try again was pressed', async () => {
    const { element } = await chatSigningInAfter(1);
    const outside = document.createElement('button');
    outside.textContent = 'Elsewhere on the page';
    element.before(outside);
    outside.focus();
    element.shadowRoot!.querySelector<HTMLButtonElement>('.notice button')!.click();
    await waitUntil(() => part(element, 'input'), 'the chat appears after the retry');
    await element.updateComplete;
    expect(document.activeElement === outside, 'focus stays where the member put it').to.equal(true);
    outside.remove();
  });

  it('says so when it has neither a session nor an endpoint', async () => {
    const element = await fixture<NavigatorChat>(html`<navigator-chat></navigator-chat>`);
    expect(shadowText(element)).to.contain('not set up on this page');
    await expect(element).to.be.accessible();
  });

  it('has sensible defaults', () => {
    const element = document.createElement('navigator-chat') as NavigatorChat;
    expect(element.htmlFor).to.equal(undefined);
    expect(element.suggestions).to.equal(undefined);
    expect(element.endpoint).to.equal(undefined);
    expect(element.session).to.equal(undefined);
    expect(element.theme).to.equal(undefined);
  });

  it('takes the form id from the for attribute and the endpoint from its attribute', async () => {
    const element = await fixture<NavigatorChat>(
      html`<navigator-chat
        for="ask-form"
        endpoint="/elsewhere"
        .session=${scriptedSession(() => 'ok')}
      ></navigator-chat>`,
    );
    expect(element.htmlFor).to.equal('ask-form');
    expect(element.endpoint).to.equal('/elsewhere');
    element.setAttribute('for', 'other-form');
    expect(element.htmlFor).to.equal('other-form');
  });

  it('works alone with its own endpoint attribute', async () => {
    const backend = createDemoBackend({ basePath: '/consult-alone' });
    await backend.ready;
    SessionManager.forEndpoint('/consult-alone').configure({
      fetch: backend.fetch,
      signIn: backend.signInAs('alex'),
    });
    const element = await fixture<NavigatorChat>(
      html`<navigator-chat endpoint="/consult-alone"></navigator-chat>`,
    );
    await waitUntil(() => part(element, 'input'), 'the chat signs in on its own');
    await ask(element, GENERAL);
    expect(upstreamCalls(backend, 'POST', CONVERSATIONS)).to.equal(1);
  });

  it('offers its own example questions, each sent when tapped', async () => {
    const { element, backend } = await chatIn();
    element.suggestions = ['Is walking enough exercise?'];
    await element.updateComplete;
    const [suggestion] = parts(element, 'suggestion') as HTMLButtonElement[];
    expect(suggestion!.textContent!.trim()).to.equal('Is walking enough exercise?');
    suggestion!.click();
    await waitUntil(() => replies(element).length >= 2, 'the navigator answers it', { timeout: 5000 });
    const mine = [...element.shadowRoot!.querySelectorAll('.message.member')].map((m) => m.textContent);
    expect(mine.some((text) => text?.includes('Is walking enough exercise?'))).to.equal(true);
    expect(upstreamCalls(backend, 'POST', MESSAGES)).to.equal(1);
    expect(input(element).value).to.equal('');
    expect(element.shadowRoot!.activeElement).to.equal(input(element));
  });

  describe('when the member types', () => {
    it('sends with Enter, keeps a new line with Shift+Enter, and keeps focus in the composer', async () => {
      const { element, backend } = await chatIn();
      await type(element, 'How much exercise');
      await sendKeys({ press: 'Shift+Enter' });
      await sendKeys({ type: 'should I get?' });
      expect(input(element).value).to.equal('How much exercise\nshould I get?');
      expect(upstreamCalls(backend, 'POST', MESSAGES)).to.equal(0, 'Shift+Enter does not send');
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => replies(element).length === 2, 'greeting and reply');
      expect(input(element).value).to.equal('');
      expect(element.shadowRoot!.activeElement).to.equal(input(element));
      const mine = element.shadowRoot!.querySelector('.message.member .text')!;
      expect(mine.textContent).to.equal('How much exercise\nshould I get?');
      expect(upstreamCalls(backend, 'POST', MESSAGES)).to.equal(1);
      await expect(element).to.be.accessible();
    });

    it('sends with the send button too', async () => {
      const { element } = await chatIn();
      await type(element, GENERAL);
      part<HTMLButtonElement>(element, 'send-button')!.click();
      await waitUntil(() => replies(element).length === 2);
      expect(element.shadowRoot!.activeElement).to.equal(input(element));
    });

    it('does not send an empty message and says why', async () => {
      const { element, backend } = await chatIn();
      await type(element, '   ');
      await sendKeys({ press: 'Enter' });
      await element.updateComplete;
      expect(shadowText(element)).to.contain('Write a message first.');
      expect(input(element).getAttribute('aria-invalid')).to.equal('true');
      expect(upstreamCalls(backend, 'POST', CONVERSATIONS)).to.equal(0);
      expect(upstreamCalls(backend, 'POST', MESSAGES)).to.equal(0);
      await expect(element).to.be.accessible();
    });

    it('shows the 4,000-character limit before it bites and keeps a long text', async () => {
      const { element, backend } = await chatIn();
      const field = input(element);
      field.focus();
      // A paste: one input event with a long text.
      field.value = 'a'.repeat(3600);
      field.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
      await element.updateComplete;
      expect(shadowText(element)).to.contain('400 characters left');
      field.value = 'a'.repeat(4010);
      field.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
      await element.updateComplete;
      expect(shadowText(element)).to.contain('10 characters too many');
      expect(field.getAttribute('aria-invalid')).to.equal('true');
      await sendKeys({ press: 'Enter' });
      await element.updateComplete;
      expect(shadowText(element)).to.contain('up to 4,000 characters');
      expect(field.value).to.have.length(4010);
      expect(upstreamCalls(backend, 'POST', MESSAGES)).to.equal(0);
      await expect(element).to.be.accessible();
    });

    it('keeps the draft across a reload, and says honestly that the conversation is new', async () => {
      const backend = createDemoBackend();
      const first = await chatIn({ backend });
      await ask(first.element, GENERAL);
      await type(first.element, 'And stretching?');
      first.session.remove();

      const second = await chatIn({ backend });
      await second.element.updateComplete;
      expect(input(second.element).value).to.equal('And stretching?');
      expect(shadowText(second.element)).to.contain('This is a new conversation');
      expect(upstreamCalls(backend, 'POST', CONVERSATIONS)).to.equal(1, 'a reload starts nothing by itself');
      await expect(second.element).to.be.accessible();
    });
  });

  describe('when the conversation starts', () => {
    it('starts one conversation on first use, not on focus, and reports each message', async () => {
      const { element, backend } = await chatIn();
      const events: NavigatorMessageEvent['detail'][] = [];
      element.addEventListener('navigator-message', (event) => events.push(event.detail));
      input(element).focus();
      await element.updateComplete;
      expect(upstreamCalls(backend, 'POST', CONVERSATIONS)).to.equal(0, 'focus alone starts nothing');

      await ask(element, GENERAL);
      await ask(element, 'How can I sleep better?');
      expect(upstreamCalls(backend, 'POST', CONVERSATIONS)).to.equal(1);
      expect(upstreamCalls(backend, 'POST', MESSAGES)).to.equal(2);
      expect(events.map((e) => e.role)).to.deep.equal([
        'navigator',
        'member',
        'navigator',
        'member',
        'navigator',
      ]);
      const conversationIds = new Set(events.map((e) => e.conversationId));
      expect(conversationIds.size).to.equal(1);
      for (const detail of events) {
        expect(Object.keys(detail).sort()).to.deep.equal(['conversationId', 'messageId', 'role']);
        expect(detail.messageId).to.be.a('string').and.not.be.empty;
      }
      expect(element.shadowRoot!.querySelectorAll('.message time[datetime]')).to.have.length(5);
    });

    it('shows a typing indicator while the navigator answers, and one message at a time', async () => {
      // The navigator's reply is held on its way to the page until the checks below have run.
      const service = createDemoBackend();
      await service.ready;
      const reply = hold(service, 'POST', MESSAGES);
      const { element, backend } = await chatIn({ backend: { ...service, fetch: reply.fetch } });
      await type(element, GENERAL);
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => part(element, 'typing'), 'the typing indicator shows');
      expect(shadowText(element)).to.contain('The navigator is typing');
      await expect(element).to.be.accessible();

      // The composer stays usable while the reply is on its way, but sending waits.
      await sendKeys({ type: 'How can I sleep better?' });
      await sendKeys({ press: 'Enter' });
      await element.updateComplete;
      expect(shadowText(element)).to.contain('Please wait for the reply');
      expect(input(element).value).to.equal('How can I sleep better?');
      expect(part(element, 'send-button')!.getAttribute('aria-disabled')).to.equal('true');

      reply.release();
      await waitUntil(() => !part(element, 'typing'), 'the reply arrives', { timeout: 10_000 });
      expect(upstreamCalls(backend, 'POST', MESSAGES)).to.equal(1);
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => replies(element).length === 3);
      expect(upstreamCalls(backend, 'POST', MESSAGES)).to.equal(2);
    });
  });

  describe('as a conversation', () => {
    const bubbles = (element: Element) => [...element.shadowRoot!.querySelectorAll<HTMLElement>('.message')];

    it('shows the member’s bubbles in the primary colour and the navigator’s neutral', async () => {
      const { element } = await chatIn();
      await ask(element, GENERAL);
      const [greeting, mine, reply] = bubbles(element);
      const primary = getComputedStyle(part(element, 'send-button')!).backgroundColor;
      expect(getComputedStyle(mine!).backgroundColor).to.equal(primary);
      expect(getComputedStyle(greeting!).backgroundColor).not.to.equal(primary);
      expect(getComputedStyle(reply!).backgroundColor).not.to.equal(primary);
      expect(mine!.querySelector('time')!.textContent).to.equal('now');
      expect(mine!.querySelector('time')!.title, 'the full date on hover').to.match(/\d{4}/);
      await expect(element).to.be.accessible();
    });

    it('names the sender and the time once for messages that follow each other', async () => {
      const element = await fixture<NavigatorChat>(
        html`<navigator-chat
          .session=${scriptedSession(() => ['First part.', 'Second part.'])}
        ></navigator-chat>`,
      );
      await waitUntil(() => input(element), 'the composer shows');
      await type(element, GENERAL);
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => shadowText(element).includes('Second part.'));
      const [, first, second] = replies(element);
      expect(first!.querySelector('.meta'), 'the first of the group is named').to.exist;
      expect(second!.querySelector('.meta'), 'the next one is not').to.equal(null);
      expect(second!.classList.contains('grouped')).to.equal(true);
      expect(second!.textContent, 'still named for screen readers').to.contain('Health navigator');
      await expect(element).to.be.accessible();
    });

    it('shows a cue while older messages are above the visible part of the log', async () => {
      const long = Array.from({ length: 30 }, (_, i) => `Line ${i + 1}`).join('\n\n');
      const element = await fixture<NavigatorChat>(
        html`<navigator-chat .session=${scriptedSession(() => long)}></navigator-chat>`,
      );
      await waitUntil(() => input(element), 'the composer shows');
      await type(element, GENERAL);
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => shadowText(element).includes('Line 30'));
      const log = part(element, 'log')!;
      log.scrollTop = log.scrollHeight;
      log.dispatchEvent(new Event('scroll'));
      await element.updateComplete;
      const cue = element.shadowRoot!.querySelector<HTMLElement>('.older')!;
      expect(cue.hidden).to.equal(false);
      expect(cue.textContent).to.contain('Earlier messages');
      log.scrollTop = 0;
      log.dispatchEvent(new Event('scroll'));
      await element.updateComplete;
      expect(cue.hidden).to.equal(true);
    });

    it('never lets the earlier-messages cue cover a message, even 320 px wide', async () => {
      const long = Array.from({ length: 30 }, (_, i) => `Line ${i + 1}`).join('\n\n');
      const element = await fixture<NavigatorChat>(
        html`<navigator-chat
          style="inline-size: 320px"
          .session=${scriptedSession(() => long)}
        ></navigator-chat>`,
      );
      await waitUntil(() => input(element), 'the composer shows');
      await type(element, GENERAL);
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => shadowText(element).includes('Line 30'));
      const log = part(element, 'log')!;
      for (const scrollTop of [40, 400, log.scrollHeight]) {
        log.scrollTop = scrollTop;
        log.dispatchEvent(new Event('scroll'));
        await element.updateComplete;
        const cue = element.shadowRoot!.querySelector<HTMLElement>('.older span')!.getBoundingClientRect();
        const top = log.getBoundingClientRect().top;
        expect(cue.bottom, 'the cue sits above the log').to.be.at.most(top + 0.5);
        // The log clips its messages at its own edge: none reaches up under the cue.
        expect(['auto', 'scroll']).to.include(getComputedStyle(log).overflowY);
      }
    });

    it('says "Enter sends" only where there is a physical keyboard', async () => {
      const original = window.matchMedia;
      window.matchMedia = (query: string) =>
        ({
          ...original.call(window, query),
          matches: query === '(pointer: fine)' ? false : original.call(window, query).matches,
        }) as MediaQueryList;
      try {
        const { element } = await chatIn();
        expect(shadowText(element)).not.to.contain('Enter sends');
        expect(input(element).getAttribute('aria-describedby') ?? '').not.to.contain('key-hint');
      } finally {
        window.matchMedia = original;
      }
      const { element } = await chatIn();
      expect(shadowText(element)).to.contain('Enter sends');
    });
  });

  describe('when the navigator suggests a doctor', () => {
    it('hands the member’s text to the consult-form named by for, with no text in the event', async () => {
      const { element, session } = await inSession<NavigatorChat>(html`
        <navigator-chat for="second-form"></navigator-chat>
        <consult-form id="first-form"></consult-form>
        <consult-form id="second-form"></consult-form>
      `);
      const reply = await ask(element, SYMPTOM);
      const button = reply.querySelector<HTMLButtonElement>('[part~="handoff-button"]')!;
      expect(button.textContent!.trim()).to.equal('Ask a doctor about this');
      await expect(element).to.be.accessible();

      const handoff = oneEvent(element, 'navigator-handoff') as Promise<NavigatorHandoffEvent>;
      button.click();
      const event = await handoff;
      const [first, second] = [...session.querySelectorAll<StubConsultForm>('consult-form')];
      expect(second!.received).to.deep.equal([SYMPTOM]);
      expect(first!.received).to.deep.equal([]);
      expect(event.detail.handedTo).to.equal('consult-form');
      expect(Object.keys(event.detail).sort()).to.deep.equal(['conversationId', 'handedTo']);
      expect(JSON.stringify(event.detail)).not.to.contain('headache');
      expect(event.bubbles && event.composed).to.equal(true);
    });

    it('uses the first consult-form on the page when no for is given', async () => {
      const { element, session } = await inSession<NavigatorChat>(html`
        <navigator-chat></navigator-chat>
        <consult-form></consult-form>
      `);
      const reply = await ask(element, SYMPTOM);
      reply.querySelector<HTMLButtonElement>('[part~="handoff-button"]')!.click();
      expect(session.querySelector<StubConsultForm>('consult-form')!.received).to.deep.equal([SYMPTOM]);
    });

    it('finds the question form under a name the partner registered it as', async () => {
      const { element, session } = await inSession<NavigatorChat>(html`
        <navigator-chat></navigator-chat>
        <acme-question-form></acme-question-form>
      `);
      const form = session.querySelector('acme-question-form')!;
      expect(form).to.be.instanceOf(ConsultForm);
      const reply = await ask(element, SYMPTOM);
      const handoff = oneEvent(element, 'navigator-handoff') as Promise<NavigatorHandoffEvent>;
      reply.querySelector<HTMLButtonElement>('[part~="handoff-button"]')!.click();
      expect((await handoff).detail.handedTo).to.equal('consult-form');
      const question = () => form.shadowRoot!.querySelector('textarea');
      await waitUntil(() => question()?.value === SYMPTOM, 'the form holds the member’s words', {
        timeout: 5000,
      });
      // The member is taken there: focus in the box that holds their words.
      await waitUntil(() => form.shadowRoot!.activeElement === question(), 'focus in the form’s box', {
        timeout: 5000,
      });
      expect(document.activeElement).to.equal(form);
    });

    it('hands over to no form of another session, and says where to go', async () => {
      const { element } = await chatIn();
      // A form on the page, but not of this chat's session: the hand-off does not reach across.
      const elsewhere = new StubConsultForm();
      document.body.append(elsewhere);
      try {
        const reply = await ask(element, SYMPTOM);
        const handoff = oneEvent(element, 'navigator-handoff') as Promise<NavigatorHandoffEvent>;
        reply.querySelector<HTMLButtonElement>('[part~="handoff-button"]')!.click();
        expect((await handoff).detail.handedTo).to.equal('none');
        expect(elsewhere.received).to.deep.equal([]);
        await element.updateComplete;
        expect(shadowText(element)).to.contain('There is no question form on this page');
      } finally {
        elsewhere.remove();
      }
    });

    it('does not offer a doctor to a member without an active plan, and says why', async () => {
      const { element } = await inSession<NavigatorChat>(html`<navigator-chat></navigator-chat>`, {
        member: 'sam',
      });
      const reply = await ask(element, SYMPTOM);
      await waitUntil(() => shadowText(element).includes('not part of your plan'), 'the reason shows');
      expect(reply.querySelector('[part~="handoff-button"]')).to.equal(null);
      await expect(element).to.be.accessible();
    });

    it('tells a member without an active plan to call for help and see their own doctor, not to ask one here', async () => {
      const { element } = await inSession<NavigatorChat>(html`<navigator-chat></navigator-chat>`, {
        member: 'sam',
      });
      const urgent = await ask(element, EMERGENCY);
      await waitUntil(() => urgent.textContent!.includes('not part of your plan'), 'the reason shows');
      // What the reply says agrees with the notice under it.
      expect(urgent.textContent).to.contain('contact your own doctor');
      expect(urgent.textContent).not.to.match(/\bcan ask a (?:licensed )?doctor/i);
      expect(urgent.querySelector('[part~="handoff-button"]')).to.equal(null);
      for (const question of ['How does this work?', 'Can I talk to a doctor?']) {
        const reply = await ask(element, question);
        expect(reply.textContent).to.contain('Your plan does not include written questions to a doctor');
        expect(reply.textContent).not.to.match(/\bcan ask a (?:licensed )?doctor/i);
      }
      await expect(element).to.be.accessible();
    });

    it('says where to go when the page has no consult-form', async () => {
      const { element } = await chatIn();
      const reply = await ask(element, SYMPTOM);
      const handoff = oneEvent(element, 'navigator-handoff') as Promise<NavigatorHandoffEvent>;
      reply.querySelector<HTMLButtonElement>('[part~="handoff-button"]')!.click();
      expect((await handoff).detail.handedTo).to.equal('none');
      await element.updateComplete;
      expect(shadowText(element)).to.contain('There is no question form on this page');
      await expect(element).to.be.accessible();
    });

    it('offers no handoff for a general question', async () => {
      const { element } = await chatIn();
      const reply = await ask(element, GENERAL);
      expect(reply.querySelector('.markdown strong')?.textContent).to.equal('150 minutes');
      expect(parts(element, 'handoff-button')).to.have.length(0);
    });

    it('shows an emergency reply as urgent, with the number to call first, and the session says so assertively', async () => {
      const { element, session } = await chatIn();
      session.emergencyNumber = '112';
      await session.updateComplete;
      const reply = await ask(element, EMERGENCY);
      expect(reply.classList.contains('urgent')).to.equal(true);
      expect(reply.querySelector('.urgent-label')!.textContent).to.equal('Urgent');
      const call = reply.querySelector<HTMLAnchorElement>('[part~=emergency-call]')!;
      expect(call.localName).to.equal('a');
      expect(call.getAttribute('href')).to.equal('tel:112');
      expect(call.textContent!.trim()).to.equal('Call 112');
      // Large enough to tap at once.
      expect(call.getBoundingClientRect().height).to.be.at.least(44);
      // Any written hand-off comes after the call.
      const handoff = reply.querySelector('[part~=handoff-button]');
      if (handoff)
        expect(call.compareDocumentPosition(handoff) & Node.DOCUMENT_POSITION_FOLLOWING).to.not.equal(0);
      const assertive = session.shadowRoot!.querySelector('[role=alert]')!;
      expect(assertive.textContent).to.contain('Urgent: if you are in danger, call 112 now.');
      await expect(element).to.be.accessible();
    });

    it('tells the member to call their local emergency number where the partner set none', async () => {
      const { element, session } = await chatIn();
      const reply = await ask(element, EMERGENCY);
      const call = reply.querySelector('[part~=emergency-call]')!;
      expect(call.localName).to.equal('p');
      expect(call.textContent!.trim()).to.equal('Call your local emergency number now');
      expect(session.shadowRoot!.querySelector('[role=alert]')!.textContent).to.contain(
        'Urgent: if you are in danger, call your local emergency number now.',
      );
      await expect(element).to.be.accessible();
    });
  });

  describe('when a message cannot be sent', () => {
    it('keeps it as "Not sent" and delivers it once on retry, with the same idempotency key', async function () {
      this.timeout(20000);
      const line = failingMessages();
      const { element } = await chatIn({ backend: line.backend });
      const errors: string[] = [];
      element.addEventListener('consult-error', (event) => errors.push(JSON.stringify(event.detail)));
      await ask(element, GENERAL);

      line.fail(true);
      const text = 'How can I sleep better?';
      await type(element, text);
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => shadowText(element).includes('Not sent'), 'the failure shows', {
        timeout: 15000,
      });
      const failed = element.shadowRoot!.querySelector('.message.failed')!;
      expect(failed.querySelector('.text')!.textContent).to.equal(text);
      expect(errors).to.have.length(1);
      expect(errors[0]).to.contain('sendNavigatorMessage');
      expect(errors[0]).not.to.contain('sleep');
      await expect(element).to.be.accessible();

      line.fail(false);
      failed.querySelector<HTMLButtonElement>('[part~="retry-button"]')!.click();
      await waitUntil(() => replies(element).length === 3, 'the retried message is answered', {
        timeout: 5000,
      });
      expect(shadowText(element)).not.to.contain('Not sent');
      expect(element.shadowRoot!.activeElement).to.equal(input(element));

      const { attempts } = line;
      const failedAttempts = attempts.filter((r) => r.status >= 500);
      const delivered = attempts.filter((r) => r.status === 200);
      expect(failedAttempts.length).to.be.greaterThan(0);
      const retriedKey = failedAttempts[0]!.idempotencyKey;
      expect(retriedKey).to.be.a('string');
      expect(new Set(failedAttempts.map((r) => r.idempotencyKey))).to.deep.equal(new Set([retriedKey]));
      expect(delivered.filter((r) => r.idempotencyKey === retriedKey)).to.have.length(1);
      expect(delivered).to.have.length(2);
    });

    it('keeps focus in the composer when Retry is pressed from the keyboard', async function () {
      this.timeout(30000);
      const line = failingMessages();
      const { element } = await chatIn({ backend: line.backend });
      await ask(element, GENERAL);
      const failed = await failToSend(element, line, 'How can I sleep better?');
      failed.querySelector<HTMLButtonElement>('[part~="retry-button"]')!.focus();
      await sendKeys({ press: 'Enter' });
      await element.updateComplete;
      expect(hasFocus(element, input(element)), 'focus moves to the composer').to.equal(true);
      await waitUntil(() => replies(element).length === 3, 'the retried message is answered', {
        timeout: 5000,
      });
      expect(hasFocus(element, input(element)), 'focus stays in the composer').to.equal(true);
    });

    it('keeps focus in the composer when a retried message fails again', async function () {
      this.timeout(40000);
      const line = failingMessages();
      const { element } = await chatIn({ backend: line.backend });
      await ask(element, GENERAL);
      const failed = await failToSend(element, line, 'How can I sleep better?');
      line.fail(true);
      const attempts = line.attempts.length;
      failed.querySelector<HTMLButtonElement>('[part~="retry-button"]')!.focus();
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => line.attempts.length > attempts, 'the message is sent again');
      await waitUntil(() => shadowText(element).includes('Not sent'), 'it fails again', { timeout: 15000 });
      line.fail(false);
      expect(hasFocus(element, input(element)), 'focus stays in the composer').to.equal(true);
    });

    it('leaves focus alone when Retry is pressed while focus is elsewhere', async function () {
      this.timeout(30000);
      const line = failingMessages();
      const { element, session } = await chatIn({ backend: line.backend });
      await ask(element, GENERAL);
      const failed = await failToSend(element, line, 'How can I sleep better?');
      const outside = document.createElement('button');
      outside.textContent = 'Elsewhere on the page';
      session.before(outside);
      outside.focus();
      failed.querySelector<HTMLButtonElement>('[part~="retry-button"]')!.click();
      await waitUntil(() => replies(element).length === 3, 'the retried message is answered', {
        timeout: 5000,
      });
      expect(document.activeElement === outside, 'focus stays where the member put it').to.equal(true);
      outside.remove();
    });

    it('keeps an unsent message through a reload, back in the composer', async function () {
      this.timeout(20000);
      const line = failingMessages();
      const first = await chatIn({ backend: line.backend });
      line.fail(true);
      await type(first.element, 'Is coffee bad for me?');
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => shadowText(first.element).includes('Not sent'), 'the failure shows', {
        timeout: 15000,
      });
      line.fail(false);
      first.session.remove();

      const second = await chatIn({ backend: line.backend });
      await second.element.updateComplete;
      expect(input(second.element).value).to.equal('Is coffee bad for me?');
    });
  });

  it('renders a hostile reply as harmless markdown', async () => {
    const hostile = '<img src=x onerror=alert(1)>[x](javascript:alert(1))<script>alert(1)</script> **fine**';
    let alerted = false;
    const original = window.alert;
    window.alert = () => {
      alerted = true;
    };
    try {
      await preloadMarkdown();
      const element = await fixture<NavigatorChat>(
        html`<navigator-chat .session=${scriptedSession(() => hostile)}></navigator-chat>`,
      );
      await waitUntil(() => part(element, 'input'));
      const reply = await ask(element, 'Tell me something');
      const rendered = reply.querySelector('.markdown')!;
      await waitUntil(() => rendered.querySelector('strong'), 'the markdown renders');
      expect(rendered.querySelector('script, img, iframe')).to.equal(null);
      for (const node of rendered.querySelectorAll('*')) {
        for (const attribute of node.attributes) expect(attribute.name).not.to.match(/^on/i);
      }
      for (const link of rendered.querySelectorAll('a'))
        expect(link.getAttribute('href') ?? '').not.to.match(/script:/i);
      expect(alerted).to.equal(false);
    } finally {
      window.alert = original;
    }
  });

  it('clears the conversation when another member signs in', async () => {
    const { element, session, backend } = await chatIn();
    await ask(element, GENERAL);
    await type(element, 'Half-typed');
    session.manager.configure({ signIn: backend.signInAs('sam') });
    await session.manager.ready();
    await waitUntil(
      () => element.shadowRoot!.querySelectorAll('.message').length === 0,
      'the chat is cleared',
    );
    expect(input(element).value).to.equal('');
    expect(shadowText(element)).not.to.contain('This is a new conversation');
  });

  describe('in every language', () => {
    for (const lang of LANGUAGES) {
      it(`renders in ${lang}${lang === 'ar' ? ', right to left' : ''}`, async () => {
        const { element } = await inSession<NavigatorChat>(
          html`<navigator-chat lang=${lang}></navigator-chat>`,
        );
        await element.updateComplete;
        expect(part(element, 'base')!.getAttribute('dir')).to.equal(lang === 'ar' ? 'rtl' : 'ltr');
        expect(part(element, 'base')!.getAttribute('lang')).to.equal(lang);
        const welcome = shadowText(element);
        await ask(element, SYMPTOM);
        const text = `${welcome} ${shadowText(element)}`;
        if (lang !== 'en') {
          for (const english of [
            'Ask the health navigator',
            'Enter sends',
            'Ask a doctor about this',
            'Health navigator',
            'Message to the health navigator',
          ]) {
            expect(text).not.to.contain(english);
          }
          expect(part(element, 'send-button')!.textContent!.trim()).not.to.equal('Send');
          expect(part(element, 'log')!.getAttribute('aria-label')).not.to.contain('health navigator');
        }
        await expect(element).to.be.accessible();
      });
    }

    it('follows the member’s language when the element has none', async () => {
      const { element } = await chatIn({ member: 'noor' });
      await element.updateComplete;
      expect(part(element, 'base')!.getAttribute('dir')).to.equal('rtl');
      expect(shadowText(element)).to.contain('المرشد الصحي');
    });
  });
});
