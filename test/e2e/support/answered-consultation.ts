import assert from 'node:assert/strict';
import { ConsultClient } from '../../../src/client/client.js';
import { DEFAULT_API_KEY } from '../../../src/sandbox/sandbox.js';

/** Asks a question as alex in the sandbox at `sandboxUrl` and has it answered with `answer`; its id. */
export async function answeredConsultationOfAlex(sandboxUrl: string, answer: string): Promise<string> {
  const upstream = new ConsultClient({ baseUrl: sandboxUrl, apiKey: DEFAULT_API_KEY });
  const [alex] = await upstream.searchUsersByQuery('alex');
  assert.ok(alex, 'the sandbox has alex');
  const { consultationId } = await upstream.createConsultation({
    userId: alex.id,
    questions: ['My head hurts, what can I do?'],
  });
  const answered = await fetch(`${sandboxUrl}/_sandbox/consultations/${consultationId}/answer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ answer }),
  });
  assert.equal(answered.status, 200, 'the answer was given');
  return consultationId;
}
