import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html, unsafeStatic } from 'lit/static-html.js';
import { inSession, sessionArgs, sessionArgTypes, type SessionArgs } from './support/backend.js';

const meta: Meta<SessionArgs> = {
  title: 'Elements/prescription-request',
  component: 'prescription-request',
  args: sessionArgs,
  argTypes: sessionArgTypes,
  parameters: {
    docs: {
      description: {
        component:
          'A prescription request with the partner’s indication survey, as an accessible form that is sent once however often the member clicks.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<SessionArgs>;

const SURVEY = {
  questions: [
    {
      id: 'medicine',
      kind: 'text',
      required: true,
      maxLength: 200,
      label: {
        en: 'Which medicine do you need?',
        de: 'Welches Medikament brauchen Sie?',
        ar: 'ما الدواء الذي تحتاجه؟',
      },
    },
    {
      id: 'taken-before',
      kind: 'yes-no',
      required: true,
      label: {
        en: 'Have you taken it before?',
        de: 'Haben Sie es schon einmal eingenommen?',
        ar: 'هل تناولته من قبل؟',
      },
    },
    {
      id: 'applies',
      kind: 'multiple',
      label: {
        en: 'Do any of these apply to you?',
        de: 'Trifft etwas davon zu?',
        ar: 'هل ينطبق عليك أي مما يلي؟',
      },
      options: [
        { value: 'kidney', label: { en: 'Kidney disease', de: 'Nierenerkrankung', ar: 'مرض الكلى' } },
        {
          value: 'allergy',
          label: { en: 'Allergic to a medicine', de: 'Arzneimittelallergie', ar: 'حساسية من دواء' },
        },
      ],
    },
  ],
};

/**
 * The survey as JSON in a child script, not the `survey` property: "Show code" then shows it, and
 * the snippet pasted into a page renders the same form.
 */
const SURVEY_SCRIPT = unsafeStatic(
  `<script type="application/json">${JSON.stringify(SURVEY, null, 2).replaceAll('<', '\\u003c')}</script>`,
);

const render = (args: SessionArgs) =>
  inSession(args, html`<prescription-request>${SURVEY_SCRIPT}</prescription-request>`);

export const Default: Story = { render };
export const NoActivePlan: Story = { args: { member: 'sam' }, render };
export const Arabic: Story = { args: { member: 'noor' }, render };
export const Dark: Story = { args: { theme: 'dark' }, render };
