/**
 * Offline and outages, the same everywhere (issue 31, E and G): whatever fails, at page load or
 * later, the member gets the session's one calm notice, heard once, while the session tries again
 * quietly; no element adds an alert of its own, and each reads again by itself when the service
 * answers. The notice shows within 2 s of the browser's `offline` or of the first failed request;
 * focus stays where the member was; the navigator queues a message like the question form does.
 *
 * The proxy is made unreachable with a scripted fetch (it throws, as the browser's does with no
 * network), or the in-page sandbox's faults (the proxy then answers 502).
 */
import { aTimeout, expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { CaseHistory } from '../../src/elements/case-history/case-history.js';
import { ConsultAccess } from '../../src/elements/consult-access/consult-access.js';
import { ConsultForm } from '../../src/elements/consult-form/consult-form.js';
import { ConsultSession } from '../../src/elements/consult-session/consult-session.js';
import { ConsultThread } from '../../src/elements/consult-thread/consult-thread.js';
import { NavigatorChat } from '../../src/elements/navigator-chat/navigator-chat.js';
import { PrescriptionRequest } from '../../src/elements/prescription-request/prescription-request.js';
import type { Survey } from '../../src/elements/prescription-request/survey.js';
import { createDemoBackend, type DemoBackend } from '../../src/sandbox/demo-backend.js';
import { shadowText } from './support/backend.js';
import { waitUntil } from './support/elements.js';

ConsultSession.define('consult-session');
CaseHistory.define('case-history');
ConsultAccess.define('consult-access');
ConsultForm.define('consult-form');
ConsultThread.define('consult-thread');
NavigatorChat.define('navigator-chat');
PrescriptionRequest.define('prescription-request');

const SURVEY: Survey = {
  questions: [{ id: 'medicine', kind: 'text', required: true, label: 'Which medicine do you need?' }],
};

/** The back end behind a switch: while `down`, every request to the proxy finds nothing to answer it. */
function switchable(backend: DemoBackend): { fetch: typeof fetch; down: boolean; requests: number } {
  const line = {
    down: true,
    requests: 0,
    fetch: (async (input, init) => {
      line.requests++;
      if (line.down) throw new TypeError('Failed to fetch');
      return backend.fetch(input, init);
    }) as typeof fetch,
  };
  return line;
}

async function setFaults(backend: DemoBackend, faults: { errorRate: number }): Promise<void> {
  await backend.sandbox.fetch('/_sandbox/faults', { method: 'POST', body: JSON.stringify(faults) });
}

/** Every shadow root in `root`, nested ones too. */
function* shadowRoots(root: ParentNode): Generator<ShadowRoot> {
  for (const element of root.querySelectorAll('*')) {
    if (element.shadowRoot) {
      yield element.shadowRoot;
      yield* shadowRoots(element.shadowRoot);
    }
  }
}

const ALERT = '[role=alert], [aria-live=assertive]';
const LIVE = '[role=status], [role=log], [aria-live=polite]';

/**
 * What screen readers are given while it runs, seen by MutationObservers on the page and every
 * shadow root (new ones are found as they appear): each alert inserted with words, and each change
 * of the words in a live region (an announcement).
 */
function listenToLiveRegions(root: HTMLElement): { alerts: string[]; announced: string[]; stop(): void } {
  const alerts: string[] = [];
  const announced: string[] = [];
  const observed = new WeakSet<Node>();
  const words = (node: Node | null) => (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const regionOf = (node: Node, selector: string) =>
    (node instanceof Element ? node : node.parentElement)?.closest(selector);
  const observer = new MutationObserver((records) => {
    // One change of a region's words may come as several records (a text node put in, its data set).
    const changedRegions = new Set<Element>();
    for (const record of records) {
      for (const added of record.addedNodes) {
        const inserted =
          added instanceof Element
            ? [added, ...added.querySelectorAll(ALERT)].filter((e) => e.matches(ALERT))
            : [];
        for (const alert of inserted) if (words(alert)) alerts.push(words(alert));
      }
      const alert = regionOf(record.target, ALERT);
      if (alert && words(alert) && (record.type === 'characterData' || record.addedNodes.length))
        alerts.push(words(alert));
      const live = regionOf(record.target, LIVE);
      if (live && words(live) && (record.type === 'characterData' || record.addedNodes.length))
        changedRegions.add(live);
    }
    for (const region of changedRegions) announced.push(words(region));
    watchNewShadowRoots();
  });
  const watch = (node: Node) => {
    if (observed.has(node)) return;
    observed.add(node);
    observer.observe(node, { childList: true, subtree: true, characterData: true });
  };
  const watchNewShadowRoots = () => {
    for (const shadow of shadowRoots(root)) watch(shadow);
  };
  watch(root);
  watchNewShadowRoots();
  // A shadow root attached without a mutation above it (an element upgraded in place) is found too.
  const timer = setInterval(watchNewShadowRoots, 20);
  return {
    alerts,
    announced,
    stop: () => {
      clearInterval(timer);
      observer.disconnect();
    },
  };
}

/** The notices of failures on screen, in every shadow root: errors, alerts and the session's connection notice. */
function noticesShown(root: HTMLElement): string[] {
  return [...shadowRoots(root)].flatMap((shadow) =>
    [...shadow.querySelectorAll('.notice.error, [part~=connection], [role=alert]')]
      .map((notice) => (notice.textContent ?? '').replace(/\s+/g, ' ').trim())
      .filter(Boolean),
  );
}

const page = (options: { fetch: typeof fetch; signIn?: () => Promise<never> | Promise<unknown> }) => html`
  <div>
    <consult-session
      .fetch=${options.fetch}
      .signInBody=${{ demoUser: 'alex' }}
      .tokenProvider=${options.signIn}
    >
      <consult-access></consult-access>
      <consult-form id="ask"></consult-form>
      <case-history></case-history>
      <prescription-request .survey=${SURVEY}></prescription-request>
      <navigator-chat for="ask"></navigator-chat>
    </consult-session>
  </div>
`;

/**
 * Starts the page while the service cannot be reached, for 10 s, then brings it back: one notice,
 * heard once, no alert, and the member's data by itself once it answers.
 */
async function outageAtLoad(
  start: () => Promise<HTMLElement>,
  bringBack: () => Promise<void>,
): Promise<void> {
  const holder = document.createElement('div');
  document.body.append(holder);
  const heard = listenToLiveRegions(holder);
  try {
    const root = await start();
    holder.append(root);
    const session = root.querySelector<ConsultSession>('consult-session')!;
    await waitUntil(() => session.shadowRoot?.querySelector('[part~=connection]'), 'the one notice shows', {
      timeout: 5000,
    });
    await aTimeout(10_000);
    expect(heard.alerts, 'no alert').to.deep.equal([]);
    const reconnecting = heard.announced.filter((words) => words.includes('Reconnecting'));
    expect(reconnecting, 'the notice is heard once').to.have.length(1);
    expect(heard.announced, 'nothing else is announced').to.deep.equal(reconnecting);
    const notices = noticesShown(holder);
    expect(notices, 'one notice on the page').to.have.length(1, JSON.stringify(notices));
    expect(notices[0]).to.contain('Reconnecting');
    expect(session.shadowRoot!.querySelector('[part~=connection]')!.getAttribute('role')).to.equal(null);

    await bringBack();
    window.dispatchEvent(new Event('online'));
    await waitUntil(() => session.manager.status === 'ready', 'signed in once the service answers', {
      timeout: 8000,
    });
    const history = root.querySelector<CaseHistory>('case-history')!;
    await waitUntil(() => history.shadowRoot!.querySelectorAll('[part~=item]').length > 0, 'the list shows', {
      timeout: 8000,
    });
    const access = root.querySelector<ConsultAccess>('consult-access')!;
    await waitUntil(() => access.shadowRoot!.querySelector('[part~=summary]'), 'the plan shows', {
      timeout: 8000,
    });
    const form = root.querySelector<ConsultForm>('consult-form')!;
    await waitUntil(
      () =>
        form.shadowRoot!.querySelector('[part~=submit-button]')?.getAttribute('aria-disabled') === 'false',
      'the form can send',
      { timeout: 8000 },
    );
    await waitUntil(
      () => !session.shadowRoot!.querySelector('[part~=connection]'),
      'the notice goes by itself',
    );
    expect(noticesShown(holder), 'no notice once it is back').to.deep.equal([]);
    expect(heard.alerts, 'no alert').to.deep.equal([]);
    expect(shadowText(root.querySelector('navigator-chat')!)).not.to.contain('not available');
  } finally {
    heard.stop();
    holder.remove();
  }
}

describe('one outage, one notice', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => sessionStorage.clear());

  it('the proxy unreachable at page load: one calm notice heard once, no element alerts, the data by itself when it is back', async function () {
    this.timeout(40_000);
    const backend = createDemoBackend();
    await backend.ready;
    const line = switchable(backend);
    await outageAtLoad(
      () => fixture(page({ fetch: line.fetch })),
      async () => {
        expect(line.requests, 'sign-in kept trying').to.be.greaterThan(2);
        line.down = false;
      },
    );
  });

  it("the service down at page load behind a host's own sign-in: the same one notice, and in by itself", async function () {
    this.timeout(40_000);
    const backend = createDemoBackend();
    await backend.ready;
    await setFaults(backend, { errorRate: 1 });
    await outageAtLoad(
      () => fixture(page({ fetch: backend.fetch, signIn: backend.signInAs('alex') })),
      () => setFaults(backend, { errorRate: 0 }),
    );
  });
});

/** The element with focus, through shadow roots. */
function focused(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** A page signed in as alex whose proxy goes away with `line.down = true`. */
async function signedIn<T extends Element>(content: ReturnType<typeof html>) {
  const backend = createDemoBackend();
  await backend.ready;
  const line = switchable(backend);
  line.down = false;
  const session = await fixture<ConsultSession>(html`
    <consult-session .fetch=${line.fetch} .tokenProvider=${backend.signInAs('alex')}
      >${content}</consult-session
    >
  `);
  await waitUntil(() => session.manager.status === 'ready', 'signed in', { timeout: 5000 });
  const notice = () => session.shadowRoot!.querySelector('[part~=connection]');
  return { backend, line, session, element: session.firstElementChild as T, notice };
}

/** The connection is lost: the proxy does not answer, and the browser says it is offline. */
function goOffline(line: { down: boolean }): void {
  line.down = true;
  window.dispatchEvent(new Event('offline'));
}

function comeBack(line: { down: boolean }): void {
  line.down = false;
  window.dispatchEvent(new Event('online'));
}

const $ = <T extends Element = HTMLElement>(element: Element, selector: string) =>
  element.shadowRoot!.querySelector<T>(selector);

describe('offline the same everywhere', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => sessionStorage.clear());

  it("shows the notice at the browser's offline, and at the first failed request before its retries are over, and clears it when back", async function () {
    this.timeout(20_000);
    const { line, session, element, notice } = await signedIn<CaseHistory>(
      html`<case-history></case-history>`,
    );
    await waitUntil(() => element.shadowRoot!.querySelector('[part~=item]'), 'the list shows', {
      timeout: 5000,
    });

    // The browser's word is enough: no request is needed (none could fail, the line is up).
    const requests = line.requests;
    window.dispatchEvent(new Event('offline'));
    await waitUntil(notice, 'the notice at the offline event', { timeout: 10_000 });
    expect(line.requests, 'nothing was asked to find out').to.equal(requests);
    comeBack(line);
    await waitUntil(() => !notice(), 'the notice goes when the service answers', { timeout: 5000 });

    // No word from the browser this time: the first request that finds nothing to answer it is the
    // signal, told while the client is still trying it again (a real loss is not left to all of its
    // retries, a few seconds).
    line.down = true;
    let retriesOver = false;
    void session.manager.state
      .loadHistory({ fresh: true })
      .catch(() => undefined)
      .finally(() => (retriesOver = true));
    await waitUntil(notice, 'the notice after the first failed request', { timeout: 10_000 });
    expect(retriesOver, 'told before the read has given up').to.equal(false);
    expect(element.shadowRoot!.querySelectorAll('[part~=item]').length, 'the list stays').to.be.greaterThan(
      0,
    );
    comeBack(line);
    await waitUntil(() => !notice(), 'the notice goes when the service answers', { timeout: 5000 });
  });

  it('keeps focus where the member was after sending while offline: the question form, a follow-up, the navigator', async function () {
    this.timeout(40_000);
    const { line, element: root } = await signedIn<HTMLElement>(html`
      <div>
        <consult-form></consult-form>
        <consult-thread consultation-id="cns_demo_alex_bp"></consult-thread>
        <navigator-chat></navigator-chat>
      </div>
    `);
    const form = root.querySelector('consult-form')!;
    const thread = root.querySelector('consult-thread')!;
    const chat = root.querySelector('navigator-chat')!;
    await waitUntil(
      () => $(form, '[part~=submit-button]')?.getAttribute('aria-disabled') === 'false',
      'the form can send',
      { timeout: 5000 },
    );
    await waitUntil(() => $(thread, '[part=followup-input]') && $(chat, '[part=input]'), 'the boxes show', {
      timeout: 5000,
    });
    // What was sent from, the key, and where focus is after: where it was, or for the navigator's
    // button the composer, ready for the next message as in a messenger; never the page.
    const sends: [string, Element, string, string, string][] = [
      ['the question form, from its box', form, 'textarea', 'Control+Enter', 'textarea'],
      ['the question form, from its button', form, '[part~=submit-button]', 'Enter', '[part~=submit-button]'],
      ['a follow-up, from its button', thread, '[part=submit-button]', 'Enter', '[part=submit-button]'],
      ['the navigator, from its box', chat, '[part=input]', 'Enter', '[part=input]'],
      ['the navigator, from its button', chat, '[part=send-button]', 'Enter', '[part=input]'],
    ];
    const boxOf = (element: Element) =>
      element === form ? 'textarea' : element === thread ? '[part=followup-input]' : '[part=input]';
    for (const [what, element, from, key, after] of sends) {
      const box = $<HTMLTextAreaElement>(element, boxOf(element))!;
      box.focus();
      await sendKeys({ type: 'Does this wait for the connection?' });
      goOffline(line);
      const target = $(element, from)!;
      target.focus();
      await sendKeys({ press: key });
      await waitUntil(() => shadowText(element).includes('Waiting to send'), `${what}: it waits`, {
        timeout: 5000,
      });
      await aTimeout(500);
      expect(focused() === $(element, after), `${what}: focus stays`).to.equal(true);
      // Cancelled, to send the next one: focus goes to the box, the words stay.
      const cancel = [...element.shadowRoot!.querySelectorAll<HTMLButtonElement>('button')].find(
        (b) => b.textContent!.trim() === 'Cancel sending',
      )!;
      cancel.click();
      await waitUntil(() => !shadowText(element).includes('Waiting to send'), `${what}: cancelled`);
      box.value = '';
      box.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
      comeBack(line);
      await waitUntil(
        () => !root.closest('consult-session')!.shadowRoot!.querySelector('[part~=connection]'),
        `${what}: back`,
        {
          timeout: 5000,
        },
      );
    }
  });

  it('queues a navigator message while offline, as the question form does, and sends it once when back', async function () {
    this.timeout(30_000);
    const {
      backend,
      line,
      element: chat,
      notice,
    } = await signedIn<NavigatorChat>(html`<navigator-chat></navigator-chat>`);
    await waitUntil(() => $(chat, '[part=input]'), 'the chat shows', { timeout: 5000 });
    const alerts: string[] = [];
    const observer = new MutationObserver(() => {
      for (const alert of chat.shadowRoot!.querySelectorAll('[role=alert]'))
        alerts.push(alert.textContent ?? '');
    });
    observer.observe(chat.shadowRoot!, { childList: true, subtree: true, characterData: true });
    try {
      goOffline(line);
      $<HTMLTextAreaElement>(chat, '[part=input]')!.focus();
      await sendKeys({ type: 'Is it fine to exercise with a cold?' });
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => shadowText(chat).includes('Waiting to send'), 'it waits to send', {
        timeout: 3000,
      });
      await aTimeout(3000);
      const message = chat.shadowRoot!.querySelector('.message.member')!;
      expect(message.textContent).to.contain('Is it fine to exercise with a cold?');
      expect(message.querySelector('.state')!.textContent!.trim()).to.equal('Waiting to send…');
      expect($(chat, '[part=send-button]')!.textContent!.trim()).to.equal('Waiting to send…');
      expect($(chat, '[part=typing]'), 'nobody is typing').to.equal(null);
      expect(shadowText(chat)).not.to.contain('Not sent');
      expect(alerts, 'no alert in the chat').to.deep.equal([]);
      expect(notice(), "the session's one notice").to.not.equal(null);
      await expect(chat).to.be.accessible();

      comeBack(line);
      await waitUntil(() => chat.shadowRoot!.querySelectorAll('.message.navigator').length >= 2, 'answered', {
        timeout: 8000,
      });
      expect(shadowText(chat)).not.to.contain('Waiting to send');
      const sent = backend.sandbox.requests.filter(
        (r) => r.method === 'POST' && /\/v2\/health-navigator\/messages$/.test(r.path),
      );
      expect(sent, 'sent once').to.have.length(1);
      expect(sent[0]!.status).to.equal(200);
      expect(alerts, 'no alert in the chat').to.deep.equal([]);
    } finally {
      observer.disconnect();
    }
  });

  it('lets the member cancel a navigator message waiting to be sent: its words back in the composer, nothing sent', async function () {
    this.timeout(20_000);
    const {
      backend,
      line,
      session,
      element: chat,
    } = await signedIn<NavigatorChat>(html`<navigator-chat></navigator-chat>`);
    await waitUntil(() => $(chat, '[part=input]'), 'the chat shows', { timeout: 5000 });
    goOffline(line);
    $<HTMLTextAreaElement>(chat, '[part=input]')!.focus();
    await sendKeys({ type: 'Never mind, I will call instead.' });
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => shadowText(chat).includes('Cancel sending'), 'it waits to send', { timeout: 3000 });
    const cancel = [...chat.shadowRoot!.querySelectorAll<HTMLButtonElement>('button')].find(
      (b) => b.textContent!.trim() === 'Cancel sending',
    )!;
    cancel.focus();
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => !shadowText(chat).includes('Waiting to send'), 'it stops waiting');
    expect($<HTMLTextAreaElement>(chat, '[part=input]')!.value).to.equal('Never mind, I will call instead.');
    expect(focused()).to.equal($(chat, '[part=input]'));
    expect(chat.shadowRoot!.querySelector('.message.member'), 'the message left the chat').to.equal(null);
    comeBack(line);
    await waitUntil(() => session.manager.state.connection === 'online', 'back online', { timeout: 8000 });
    // A send still waiting would have gone out as the connection came back, ahead of this read
    // through the same proxy: once the read is answered, it had its chance.
    await session.manager.client.getUser(session.manager.member.current!.id);
    const sent = backend.sandbox.requests.filter(
      (r) =>
        r.method === 'POST' && /\/v2\/health-navigator\/(messages|users\/.*\/conversations)$/.test(r.path),
    );
    expect(sent, 'nothing was sent').to.have.length(0);
  });
});
