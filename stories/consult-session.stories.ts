import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import '../src/define.js';

const meta: Meta = {
  title: 'Elements/consult-session',
  component: 'consult-session',
  parameters: {
    docs: {
      description: {
        component:
          'Signs the member in through the proxy and gives the elements inside it their session. When the session cannot be renewed it shows this notice and emits `session-expired`.',
      },
    },
  },
};
export default meta;

/** The proxy refuses the session: the "sign in again" state. */
export const SignedOut: StoryObj = {
  render: () =>
    html`<consult-session
      .tokenProvider=${async () => {
        throw Object.assign(new Error('signed out'), { status: 401 });
      }}
    >
      <case-history></case-history>
    </consult-session>`,
};
