import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { inSession, sessionArgs, sessionArgTypes, type SessionArgs } from './support/backend.js';

const meta: Meta<SessionArgs> = {
  title: 'Elements/navigator-chat',
  component: 'navigator-chat',
  args: sessionArgs,
  argTypes: sessionArgTypes,
  parameters: {
    docs: {
      description: {
        component:
          'The health navigator: general guidance, and for anything that sounds like a symptom a button that hands the text to a `<consult-form>`.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<SessionArgs>;

export const Default: Story = { render: (args) => inSession(args, html`<navigator-chat></navigator-chat>`) };

export const WithHandoffToAForm: Story = {
  render: (args) =>
    inSession(
      args,
      html`<navigator-chat for="story-form"></navigator-chat> <consult-form id="story-form"></consult-form>`,
    ),
};

export const Arabic: Story = {
  args: { member: 'noor' },
  render: (args) => inSession(args, html`<navigator-chat></navigator-chat>`),
};

export const Dark: Story = {
  args: { theme: 'dark' },
  render: (args) => inSession(args, html`<navigator-chat></navigator-chat>`),
};
