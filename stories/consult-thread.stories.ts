import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { inSession, sessionArgs, sessionArgTypes, type SessionArgs } from './support/backend.js';

type ThreadArgs = SessionArgs & { consultationId: string };

const meta: Meta<ThreadArgs> = {
  title: 'Elements/consult-thread',
  component: 'consult-thread',
  args: { ...sessionArgs, consultationId: 'cns_demo_alex_rash' },
  argTypes: {
    ...sessionArgTypes,
    consultationId: {
      control: 'select',
      options: [
        'cns_demo_alex_rash',
        'cns_demo_alex_bp',
        'cns_demo_alex_sleep',
        'cns_demo_alex_vitamin',
        'cns_unknown',
      ],
      description:
        'The id of the consultation to show (the `consultation-id` attribute): a demo consultation, or one that does not exist.',
    },
  },
  parameters: {
    docs: {
      description: {
        component:
          'One consultation: questions, answers as sanitized markdown, the professional, and a follow-up box held to three questions.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<ThreadArgs>;

const render: Story['render'] = (args) =>
  inSession(args, html`<consult-thread consultation-id=${args.consultationId}></consult-thread>`);

export const Answered: Story = { render };
export const WaitingForADoctor: Story = { args: { consultationId: 'cns_demo_alex_vitamin' }, render };
export const Closed: Story = { args: { consultationId: 'cns_demo_alex_sleep' }, render };
export const NotFound: Story = { args: { consultationId: 'cns_unknown' }, render };
export const Arabic: Story = { args: { member: 'noor', consultationId: 'cns_demo_noor_fever' }, render };
