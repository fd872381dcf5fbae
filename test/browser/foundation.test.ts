/**
 * What every element gets from the shared base, tried as a partner and a member would: language
 * and direction that follow the element, its session and the page; a second tag name; sign-out
 * and a member switch that leave nothing of the previous member; a sent question listed at once.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia, sendKeys } from '@web/test-runner-commands';
import { CaseHistory } from '../../src/elements/case-history/case-history.js';
import { ConsultAccess } from '../../src/elements/consult-access/consult-access.js';
import { ConsultForm } from '../../src/elements/consult-form/consult-form.js';
import { ConsultSession } from '../../src/elements/consult-session/consult-session.js';
import { ConsultThread } from '../../src/elements/consult-thread/consult-thread.js';
import { NavigatorChat } from '../../src/elements/navigator-chat/navigator-chat.js';
import { ConsultElement } from '../../src/elements/shared/consult-element.js';
import { formatters, registerTranslation } from '../../src/elements/shared/localize.js';
import { createDemoBackend } from '../../src/sandbox/demo-backend.js';
import { inSession, shadowText, signedInAs } from './support/backend.js';
import { $, waitUntil } from './support/elements.js';

ConsultSession.define('consult-session');
CaseHistory.define('case-history');
ConsultThread.define('consult-thread');
ConsultForm.define('consult-form');
NavigatorChat.define('navigator-chat');
ConsultAccess.define('consult-access');

/** A resolved consultation, to render a thread without a session. */
const consultation = {
  consultationId: 'cns_foundation',
  userId: 'usr_foundation',
  status: 'resolved',
  createdAt: '2026-03-04T10:00:00.000Z',
  questions: [{ question: 'Is this a question?', answer: 'It is an answer.' }],
};

const rows = (element: CaseHistory) => [...element.shadowRoot!.querySelectorAll('[part~=item]')];

async function listed(element: CaseHistory): Promise<void> {
  await waitUntil(() => rows(element).length > 0, 'the list shows', { timeout: 5000 });
}

/** Every shadow root under `root`, nested ones included. */
function shadowRoots(root: Element | ShadowRoot | Document): ShadowRoot[] {
  const found: ShadowRoot[] = [];
  for (const element of root.querySelectorAll('*')) {
    if (element.shadowRoot) found.push(element.shadowRoot, ...shadowRoots(element.shadowRoot));
  }
  return found;
}

/** Every own value of an element's properties (public and Lit state), as JSON where it can be. */
function propertyText(element: Element): string {
  const values: string[] = [];
  const constructor = element.constructor as typeof ConsultElement;
  const names = [...(constructor.elementProperties?.keys() ?? [])];
  for (const name of names) {
    try {
      values.push(JSON.stringify((element as unknown as Record<PropertyKey, unknown>)[name]) ?? '');
    } catch {
      // A value that cannot be serialized (a session, a function) holds no member text of its own.
    }
  }
  return values.join('\n');
}

describe('the elements’ shared base', () => {
  it('is accessible in Arabic right to left', async () => {
    const { session, element } = await inSession<CaseHistory>(html`<case-history lang="ar"></case-history>`);
    await listed(element);
    expect($(element, '[part=base]')!.getAttribute('dir')).to.equal('rtl');
    await expect(session).to.be.accessible();
  });

  describe('language and direction', () => {
    it('follow a lang set on the element after it rendered', async () => {
      const { element } = await inSession<CaseHistory>(html`<case-history></case-history>`);
      await listed(element);
      expect(shadowText(element)).to.contain('Answered');
      element.setAttribute('lang', 'de');
      await waitUntil(() => shadowText(element).includes('Beantwortet'), 'German strings', { timeout: 5000 });
      expect(shadowText(element)).not.to.contain('Answered');
      expect($(element, '[part=base]')!.getAttribute('lang')).to.equal('de');
      element.setAttribute('lang', 'ar');
      await waitUntil(() => $(element, '[part=base]')!.getAttribute('dir') === 'rtl', 'right to left', {
        timeout: 5000,
      });
      expect(shadowText(element)).to.contain('تمت الإجابة');
    });

    it('follow a lang set on the enclosing <consult-session>', async () => {
      const { session, element } = await inSession<CaseHistory>(html`<case-history></case-history>`);
      await listed(element);
      session.setAttribute('lang', 'fr');
      await waitUntil(() => shadowText(element).includes('Répondue'), 'French strings', { timeout: 5000 });
    });

    it('follow <html lang> when nothing nearer sets one, and a dir set on the element', async () => {
      const before = document.documentElement.lang;
      try {
        // No session, so no member language: the page's language is the one left.
        const element = await fixture<ConsultThread>(
          html`<consult-thread .consultation=${consultation}></consult-thread>`,
        );
        expect(shadowText(element)).to.contain('Answered');
        document.documentElement.lang = 'es';
        await waitUntil(() => shadowText(element).includes('Respondida'), 'Spanish strings', {
          timeout: 5000,
        });
        expect($(element, '[part=base]')!.getAttribute('lang')).to.equal('es');
        element.dir = 'rtl';
        await element.updateComplete;
        expect($(element, '[part=base]')!.getAttribute('dir')).to.equal('rtl');
      } finally {
        document.documentElement.lang = before;
      }
    });

    it('render the first time in the language, never English first', async () => {
      const seen: string[] = [];
      const { element } = await inSession<CaseHistory>(html`<case-history lang="nl"></case-history>`);
      const observer = new MutationObserver(() => seen.push(shadowText(element)));
      observer.observe(element.shadowRoot!, { subtree: true, childList: true, characterData: true });
      await listed(element);
      observer.disconnect();
      for (const text of [shadowText(element), ...seen]) {
        expect(text).not.to.contain('Loading your consultations');
        expect(text).not.to.contain('Answered');
      }
    });

    it('take a partner’s own words for any string, in any language', async () => {
      registerTranslation({ $code: 'en', status: { resolved: 'Doctor replied' } });
      try {
        const { element } = await inSession<CaseHistory>(html`<case-history lang="en"></case-history>`);
        await listed(element);
        expect(shadowText(element)).to.contain('Doctor replied');
      } finally {
        registerTranslation({ $code: 'en', status: { resolved: 'Answered' } });
      }
    });

    it('speak a language a partner adds, falling back to English for what it lacks', async () => {
      registerTranslation({ $code: 'pt', $name: 'Português', status: { resolved: 'Respondida (pt)' } });
      const { element } = await inSession<CaseHistory>(html`<case-history lang="pt-BR"></case-history>`);
      await listed(element);
      expect(shadowText(element)).to.contain('Respondida (pt)');
      expect($(element, '[part=base]')!.getAttribute('lang')).to.equal('pt');
    });

    it('write numbers as the browser’s Intl does, in every language and numbering', () => {
      const numbers = [0, 1, 7, 42, 999, 1000, 12345, -3, 2.5];
      for (const code of [
        'en',
        'en-GB',
        'de',
        'es',
        'fr',
        'nl',
        'ar',
        'fa',
        'bn',
        'en-u-nu-arab',
        'de-u-nu-deva',
      ]) {
        const intl = new Intl.NumberFormat(code);
        for (const value of numbers) {
          expect(formatters(code).number(value), `${value} in ${code}`).to.equal(intl.format(value));
        }
      }
      // The tags with their own digits really do use them: the plain-digit path is not taken there.
      expect(formatters('en-u-nu-arab').number(7)).to.equal('٧');
      expect(formatters('fa').number(42)).to.equal('۴۲');
    });
  });

  describe('fonts', () => {
    it('uses the system UI font when the page sets none, and the page’s font when it does', async () => {
      const holder = await fixture<HTMLDivElement>(
        html`<div>
          <consult-thread id="bare"></consult-thread>
          <div style="font-family: Georgia, serif"><consult-thread id="styled"></consult-thread></div>
          <consult-thread id="themed" style="--consult-font-family: 'Courier New'"></consult-thread>
        </div>`,
      );
      const font = (id: string) => getComputedStyle(holder.querySelector(`#${id}`)!).fontFamily;
      expect(font('bare')).to.match(/^system-ui/);
      expect(font('styled')).to.equal('Georgia, serif');
      expect(font('themed')).to.equal('"Courier New"');
    });
  });

  describe('define()', () => {
    it('registers a class already registered under another name as a second name', async () => {
      expect(customElements.get('case-history')).to.equal(CaseHistory);
      const second = CaseHistory.define('acme-case-history');
      expect(customElements.get('acme-case-history')).to.equal(second);
      expect(second.prototype).to.be.instanceOf(CaseHistory);
      const element = document.createElement('acme-case-history');
      expect(element).to.be.instanceOf(CaseHistory);
    });

    it('warns, never throws, when the name is taken by something else', async () => {
      customElements.define('taken-by-partner', class extends HTMLElement {});
      const warnings: unknown[] = [];
      const warn = console.warn;
      console.warn = (...args: unknown[]) => warnings.push(args.join(' '));
      try {
        ConsultForm.define('taken-by-partner');
      } finally {
        console.warn = warn;
      }
      expect(String(warnings[0])).to.contain('<taken-by-partner> is already defined');
      expect(ConsultElement.version).to.match(/^\d+\.\d+\.\d+/);
    });

    it('registers the elements an element renders, under the names they have', async () => {
      expect(CaseHistory.dependencies).to.have.property('consult-thread', ConsultThread);
      const { element } = await inSession<CaseHistory>(html`<case-history></case-history>`);
      await listed(element);
      (rows(element)[0] as HTMLButtonElement).click();
      await element.updateComplete;
      const thread = $(element, `${ConsultElement.tagOf(ConsultThread, 'consult-thread')}`);
      expect(thread).to.be.instanceOf(ConsultThread);
    });
  });

  describe('when elements load in any order', () => {
    it('an element defined before its <consult-session> gets the session once that is defined', async () => {
      const backend = createDemoBackend();
      await backend.ready;
      const wrapper = await fixture<HTMLElement>(
        html`<late-session .fetch=${backend.fetch} .tokenProvider=${backend.signInAs('alex')}
          ><case-history></case-history
        ></late-session>`,
      );
      const history = wrapper.querySelector('case-history')!;
      await history.updateComplete;
      // The session element's code arrives last, as a chunk may.
      ConsultSession.define('late-session');
      await listed(history);
      expect(history.activeSession).to.equal((wrapper as ConsultSession).manager);
    });
  });

  describe('when the member signs out or another member signs in', () => {
    const SECRET_QUESTION = 'Mon sommeil est-il normal après minuit, secret 7731?';

    async function everythingOpen() {
      const fixtureResult = await inSession<HTMLElement>(html`
        <div>
          <consult-form></consult-form>
          <case-history></case-history>
          <consult-thread consultation-id="cns_demo_alex_rash"></consult-thread>
          <navigator-chat></navigator-chat>
        </div>
      `);
      const root = fixtureResult.element;
      const history = root.querySelector('case-history')!;
      const thread = root.querySelector('consult-thread')!;
      const form = root.querySelector('consult-form')!;
      await listed(history);
      await waitUntil(() => shadowText(thread).includes('eczema'), 'the thread shows its answer', {
        timeout: 5000,
      });
      await waitUntil(() => $(form, 'textarea'), 'the form shows', { timeout: 5000 });
      $<HTMLTextAreaElement>(form, 'textarea')!.focus();
      await sendKeys({ type: SECRET_QUESTION });
      (rows(history)[0] as HTMLButtonElement).click();
      await history.updateComplete;
      await waitUntil(
        () => history.shadowRoot!.querySelector('consult-thread')?.shadowRoot?.textContent?.trim(),
        'opened',
        {
          timeout: 5000,
        },
      );
      return { ...fixtureResult, history, thread, form };
    }

    /** The previous member's words: their questions, the doctors' answers, what they typed. */
    const memberWords = ['eczema', 'blood pressure', '142/91', SECRET_QUESTION, 'Early waking'];

    function leftovers(): string[] {
      const text = [
        ...shadowRoots(document).map((root) => root.textContent ?? ''),
        ...[...document.querySelectorAll('*')].flatMap((element) => [
          propertyText(element),
          ...shadowRoots(element).flatMap((root) => [...root.querySelectorAll('*')].map(propertyText)),
        ]),
        ...Object.keys(sessionStorage).map((key) => `${key} ${sessionStorage.getItem(key)}`),
      ].join('\n');
      return memberWords.filter((words) => text.includes(words));
    }

    it('sign-out leaves none of their questions, answers or drafts in any element', async () => {
      const { session } = await everythingOpen();
      expect(leftovers(), 'the words are there before').to.include('eczema');
      session.signOut();
      // Nothing may wait for a later render: right after signOut() the data is gone.
      expect(leftovers()).to.deep.equal([]);
      await session.updateComplete;
      expect(leftovers()).to.deep.equal([]);
    });

    it('a member switch leaves none of the previous member’s words', async () => {
      const { session, backend, history } = await everythingOpen();
      session.tokenProvider = backend.signInAs('sam');
      await waitUntil(() => session.manager.user?.uniqueId === 'sam', 'sam is signed in', { timeout: 5000 });
      expect(leftovers()).to.deep.equal([]);
      await waitUntil(() => !history.shadowRoot!.querySelector('consult-thread'), 'no thread open', {
        timeout: 5000,
      });
      expect(leftovers()).to.deep.equal([]);
    });
  });

  describe('a question sent from <consult-form>', () => {
    it('opens in <case-history> of the same session, live in exactly one place', async () => {
      const { element: root } = await inSession<HTMLElement>(html`
        <div><consult-form></consult-form><case-history></case-history></div>
      `);
      const form = root.querySelector('consult-form')!;
      const history = root.querySelector('case-history')!;
      await listed(history);
      const before = rows(history).length;
      await waitUntil(() => $(form, 'textarea'), 'the form shows', { timeout: 5000 });
      $<HTMLTextAreaElement>(form, 'textarea')!.focus();
      await sendKeys({ type: 'Is a daily walk enough exercise at my age?' });
      // Professionals are manual here: no claim, so no live event announces the new case.
      $<HTMLButtonElement>(form, '[part~=submit-button]')!.click();
      await waitUntil(() => $(history, 'consult-thread'), 'the case opens in the list', { timeout: 5000 });
      const thread = $(history, 'consult-thread')!;
      await waitUntil(() => $(thread, '#heading'), 'the thread shows', { timeout: 5000 });
      await waitUntil(
        () => thread.shadowRoot!.activeElement?.id === 'heading',
        "the thread's heading has focus",
        { timeout: 5000 },
      );
      expect(shadowText(thread)).to.contain('Is a daily walk enough exercise');
      // One live copy: the form is fresh, with no thread of its own, and says nothing of the case
      // the list shows beside it.
      expect(form.shadowRoot!.querySelector('consult-thread')).to.equal(null);
      expect($<HTMLTextAreaElement>(form, 'textarea')!.value).to.equal('');
      expect(shadowText(form)).not.to.contain('Your question was sent');
      const threads = [
        root,
        ...[...root.querySelectorAll('*')].flatMap((e) => (e.shadowRoot ? [e.shadowRoot] : [])),
      ].flatMap((scope) => [...scope.querySelectorAll('consult-thread')]);
      expect(threads).to.have.length(1);

      // Back to the list: the new case is first, open.
      $<HTMLButtonElement>(history, '[part~=back-button]')!.click();
      await waitUntil(() => rows(history).length === before + 1, 'the new case is listed', { timeout: 5000 });
      const first = rows(history)[0]!.closest('li')!;
      expect(first.textContent).to.contain('Is a daily walk enough exercise');
      expect(first.querySelector('.who')!.textContent).to.equal('Waiting for a professional');

      // Once the list no longer shows it, the form's note links to it, and opens it again.
      await form.updateComplete;
      expect(shadowText(form)).to.contain('Your question was sent');
      [...form.shadowRoot!.querySelectorAll('button')]
        .find((b) => b.textContent!.includes('Open your question'))!
        .click();
      await waitUntil(() => $(history, 'consult-thread'), 'the case opens again', { timeout: 5000 });
    });
  });
});

describe('while the member’s data is on its way', () => {
  /** The elements that show a placeholder while they wait, in a session whose every read waits. */
  async function waiting(): Promise<HTMLElement[]> {
    const slow: typeof fetch = async (input) =>
      String(input).endsWith('/session') ? signedInAs('usr_waiting') : new Promise<Response>(() => undefined);
    const session = await fixture<ConsultSession>(html`
      <consult-session endpoint="/waiting" .fetch=${slow}>
        <consult-access></consult-access>
        <case-history></case-history>
        <consult-thread consultation-id="cns_waiting"></consult-thread>
      </consult-session>
    `);
    const shown = [...session.children] as HTMLElement[];
    for (const element of shown) {
      await waitUntil(
        () => element.shadowRoot?.querySelector('.loading > [aria-hidden=true]'),
        `<${element.localName}> shows its placeholder`,
      );
    }
    return shown;
  }

  /** The properties each running animation of `element` changes. */
  const animated = (element: HTMLElement) =>
    element
      .shadowRoot!.getAnimations()
      .map((animation) => [
        ...new Set(
          (animation.effect as KeyframeEffect)
            .getKeyframes()
            .flatMap((frame) =>
              Object.keys(frame).filter(
                (key) => !['offset', 'computedOffset', 'easing', 'composite'].includes(key),
              ),
            ),
        ),
      ]);

  afterEach(() => emulateMedia({ reducedMotion: 'no-preference' }));

  it('pulse by opacity alone, which the browser animates without painting them again each frame', async () => {
    for (const element of await waiting()) {
      const animations = animated(element);
      expect(animations.length, element.localName).to.be.greaterThan(0);
      expect(new Set(animations.flat()), element.localName).to.deep.equal(new Set(['opacity']));
    }
  });

  it('are drawn, not written: no words of their own on screen, and an answer’s lines on the answer’s colour', async () => {
    for (const element of await waiting()) {
      const shown = element.shadowRoot!.querySelector('.loading > [aria-hidden=true]')!;
      expect(shown.textContent!.trim(), element.localName).to.equal('');
      for (const bar of shown.querySelectorAll('.skeleton-text')) {
        expect(getComputedStyle(bar, '::before').color, element.localName).to.equal('rgba(0, 0, 0, 0)');
      }
    }
    const thread = document.querySelector('consult-thread')!.shadowRoot!;
    const answer = thread.querySelector('.placeholder')!;
    const line = answer.querySelector('.skeleton')!;
    expect(getComputedStyle(line).backgroundColor).not.to.equal(getComputedStyle(answer).backgroundColor);
  });

  it('hold still when the member asks for less motion', async () => {
    await emulateMedia({ reducedMotion: 'reduce' });
    for (const element of await waiting()) expect(animated(element), element.localName).to.deep.equal([]);
  });
});

describe('messages for the partner’s developer, on the console', () => {
  let messages: string[];
  let original: typeof console.error;
  beforeEach(() => {
    messages = [];
    original = console.error;
    console.error = (...args: unknown[]) => {
      messages.push(args.map(String).join(' '));
    };
  });
  afterEach(() => {
    console.error = original;
  });
  const ours = () => messages.filter((m) => m.startsWith('consult-elements:'));

  it('names a misspelt attribute once, with the one it is close to', async () => {
    await fixture(html`<consult-form endpont="/consult" data-test="kept" aria-label="Ask"></consult-form>`);
    await fixture(html`<consult-form endpont="/consult"></consult-form>`);
    // The words load when there is something to say: a moment later.
    await waitUntil(() => ours().some((m) => m.includes('endpont')), 'said');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const said = ours().filter((m) => m.includes('endpont'));
    expect(said).to.have.length(1);
    expect(said[0]).to.contain('<consult-form> has no attribute "endpont": did you mean "endpoint"?');
    expect(ours().join()).to.not.contain('data-test').and.not.contain('aria-label');
  });

  it('says an attribute named after a property is that property bound too early, and how to bind it', async () => {
    // What a framework leaves when it binds chunkSize before the element is defined (HTML lowercases it).
    await fixture(html`<case-history chunksize="20"></case-history>`);
    await waitUntil(() => ours().some((m) => m.includes('property chunkSize')), 'said');
    const said = ours().find((m) => m.includes('property chunkSize'))!;
    expect(said)
      .to.contain('<case-history> got its property chunkSize as text, in an attribute')
      .and.contain(':chunkSize.prop="…" in Vue, or the attribute chunk-size.')
      .and.not.contain('has no attribute');
  });

  it('says when an element has no session and no endpoint, and how to give it one', async () => {
    // A name of its own: each cause is said once per page, and other tests here use <case-history> alone.
    CaseHistory.define('lonely-history');
    await fixture(html`<lonely-history></lonely-history>`);
    await waitUntil(() => ours().some((m) => m.includes('<lonely-history> has no session')), 'said');
    expect(ours().find((m) => m.includes('has no session'))).to.contain(
      'inside <consult-session endpoint="/consult">',
    );
  });

  it('names the session URL that answered 404, once, with the setting to fix', async () => {
    const session = await fixture<ConsultSession>(
      html`<consult-session endpoint="/no-proxy-here"><case-history></case-history></consult-session>`,
    );
    await waitUntil(() => ours().some((m) => m.includes('answered 404')), 'said', { timeout: 5000 });
    await session.manager.retry().catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const said = ours().filter((m) => m.includes('answered 404'));
    expect(said).to.have.length(1);
    expect(said[0])
      .to.contain('/no-proxy-here/session answered 404')
      .and.contain('Set endpoint on <consult-session>');
  });
});
