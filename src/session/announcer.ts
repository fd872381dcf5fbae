/**
 * One announcer per session: what screen readers hear, in one polite and one assertive live
 * region that `<consult-session>` renders. Several views telling the same thing (an answer seen by
 * the list and by its thread) are heard once.
 */

/** The same words within this long of each other are one announcement. */
const SAME_WITHIN_MS = 2_000;

export class Announcer extends EventTarget {
  /** The text of the polite region. */
  polite = '';
  /** The text of the assertive region: urgent news only. */
  assertive = '';
  #last?: { text: string; at: number };

  /** Tells `text` to screen readers, assertively when `urgent`; a repeat told just now is dropped. */
  announce(text: string, urgent = false): void {
    const now = Date.now();
    if (!text || (this.#last?.text === text && now - this.#last.at < SAME_WITHIN_MS)) return;
    this.#last = { text, at: now };
    // The same words as the region holds would not be read again: make them differ invisibly.
    const region = urgent ? 'assertive' : 'polite';
    this[region] = this[region] === text ? `${text}\u00a0` : text;
    this.dispatchEvent(new Event('change'));
  }

  /** Another member, or none: nothing said for the previous one stays in the regions. */
  clear(): void {
    this.polite = '';
    this.assertive = '';
    this.#last = undefined;
    this.dispatchEvent(new Event('change'));
  }
}
