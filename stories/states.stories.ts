/**
 * Every state a partner should see before choosing: each story its own in-page sandbox and proxy
 * (professionals on manual, so the state stays put), set up by a loader through the sandbox's own
 * operations and controls, as a test would.
 */
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html, type TemplateResult } from 'lit';
import { ConsultClient } from '../src/client/client.js';
import type { ConsultSession } from '../src/elements/consult-session/consult-session.js';
import { createDemoBackend, type DemoBackend } from '../src/sandbox/demo-backend.js';
import { DEFAULT_API_KEY } from '../src/sandbox/sandbox.js';
import { DEMO_USER_IDS } from '../src/sandbox/seed.js';
import '../src/define.js';

interface Loaded {
  backend: DemoBackend;
  consultationId?: string;
}

/** What a loader may do with its own backend before the story renders. */
interface Setup {
  /** The upstream itself, with the partner's API key: what a professional's side would change. */
  upstream: ConsultClient;
  control(path: string, body?: unknown): Promise<void>;
}

/** A loader giving the story a fresh backend, set up by `setup`. */
const withBackend =
  (setup: (tools: Setup) => Promise<Partial<Loaded>> = async () => ({})) =>
  async (): Promise<Loaded> => {
    const backend = createDemoBackend({ sandbox: { professionals: { mode: 'manual' } } });
    const upstream = new ConsultClient({
      baseUrl: 'http://sandbox.local',
      apiKey: DEFAULT_API_KEY,
      fetch: backend.sandbox.fetch,
    });
    const control = async (path: string, body: unknown = {}) => {
      const response = await backend.sandbox.fetch(`http://sandbox.local/_sandbox${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`sandbox control ${path}: ${response.status}`);
    };
    return { backend, ...(await setup({ upstream, control })) };
  };

/** A new consultation of Alex's, with `questions`, moved on by `then`. */
const alexAsks =
  (questions: string[], then: (id: string, tools: Setup) => Promise<void> = async () => undefined) =>
  async (tools: Setup) => {
    const { consultationId } = await tools.upstream.createConsultation({
      userId: DEMO_USER_IDS.alex,
      questions,
    });
    await then(consultationId, tools);
    return { consultationId };
  };

const signedIn = (
  backend: DemoBackend,
  content: TemplateResult,
  options: { member?: string; fetch?: typeof fetch } = {},
) =>
  html`<consult-session
    .fetch=${options.fetch ?? backend.fetch}
    .tokenProvider=${backend.signInAs(options.member ?? 'alex')}
    >${content}</consult-session
  >`;

/** A fetch for the page that treats the member's case history with `handle`, and all else as `backend`. */
const caseHistoryFetch =
  (backend: DemoBackend, handle: () => Promise<Response>): typeof fetch =>
  (input, init) =>
    /\/case-history$/.test(
      new URL(String(input instanceof Request ? input.url : input), location.href).pathname,
    )
      ? handle()
      : backend.fetch(input, init);

/** What the story's loader made. */
const loadedOf = (context: { loaded: Record<string, unknown> }) => context.loaded as unknown as Loaded;

const thread = (_args: unknown, context: { loaded: Record<string, unknown> }) => {
  const loaded = loadedOf(context);
  return signedIn(
    loaded.backend,
    html`<consult-thread consultation-id=${loaded.consultationId ?? ''}></consult-thread>`,
  );
};

const meta: Meta = {
  title: 'States',
  parameters: {
    docs: {
      description: {
        component:
          'Each state of the elements, against its own sandbox and proxy in the page: loading, errors, the plan, each stage of a consultation, long and hostile answers, and a custom theme.',
      },
    },
  },
};
export default meta;

type Story = StoryObj & { loaders: [() => Promise<Loaded>] };

/** The member's consultations are on their way: rows shaped like the list to come, and "Loading your consultations" for screen readers. */
export const Loading: Story = {
  loaders: [withBackend()],
  render: (_args, context) =>
    signedIn(loadedOf(context).backend, html`<case-history></case-history>`, {
      fetch: caseHistoryFetch(loadedOf(context).backend, () => new Promise<Response>(() => undefined)),
    }),
};

/** The service cannot be reached: one "Reconnecting…" notice for the session, and the list waits for it. */
export const Reconnecting: Story = {
  loaders: [withBackend()],
  render: (_args, context) =>
    signedIn(loadedOf(context).backend, html`<case-history></case-history>`, {
      fetch: caseHistoryFetch(loadedOf(context).backend, () =>
        Promise.resolve(new Response('', { status: 503, headers: { 'retry-after': '0' } })),
      ),
    }),
};

/** A failure that waiting does not mend (the proxy's own error): the element says what failed, with "Try again". */
export const LoadErrorWithRetry: Story = {
  loaders: [withBackend()],
  render: (_args, context) =>
    signedIn(loadedOf(context).backend, html`<case-history></case-history>`, {
      fetch: caseHistoryFetch(loadedOf(context).backend, () =>
        Promise.resolve(
          new Response(JSON.stringify({ title: 'Internal error', status: 500, code: 'internal_error' }), {
            status: 500,
            headers: { 'content-type': 'application/problem+json' },
          }),
        ),
      ),
    }),
};

/** An account the service has deactivated: the form says questions cannot be sent, and why, instead of a box that fails on send. */
export const InactiveAccount: Story = {
  loaders: [
    withBackend(
      async ({ control }) => (
        await control(`/users/${DEMO_USER_IDS.alex}/status`, { status: 'deactivatedUser' }),
        {}
      ),
    ),
  ],
  render: (_args, context) => signedIn(loadedOf(context).backend, html`<consult-form></consult-form>`),
};

/** A question just sent: the member's message, its step ("Sent") and how long answers usually take. */
export const Waiting: Story = {
  loaders: [
    withBackend(alexAsks(['My ankle is still swollen a week after I twisted it. Should I have it checked?'])),
  ],
  render: thread,
};

/** A professional has taken the question: the step says who is reviewing it. */
export const Claimed: Story = {
  loaders: [
    withBackend(
      alexAsks(['Can I take ibuprofen with my blood pressure tablets?'], (id, { control }) =>
        control(`/consultations/${id}/claim`),
      ),
    ),
  ],
  render: thread,
};

/** Answered: the answer as a message from the professional, with their initials, name and role, and the follow-up box. */
export const ResolvedWithAProfessional: Story = {
  loaders: [
    withBackend(
      alexAsks(['How much vitamin D should an adult take in winter?'], (id, { control }) =>
        control(`/consultations/${id}/answer`, {
          answer:
            'For most adults **10 micrograms (400 IU) a day** from October to March is enough.\n\n- Take it with a meal.\n- Ask us again if you take other supplements.',
        }),
      ),
    ),
  ],
  render: thread,
};

/** All three questions used: the limit said once, and "Start a new consultation" instead of a follow-up box. */
export const QuestionCapReached: Story = {
  loaders: [
    withBackend(
      alexAsks(
        [
          'I have had a dry cough for three weeks. Should I worry?',
          'Could it be my new blood pressure tablets?',
          'Should I stop taking them until I see my GP?',
        ],
        (id, { control }) =>
          control(`/consultations/${id}/answer`, {
            answer:
              'A dry cough is a known effect of some blood pressure tablets. Do not stop them before speaking to your GP.',
          }),
      ),
    ),
  ],
  render: thread,
};

/** A closed consultation: no counter and no follow-up box, and "Start a new consultation" as the way forward. */
export const Closed: Story = {
  loaders: [
    withBackend(
      alexAsks(['Is a flu vaccine safe during pregnancy?'], async (id, { control }) => {
        await control(`/consultations/${id}/answer`, {
          answer: 'Yes: it is recommended in every trimester.',
        });
        await control(`/consultations/${id}/close`);
      }),
    ),
  ],
  render: thread,
};

/** A canceled consultation: it says so, with "Start a new consultation". */
export const Canceled: Story = {
  loaders: [
    withBackend(
      alexAsks(['Which sunscreen is best for eczema?'], (id, { control }) =>
        control(`/consultations/${id}/cancel`),
      ),
    ),
  ],
  render: thread,
};

const LONG_ANSWER = `## What to do about recurring headaches

Most recurring headaches are **tension headaches** or **migraines**. Keeping a diary for two weeks helps tell them apart.

### Things to try first

1. Drink 1.5 to 2 litres of water a day.
2. Keep regular sleep: the same hours on weekdays and weekends.
3. Limit painkillers to **two or three days a week**, or they can cause headaches of their own.

| Kind | Typical feeling | Lasts |
|---|---|---|
| Tension | a tight band around the head | 30 minutes to a few days |
| Migraine | throbbing on one side, light hurts | 4 to 72 hours |

> See a doctor the same day if a headache is sudden and severe, or comes with a stiff neck, fever or confusion.

More: [NHS: headaches](https://www.nhs.uk/conditions/headaches/).`;

/** A long answer in markdown (headings, a numbered list, a table, a quote, a link) that stays inside its message on a phone. */
export const LongMarkdownAnswer: Story = {
  loaders: [
    withBackend(
      alexAsks(['I get headaches three or four times a week. What can I do?'], (id, { control }) =>
        control(`/consultations/${id}/answer`, { answer: LONG_ANSWER }),
      ),
    ),
  ],
  render: thread,
};

const HOSTILE_ANSWER = [
  'An answer that tries everything, shown as harmless text:',
  '<img src=x onerror="alert(1)">',
  '<script>alert(document.cookie)</script>',
  '[Click for your results](javascript:alert(1))',
  '<a href="https://evil.example" style="position:fixed;inset:0">Your results</a>',
  '![tracking pixel](https://evil.example/pixel.gif)',
  '<iframe src="https://evil.example"></iframe>',
].join('\n\n');

/** An answer full of HTML, scripts and tricky links, shown as harmless text: nothing runs and no request is made. */
export const HostileAnswerRenderedHarmlessly: Story = {
  loaders: [
    withBackend(
      alexAsks(['Are my test results in?'], (id, { control }) =>
        control(`/consultations/${id}/answer`, { answer: HOSTILE_ANSWER }),
      ),
    ),
  ],
  render: thread,
};

/** The elements themed by a partner with --consult-* properties and ::part(): another brand, the same elements. */
export const CustomTheme: Story = {
  loaders: [withBackend()],
  render: (_args, context) =>
    html`<div class="acme-theme">
      <style>
        .acme-theme {
          --consult-color-primary: #5b21b6;
          --consult-color-on-primary: #fff;
          --consult-color-surface: #faf5ff;
          --consult-color-border: #c4b5fd;
          --consult-radius: 1rem;
          --consult-font-family: Georgia, serif;
        }
        .acme-theme consult-form::part(submit-button) {
          border-radius: 999px;
          padding-inline: 1.5rem;
        }
        .acme-theme case-history::part(item) {
          border-inline-start: 4px solid #5b21b6;
        }
      </style>
      ${signedIn(loadedOf(context).backend, html`<consult-form></consult-form><case-history></case-history>`)}
    </div>`,
};

/** The member's session has ended: the partner's own sign-in link, slotted into signed-out. */
export const SignedOutWithYourSignIn: Story = {
  loaders: [withBackend()],
  render: (_args, context) =>
    signedIn(
      loadedOf(context).backend,
      html`<a slot="signed-out" href="https://portal.example/login">Sign in to Northwind Health</a>
        <case-history></case-history>`,
    ),
  play: async ({ canvasElement }) => {
    // Signed in first (once the element has its session's settings), then signed out.
    await customElements.whenDefined('consult-session');
    const session = canvasElement.querySelector<ConsultSession>('consult-session');
    if (!session) return;
    await session.updateComplete;
    await session.manager.ready();
    session.signOut();
  },
};
