/**
 * A professional's role or specialty in the member's language. The service sends them as text in
 * English ("General Practitioner", "Dermatology"); the known ones are keys of the `professions`
 * translations, and any other shows as sent.
 */
import { translate } from './localize.js';

export function professionWords(language: string, sent: string): string {
  // Not a key that every object has ("constructor"): such a value is shown as sent.
  if (sent in Object.prototype) return sent;
  return translate(language, 'professions', sent);
}
