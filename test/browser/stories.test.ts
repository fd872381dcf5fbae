/**
 * Every story renders as Storybook renders it (args, loaders, render, play) and passes axe, so a
 * broken or inaccessible story fails `npm test`. The stories of every state also show what their
 * name promises.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { render, type TemplateResult } from 'lit';
import * as caseHistory from '../../stories/case-history.stories.js';
import * as consultAccess from '../../stories/consult-access.stories.js';
import * as consultForm from '../../stories/consult-form.stories.js';
import * as consultSession from '../../stories/consult-session.stories.js';
import * as consultThread from '../../stories/consult-thread.stories.js';
import * as navigatorChat from '../../stories/navigator-chat.stories.js';
import * as prescriptionRequest from '../../stories/prescription-request.stories.js';
import * as sandbox from '../../stories/sandbox.stories.js';
import * as states from '../../stories/states.stories.js';

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

/** Waits until the story's text has stopped changing for a moment (its data has arrived). */
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
      return performance.now() - stableSince > 400;
    },
    'the story settles',
    { timeout: 8000, interval: 50 },
  );
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
        } finally {
          window.removeEventListener('error', onError);
          render(null, canvas);
          canvas.remove();
        }
      });
    }
  }
});
