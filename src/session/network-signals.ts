/**
 * The browser's word on the network (`offline`, `online`), heard while any element follows the
 * session, and not otherwise.
 */
export class NetworkSignals {
  /** How many elements follow the session. */
  #followers = 0;
  readonly #onOffline: () => void;
  readonly #onOnline: () => void;

  constructor({ offline, online }: { offline: () => void; online: () => void }) {
    this.#onOffline = offline;
    this.#onOnline = online;
  }

  /** One more follower; answers the function that stops following (once). */
  follow(): () => void {
    if (++this.#followers === 1 && typeof window !== 'undefined') {
      window.addEventListener('offline', this.#onOffline);
      window.addEventListener('online', this.#onOnline);
    }
    let following = true;
    return () => {
      if (!following) return;
      following = false;
      if (--this.#followers === 0 && typeof window !== 'undefined') {
        window.removeEventListener('offline', this.#onOffline);
        window.removeEventListener('online', this.#onOnline);
      }
    };
  }
}
