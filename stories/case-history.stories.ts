import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { inSession, sessionArgs, sessionArgTypes, type SessionArgs } from './support/backend.js';

const meta: Meta<SessionArgs> = {
  title: 'Elements/case-history',
  component: 'case-history',
  args: sessionArgs,
  argTypes: sessionArgTypes,
  parameters: {
    docs: {
      description: {
        component: "The member's consultations, newest first; opens each one's thread and updates live.",
      },
    },
  },
};
export default meta;

type Story = StoryObj<SessionArgs>;

export const Default: Story = { render: (args) => inSession(args, html`<case-history></case-history>`) };
export const Empty: Story = {
  args: { member: 'sam' },
  render: (args) => inSession(args, html`<case-history></case-history>`),
};
export const Arabic: Story = {
  args: { member: 'noor' },
  render: (args) => inSession(args, html`<case-history></case-history>`),
};
export const Dark: Story = {
  args: { theme: 'dark' },
  render: (args) => inSession(args, html`<case-history></case-history>`),
};
