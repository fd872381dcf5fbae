import { randomBytes } from './webhook-delivery.js';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A new record id as the service makes them: `usr_` and twelve letters or digits. */
export function newId(prefix: string): string {
  let id = '';
  for (const byte of randomBytes(12)) id += ALPHABET[byte % ALPHABET.length];
  return `${prefix}_${id}`;
}
