/**
 * Creates are idempotent per member (S14): a repeated `Idempotency-Key` with the same request
 * answers the first outcome and makes one upstream call, even when the repeats arrive at once;
 * the same key with another request is a 422. The upstream call carries a key derived from the
 * member and the browser's key, so the upstream de-duplicates too, across proxy processes.
 */
import { canonicalJson } from '../server/canonical-json.js';
import { ProblemError } from '../server/problems.js';
import type { ProxyCore } from './context.js';

interface Outcome {
  status: number;
  body: unknown;
}

const TTL_MS = 24 * 60 * 60 * 1000;
const inFlight = new WeakMap<ProxyCore, Map<string, { fingerprint: string; outcome: Promise<Outcome> }>>();

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,128}$/;

/**
 * Runs `create` once per (member, key, request). `create` receives the upstream idempotency key.
 * Without a key from the browser, the call is made once and not recorded.
 */
export async function once(
  core: ProxyCore,
  userId: string,
  browserKey: string | undefined,
  request: { route: string; body: unknown },
  create: (upstreamKey: string | undefined) => Promise<Outcome>,
): Promise<Outcome> {
  if (browserKey === undefined) return create(undefined);
  if (!KEY_PATTERN.test(browserKey)) {
    throw ProblemError.badRequest({
      detail: 'Idempotency-Key must be 8 to 128 letters, digits or -_.:',
      errors: [{ field: 'Idempotency-Key', message: 'must be 8 to 128 letters, digits or -_.:' }],
    });
  }
  const recordKey = `idem:${userId}:${browserKey}`;
  const fingerprint = await sha256Hex(`${request.route}\n${canonicalJson(request.body)}`);
  const reused = () => ProblemError.idempotencyKeyReused();

  const upstreamKey = (await sha256Hex(`${userId}\n${browserKey}`)).slice(0, 48);

  // From here to `flights.set` nothing awaits: two requests with one key can never both start.
  let flights = inFlight.get(core);
  if (!flights) inFlight.set(core, (flights = new Map()));
  const flying = flights.get(recordKey);
  if (flying) {
    if (flying.fingerprint !== fingerprint) throw reused();
    return flying.outcome;
  }
  const outcome = (async (): Promise<Outcome> => {
    const stored = await core.store.get(recordKey);
    if (stored) {
      const record = JSON.parse(stored) as { fingerprint: string; outcome: Outcome };
      if (record.fingerprint !== fingerprint) throw reused();
      return record.outcome;
    }
    const result = await create(upstreamKey);
    await core.store.set(recordKey, JSON.stringify({ fingerprint, outcome: result }), TTL_MS);
    return result;
  })();
  const flight = { fingerprint, outcome };
  flights.set(recordKey, flight);
  try {
    return await outcome;
  } finally {
    if (flights.get(recordKey) === flight) flights.delete(recordKey);
  }
}
