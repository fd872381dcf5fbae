import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ConsultClient, type Consultation } from '../src/index.js';
import { createSandbox, DEMO_USER_IDS, OPERATION_TABLE } from '../src/sandbox/index.js';

// Every story runs against the sandbox inside the page: no server, no account.
const sandbox = createSandbox({ professionals: { mode: 'auto', claimAfterMs: 1500, answerAfterMs: 2500 } });
const client = new ConsultClient({
  baseUrl: 'http://sandbox.local',
  apiKey: 'sandbox-api-key',
  fetch: sandbox.fetch,
});

const meta: Meta = {
  title: 'Sandbox/Service',
  parameters: {
    docs: { description: { component: 'The simulated upstream service the elements run against.' } },
  },
};
export default meta;

/** The 20 operations, as the sandbox's OpenAPI document lists them. */
export const Operations: StoryObj = {
  render: () => html`
    <table>
      <caption>
        Operations of the partner health consultation service
      </caption>
      <thead>
        <tr>
          <th scope="col">Method</th>
          <th scope="col">Path</th>
          <th scope="col">Client method</th>
          <th scope="col">What it does</th>
        </tr>
      </thead>
      <tbody>
        ${OPERATION_TABLE.map(
          (op) =>
            html`<tr>
              <td><code>${op.method.toUpperCase()}</code></td>
              <td><code>${op.path}</code></td>
              <td><code>${op.operationId}</code></td>
              <td>${op.summary}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  `,
};

/** A demo member's case history, read through the typed client. */
export const CaseHistory: StoryObj<{ member: keyof typeof DEMO_USER_IDS }> = {
  args: { member: 'alex' },
  argTypes: { member: { control: 'select', options: Object.keys(DEMO_USER_IDS) } },
  loaders: [
    async ({ args }) => ({
      consultations: await client.getCaseHistory(DEMO_USER_IDS[args.member as keyof typeof DEMO_USER_IDS]),
    }),
  ],
  render: (_args, { loaded }) => {
    const consultations = (loaded as { consultations: Consultation[] }).consultations;
    return consultations.length === 0
      ? html`<p>No consultations yet.</p>`
      : html`<ul>
          ${consultations.map(
            (c) =>
              html`<li>
                <strong>${c.status}</strong> · ${new Date(c.createdAt).toLocaleDateString()} ·
                ${c.questions[0]?.question}
              </li>`,
          )}
        </ul>`;
  },
};
