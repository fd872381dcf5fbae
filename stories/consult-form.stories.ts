import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { inSession, sessionArgs, sessionArgTypes, type SessionArgs } from './support/backend.js';

const meta: Meta<SessionArgs> = {
  title: 'Elements/consult-form',
  component: 'consult-form',
  args: sessionArgs,
  argTypes: sessionArgTypes,
  parameters: {
    docs: {
      description: {
        component:
          'Ask a doctor: one to three questions, a draft that survives a reload, and a submit that never creates two consultations.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<SessionArgs>;

export const Default: Story = { render: (args) => inSession(args, html`<consult-form></consult-form>`) };

export const NoActiveSubscription: Story = {
  args: { member: 'sam' },
  render: (args) =>
    inSession(
      args,
      html`<consult-form
        ><p slot="no-subscription">
          Doctor questions come with the Plus plan. <a href="https://example.org/plans">See plans</a>.
        </p></consult-form
      >`,
    ),
};

export const Arabic: Story = {
  args: { member: 'noor' },
  render: (args) => inSession(args, html`<consult-form></consult-form>`),
};

export const Dark: Story = {
  args: { theme: 'dark' },
  render: (args) => inSession(args, html`<consult-form></consult-form>`),
};
