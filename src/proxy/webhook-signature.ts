/**
 * Standard Webhooks signatures, checked with WebCrypto (S10): on Node and edge runtimes alike, the
 * HMAC is the platform's own, and `crypto.subtle.verify` compares in constant time. The cheap
 * checks come first (headers present, timestamp within five minutes, a `v1` signature of the right
 * length), so most forged requests are refused without computing any HMAC, and none touches the store.
 */

/** How far a delivery's timestamp may be from now, either way. */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;
/** At most this many signatures in one header are tried (a rotated secret sends two). */
const MAX_SIGNATURES = 5;

const encoder = new TextEncoder();

function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return undefined;
  }
}

export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * The signatures a delivery offers, when its headers pass the cheap checks (an id, a timestamp
 * within five minutes, at least one `v1` signature of the right length); undefined otherwise, so a
 * request that fails them costs no HMAC and touches no store.
 */
export function offeredSignatures(
  headers: WebhookHeaders,
  now = Date.now(),
): Uint8Array<ArrayBuffer>[] | undefined {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  if (!id || id.length > 256 || !/^\d{1,12}$/.test(timestamp)) return undefined;
  if (Math.abs(now / 1000 - Number(timestamp)) > WEBHOOK_TOLERANCE_SECONDS) return undefined;
  const signatures = headers['webhook-signature']
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .slice(0, MAX_SIGNATURES)
    .map((entry) => fromBase64(entry.slice(3)))
    .filter((bytes): bytes is Uint8Array<ArrayBuffer> => bytes?.length === 32);
  return signatures.length ? signatures : undefined;
}

/** Compares two MACs in time that does not depend on where they differ. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return difference === 0;
}

/** Verifies deliveries signed with one `whsec_…` secret; its key is imported once. */
export class WebhookVerifier {
  readonly #key: Promise<CryptoKey | undefined>;

  constructor(readonly secret: string) {
    const bytes = fromBase64(secret.replace(/^whsec_/, ''));
    this.#key = bytes?.length
      ? crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
      : Promise.resolve(undefined);
    // A secret that is not base64 verifies nothing; it is never an unhandled rejection.
    this.#key.catch(() => undefined);
  }

  /**
   * True when `body` with these headers was signed with the secret, within the time window: one
   * HMAC, compared in constant time with each signature offered.
   */
  async verify(body: string, headers: WebhookHeaders, now = Date.now()): Promise<boolean> {
    const signatures = offeredSignatures(headers, now);
    if (!signatures) return false;
    const key = await this.#key.catch(() => undefined);
    if (!key) return false;
    const signed = encoder.encode(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`);
    const expected = new Uint8Array(await crypto.subtle.sign('HMAC', key, signed));
    return signatures.some((signature) => sameBytes(signature, expected));
  }
}
