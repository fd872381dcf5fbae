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
import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
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
