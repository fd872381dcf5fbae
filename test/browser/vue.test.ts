/**
 * The elements in a Vue 3 app, as a partner writes one: a template compiled by Vue, the elements
 * declared as custom elements, the script-tag loader defining each one when Vue puts its tag on
 * the page, against the partner's back end running in the page.
 *
 * What Vue does with a binding depends on whether the element is defined yet: its runtime sets a
 * property only when `key in element`, so before the element is defined it sets an attribute
 * instead, with the value turned into text. `.prop` always sets the property. The tests run in
 * order: the first mounts while nothing is defined.
 */
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { createApp, nextTick, ref, type App } from 'vue/dist/vue.esm-browser.js';
import { whenLoaded } from '../../src/define.js';
import type { ConsultForm } from '../../src/elements/consult-form/consult-form.js';
import type { ConsultSession } from '../../src/elements/consult-session/consult-session.js';
import { NavigatorChat } from '../../src/elements/navigator-chat/navigator-chat.js';
import { createDemoBackend, type DemoBackend } from '../../src/sandbox/demo-backend.js';
import { waitUntil } from './support/elements.js';

/** The README's `isCustomElement`, and `acme-` for the names this file registers elements under. */
const isCustomElement = (tag: string) =>
  tag.startsWith('consult-') ||
  ['case-history', 'navigator-chat', 'prescription-request'].includes(tag) ||
  tag.startsWith('acme-');

const SUGGESTIONS = ['Is walking enough exercise?', 'Should I drink more water?'];
const QUESTION = 'Can I take ibuprofen with my blood pressure tablets?';

/**
 * The partner's page: a session with a form and the navigator, the form's event counted. Its
 * properties bound with a plain `:`, or as properties: `.name` and its long form `:name.prop`.
 */
const TEMPLATE = (as: 'plain' | 'prop') => `
  <consult-session ${as === 'prop' ? '.' : ':'}fetch="backendFetch" ${as === 'prop' ? '.' : ':'}tokenProvider="signIn" reply-hours="12">
    <consult-form @consult-submitted="sent++"></consult-form>
    <navigator-chat :suggestions${as === 'prop' ? '.prop' : ''}="suggestions" for="consult-form"></navigator-chat>
  </consult-session>
  <p>Sent: {{ sent }}</p>`;

function mount(template: string, backend: DemoBackend, root: HTMLElement) {
  const suggestions = ref(SUGGESTIONS);
  const sent = ref(0);
  const app = createApp({
    setup: () => ({ backendFetch: backend.fetch, signIn: backend.signInAs('alex'), suggestions, sent }),
    template,
  });
  app.config.compilerOptions.isCustomElement = isCustomElement;
  app.mount(root);
  return { app, suggestions, sent };
}

const suggestionTexts = (chat: Element) =>
  [...chat.shadowRoot!.querySelectorAll('[part~=suggestion]')].map((b) => b.textContent!.trim());

/** The member types a question into the Vue-rendered form and sends it; the app hears it was sent. */
async function askThroughTheForm(root: HTMLElement, sent: { value: number }): Promise<void> {
  const form = root.querySelector<ConsultForm>('consult-form')!;
  const submit = () => form.shadowRoot!.querySelector<HTMLElement>('[part~="submit-button"]');
  await waitUntil(
    () => form.shadowRoot?.querySelector('textarea') && submit()?.getAttribute('aria-disabled') === 'false',
    'the form is ready to send',
    { timeout: 5000 },
  );
  form.shadowRoot!.querySelector('textarea')!.focus();
  await sendKeys({ type: QUESTION });
  submit()!.click();
  await waitUntil(() => sent.value === 1, 'the app hears the question was sent', { timeout: 5000 });
  await nextTick();
  expect(root.textContent).to.contain('Sent: 1');
}

describe('the elements in a Vue app', () => {
  let backend: DemoBackend;
  let root: HTMLElement;
  let app: App | undefined;
  beforeEach(async () => {
    sessionStorage.clear();
    backend = createDemoBackend();
    await backend.ready;
    root = document.createElement('main');
    document.body.append(root);
  });
  afterEach(() => {
    app?.unmount();
    app = undefined;
    root.remove();
  });

  it('mounted before the elements are defined: properties bound with .prop arrive, and a question is sent', async () => {
    expect(customElements.get('consult-session')).to.equal(undefined);
    const mounted = mount(TEMPLATE('prop'), backend, root);
    app = mounted.app;
    // Vue rendered plain elements; the loader saw their tags on the page and defines them.
    const session = root.querySelector<ConsultSession>('consult-session')!;
    const chat = root.querySelector<NavigatorChat>('navigator-chat')!;
    // On the plain element, not defined yet, the property is an own property of the instance.
    expect(customElements.get('navigator-chat')).to.equal(undefined);
    expect(Object.hasOwn(chat, 'suggestions')).to.equal(true);
    await waitUntil(() => customElements.get('navigator-chat'), 'the loader defines the elements', {
      timeout: 5000,
    });
    await waitUntil(() => session.manager?.status === 'ready', 'the session signs in', { timeout: 5000 });
    expect(chat.suggestions).to.deep.equal(SUGGESTIONS);
    await waitUntil(() => suggestionTexts(chat).length === 2, 'the suggestions show', { timeout: 5000 });
    expect(suggestionTexts(chat)).to.deep.equal(SUGGESTIONS);
    expect(session.replyHours).to.equal(12);
    expect(chat.htmlFor).to.equal('consult-form');

    await askThroughTheForm(root, mounted.sent);
    expect(
      backend.sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/consultation'),
    ).to.have.length(1);
    await expect(root).to.be.accessible();
  });

  it('bound with a plain : before the element is defined, a property arrives as text: the console says to bind it with .prop', async () => {
    const said: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => said.push(args.map(String).join(' '));
    try {
      const mounted = createApp({
        setup: () => ({
          backendFetch: backend.fetch,
          signIn: backend.signInAs('alex'),
          suggestions: SUGGESTIONS,
        }),
        template: `<consult-session .fetch="backendFetch" .tokenProvider="signIn">
          <acme-chat :suggestions="suggestions"></acme-chat>
        </consult-session>`,
      });
      mounted.config.compilerOptions.isCustomElement = isCustomElement;
      mounted.mount(root);
      app = mounted;
      const chat = root.querySelector('acme-chat')!;
      // What Vue did, not knowing the property: an attribute, the array turned into text.
      expect(chat.getAttribute('suggestions')).to.equal(SUGGESTIONS.join(','));
      NavigatorChat.define('acme-chat');
      expect((chat as NavigatorChat).suggestions).to.equal(undefined);
      await waitUntil(() => said.some((m) => m.includes('property suggestions')), 'the console says so', {
        timeout: 5000,
      });
      const message = said.find((m) => m.includes('property suggestions'))!;
      expect(message)
        .to.contain('<acme-chat> got its property suggestions as text, in an attribute')
        .and.contain(':suggestions.prop="…" in Vue')
        .and.not.contain('has no attribute');
    } finally {
      console.error = original;
    }
  });

  it('mounted once the elements are defined: plain : bindings set properties, and follow the app’s state', async () => {
    await Promise.all(['consult-session', 'consult-form', 'navigator-chat'].map(whenLoaded));
    const mounted = mount(TEMPLATE('plain'), backend, root);
    app = mounted.app;
    const session = root.querySelector<ConsultSession>('consult-session')!;
    await waitUntil(() => session.manager.status === 'ready', 'the session signs in', { timeout: 5000 });
    const chat = root.querySelector<NavigatorChat>('navigator-chat')!;
    expect(chat.hasAttribute('suggestions')).to.equal(false);
    await waitUntil(() => suggestionTexts(chat).length === 2, 'the suggestions show', { timeout: 5000 });
    expect(suggestionTexts(chat)).to.deep.equal(SUGGESTIONS);

    mounted.suggestions.value = ['How much sleep do I need?'];
    await nextTick();
    await chat.updateComplete;
    expect(suggestionTexts(chat)).to.deep.equal(['How much sleep do I need?']);

    await askThroughTheForm(root, mounted.sent);
    await expect(root).to.be.accessible();
  });
});
