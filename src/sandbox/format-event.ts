import type { WebhookEvent } from '../client/types.js';

/**
 * Operation 17: builds a webhook event from any JSON object. Keys are matched case-insensitively
 * and without separators, so `case_id`, `Case-ID`, `consultationId` and `consultation_id` all give
 * `caseId`. Values that are not strings or numbers are ignored rather than crashing.
 */
const ALIASES: Record<keyof WebhookEvent, readonly string[]> = {
  type: ['type', 'event', 'eventtype', 'eventname', 'name'],
  caseId: ['caseid', 'case', 'consultationid', 'consultation', 'consultid'],
  userId: ['userid', 'user', 'memberid', 'patientid'],
};

const normalizeKey = (key: string): string => key.toLowerCase().replace(/[^a-z0-9]/g, '');

function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint') return value.toString();
  return undefined;
}

function pick(source: Record<string, unknown>, field: keyof WebhookEvent): string | undefined {
  const wanted = ALIASES[field];
  const keys = Object.keys(source);
  // Aliases are tried in order of preference, so `type` wins over `name` when both are present.
  for (const alias of wanted) {
    for (const key of keys) {
      if (normalizeKey(key) !== alias) continue;
      const value = source[key];
      const direct = scalar(value);
      if (direct !== undefined) return direct;
      // `{ "consultation": { "id": "…" } }`
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        const nested = scalar((value as Record<string, unknown>)['id']);
        if (nested !== undefined) return nested;
      }
    }
  }
  return undefined;
}

export function formatEvent(input: Record<string, unknown>): WebhookEvent {
  // Common envelopes: `{ data: {...} }`, `{ payload: {...} }`.
  const envelopes = ['data', 'payload', 'event']
    .map((k) => input[k])
    .filter((v): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v));
  const sources = [input, ...envelopes];
  const find = (field: keyof WebhookEvent): string => {
    for (const source of sources) {
      const value = pick(source, field);
      if (value !== undefined) return value;
    }
    return '';
  };
  return { type: find('type') || 'unknown', caseId: find('caseId'), userId: find('userId') };
}
