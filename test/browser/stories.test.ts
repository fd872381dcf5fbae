/**
 * Every story renders as Storybook renders it (args, loaders, render, play) and passes axe, so a
 * broken or inaccessible story fails `npm test`. The stories of every state also show what their
 * name promises.
 */
import { expect } from '@open-wc/testing';
import { render, type TemplateResult } from 'lit';
import { LOADER_SCRIPT, pasteableSnippet } from '../../.storybook/docs-tools.js';
import type { ConsultSession } from '../../src/elements/consult-session/consult-session.js';
import * as caseHistory from '../../stories/case-history.stories.js';
import * as consultAccess from '../../stories/consult-access.stories.js';
import * as consultForm from '../../stories/consult-form.stories.js';
import * as consultSession from '../../stories/consult-session.stories.js';
import * as consultThread from '../../stories/consult-thread.stories.js';
import * as navigatorChat from '../../stories/navigator-chat.stories.js';
import * as prescriptionRequest from '../../stories/prescription-request.stories.js';
import * as sandbox from '../../stories/sandbox.stories.js';
import * as states from '../../stories/states.stories.js';
import { demoBackend, type Member } from '../../stories/support/backend.js';
import { waitUntil } from './support/elements.js';

type StoryContext = {
  args: Record<string, unknown>;
  loaded: Record<string, unknown>;
  canvasElement: HTMLElement;
};
interface StoryLike {
  args?: Record<string, unknown>;
  loaders?: ((context: StoryContext) => Promise<Record<string, unknown>>)[];
  render?: (args: Record<string, unknown>, context: StoryContext) => TemplateResult;
  play?: (context: StoryContext) => Promise<void> | void;
}
interface StoriesModule {
  default: { title?: string; args?: Record<string, unknown>; render?: StoryLike['render'] };
  [story: string]: unknown;
}

const MODULES: StoriesModule[] = [
  consultSession,
  consultForm,
  caseHistory,
  consultThread,
  navigatorChat,
  consultAccess,
  prescriptionRequest,
  states,
  sandbox,
] as unknown as StoriesModule[];

/** Every text node under `root`, through open shadow roots, slotted content included once. */
function deepText(root: Node): string {
  let text = '';
  const walk = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) text += `${node.textContent} `;
    if (node instanceof Element && node.shadowRoot) walk(node.shadowRoot);
    if (node instanceof Element && node.localName === 'style') return;
    for (const child of node.childNodes) walk(child);
  };
  walk(root);
  return text.replace(/\s+/g, ' ').trim();
}

/** Every element matching `selector` under `root`, through open shadow roots. */
function deepQuery(root: ParentNode, selector: string): Element[] {
  const found = [...root.querySelectorAll(selector)];
  for (const element of root.querySelectorAll('*')) {
    if (element.shadowRoot) found.push(...deepQuery(element.shadowRoot, selector));
  }
  return found;
}

/** What each state's story must show, once it has settled. */
const SHOWS: Record<string, (canvas: HTMLElement) => boolean> = {
  Loading: (canvas) => deepQuery(canvas, '[aria-busy="true"] :is(.skeleton, .skeleton-text)').length > 0,
  Reconnecting: (canvas) => /Reconnecting/.test(deepText(canvas)) && !/Try again/.test(deepText(canvas)),
  LoadErrorWithRetry: (canvas) =>
    /We could not load your consultations/.test(deepText(canvas)) && /Try again/.test(deepText(canvas)),
  InactiveAccount: (canvas) => /Account not active/.test(deepText(canvas)),
  Waiting: (canvas) => /ankle is still swollen/.test(deepText(canvas)) && /Open/.test(deepText(canvas)),
  Claimed: (canvas) => /is reviewing your question/.test(deepText(canvas)),
  ResolvedWithAProfessional: (canvas) =>
    deepQuery(canvas, '[part~=answer] strong').length > 0 &&
    deepQuery(canvas, '[part~=professional]').length > 0,
  QuestionCapReached: (canvas) => /You have asked all 3 questions/.test(deepText(canvas)),
  Closed: (canvas) => /This consultation is closed/.test(deepText(canvas)),
  Canceled: (canvas) => /This consultation was canceled/.test(deepText(canvas)),
  LongMarkdownAnswer: (canvas) =>
    deepQuery(canvas, '[part~=answer] table').length === 1 &&
    deepQuery(canvas, '[part~=answer] ol li').length === 3,
  HostileAnswerRenderedHarmlessly: (canvas) =>
    /onerror="alert\(1\)"/.test(deepText(canvas)) &&
    deepQuery(canvas, '[part~=answer] :is(img, script, iframe, [style], [onerror])').length === 0,
  CustomTheme: (canvas) => {
    const form = canvas.querySelector('consult-form');
    const submit = form?.shadowRoot?.querySelector('[part~=submit-button]');
    return Boolean(submit && getComputedStyle(submit).backgroundColor === 'rgb(91, 33, 182)');
  },
  'Elements/prescription-request: Default': (canvas) =>
    /Which medicine do you need\?/.test(deepText(canvas)) &&
    deepQuery(canvas, 'input[type=checkbox]').length === 2,
  'Elements/consult-access: ActivePlan': (canvas) => /included in your plan/.test(deepText(canvas)),
  'Elements/consult-access: NoActivePlan': (canvas) => /Plus plan/.test(deepText(canvas)),
  SignedOutWithYourSignIn: (canvas) =>
    /You have signed out/.test(deepText(canvas)) && /Sign in to Northwind Health/.test(deepText(canvas)),
};

/**
 * Waits until the story shows text that has stopped changing for a moment (its data has arrived).
 * An element shows nothing until its language's strings are here, which can take longer than
 * that moment on a busy machine, so a blank canvas has not settled yet.
 */
async function settled(canvas: HTMLElement): Promise<void> {
  let last = '';
  let stableSince = performance.now();
  await waitUntil(
    () => {
      const now = deepText(canvas);
      if (now !== last) {
        last = now;
        stableSince = performance.now();
      }
      return now !== '' && performance.now() - stableSince > 400;
    },
    'the story settles',
    { timeout: 8000, interval: 50 },
  );
}

/**
 * "Show code" as Storybook makes it: the story rendered apart from the page, Lit's markers
 * removed, and the source transform applied where the story renders and again on the docs page.
 */
function showCode(template: TemplateResult): string {
  const apart = document.createElement('div');
  render(template, apart);
  const code = apart.innerHTML.replace(/<!--\?lit\$[0-9]+\$-->|<!--\??-->/g, '');
  render(null, apart);
  return pasteableSnippet(pasteableSnippet(code));
}

/**
 * The snippet pasted into a page, without its script tag (this page has the elements already).
 * Its `<consult-session endpoint="/consult">` signs in through the stories' in-page back end, as
 * the page's own server would.
 */
function paste(snippet: string, member: Member): HTMLElement {
  const template = document.createElement('template');
  template.innerHTML = snippet.replace(LOADER_SCRIPT, '');
  const page = document.createElement('div');
  page.append(document.importNode(template.content, true));
  const session = page.querySelector<ConsultSession>('consult-session');
  expect(session, 'the snippet has a <consult-session>').to.exist;
  expect(session!.getAttribute('endpoint')).to.equal('/consult');
  session!.fetch = demoBackend().fetch;
  session!.tokenProvider = demoBackend().signInAs(member);
  document.body.append(page);
  return page;
}

describe('every story', () => {
  for (const module of MODULES) {
    const meta = module.default;
    for (const [name, value] of Object.entries(module)) {
      if (name === 'default' || typeof value !== 'object' || value === null) continue;
      const story = value as StoryLike;
      it(`${meta.title}: ${name} renders and passes axe`, async function () {
        // A network error is told only after the client has waited out a few seconds of retries.
        this.timeout(40_000);
        const canvas = document.createElement('div');
        document.body.append(canvas);
        const errors: string[] = [];
        const onError = (event: ErrorEvent) => errors.push(event.message);
        window.addEventListener('error', onError);
        try {
          const args = { ...meta.args, ...story.args };
          const context: StoryContext = { args, loaded: {}, canvasElement: canvas };
          for (const loader of story.loaders ?? []) Object.assign(context.loaded, await loader(context));
          const draw = story.render ?? meta.render;
          expect(draw, 'the story renders something').to.be.a('function');
          render(draw!(args, context), canvas);
          await story.play?.(context);
          await settled(canvas);
          expect(deepText(canvas), 'the story shows text').to.not.equal('');
          const shows =
            SHOWS[`${meta.title}: ${name}`] ?? (meta.title === 'States' ? SHOWS[name] : undefined);
          if (meta.title === 'States') expect(shows, `what ${name} shows is checked`).to.be.a('function');
          // An unreachable service is waited out for a few seconds before the member is told.
          if (shows) await waitUntil(() => shows(canvas), `${name} shows its state`, { timeout: 25_000 });
          await expect(canvas).to.be.accessible();
          expect(errors).to.deep.equal([]);

          // "Show code": the loader's script tag once, above a snippet that works when pasted.
          const snippet = showCode(draw!(args, context));
          const scripts = snippet.split(LOADER_SCRIPT).length - 1;
          if (/^Elements\/|^States$/.test(meta.title ?? '')) {
            expect(scripts, `the loader's script tag once in:\n${snippet}`).to.equal(1);
            expect(snippet.startsWith(LOADER_SCRIPT)).to.be.true;
          } else {
            expect(scripts, `no script tag where no element is shown:\n${snippet}`).to.equal(0);
          }
          if (meta.title?.startsWith('Elements/') && name !== 'SignedOut') {
            // What the elements tell the developer about their configuration, in any language.
            const told: string[] = [];
            const consoleError = console.error;
            console.error = (...data: unknown[]) => {
              told.push(data.map(String).join(' '));
              consoleError(...data);
            };
            const page = paste(snippet, (args['member'] as Member | undefined) ?? 'alex');
            try {
              await settled(page);
              expect(deepText(page), `pasted:\n${snippet}`).to.not.match(/not available|has no session/);
              expect(
                told.filter((line) => /cannot be used|has no session|no survey/.test(line)),
                `pasted:\n${snippet}`,
              ).to.deep.equal([]);
              if (shows)
                await waitUntil(() => shows(page), `${name} pasted shows its state`, { timeout: 25_000 });
            } finally {
              console.error = consoleError;
              page.remove();
            }
          }
        } finally {
          window.removeEventListener('error', onError);
          render(null, canvas);
          canvas.remove();
        }
      });
    }
  }
});
