import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { inSession, sessionArgs, sessionArgTypes, type SessionArgs } from './support/backend.js';

const meta: Meta<SessionArgs> = {
  title: 'Elements/consult-access',
  component: 'consult-access',
  args: sessionArgs,
  argTypes: sessionArgTypes,
  parameters: {
    docs: {
      description: {
        component:
          'The member’s plan at a glance: whether it includes questions to a doctor, until when, and the plans it renews.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<SessionArgs>;

const render = (args: SessionArgs) =>
  inSession(
    args,
    html`<consult-access
      ><p slot="none">
        Doctor questions come with the Plus plan. <a href="https://example.org/plans">See plans</a>.
      </p></consult-access
    >`,
  );

export const ActivePlan: Story = { render };
export const NoActivePlan: Story = { args: { member: 'sam' }, render };
export const Arabic: Story = { args: { member: 'noor' }, render };
export const Dark: Story = { args: { theme: 'dark' }, render };
