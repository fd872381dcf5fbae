/**
 * The member's notifications for the session: on this device (Web Push, `push-worker`), whose code
 * loads in a chunk of its own only where a worker is named and whose subscription follows the
 * member (S30), and by the service itself (`shouldNotify`, `service-notifications`).
 */
import type { PushDevice } from '../push/device.js';

export interface DeviceNotificationsOptions {
  /** The proxy's base URL. */
  endpoint(): string;
  /** The member's widget token, once signed in; rejects without a session. */
  token(): Promise<string>;
  fetch(): typeof fetch;
  /** The member's language, which the worker's words follow. */
  language(): string;
  /** The signed-in member's id. */
  member(): string | undefined;
}

export class DeviceNotifications {
  readonly #options: DeviceNotificationsOptions;
  /** The service worker named (`push-worker`), and this device's notifications, loaded on first use. */
  #push?: { worker: string; device: Promise<PushDevice> };
  /** The device's notifications once loaded, read at sign-out without waiting. */
  #loaded?: PushDevice;

  constructor(options: DeviceNotificationsOptions) {
    this.#options = options;
  }

  /** Offers notifications with the service worker at `worker` (undefined: none); false when it was so already. */
  use(worker: string | undefined): boolean {
    if (this.#push?.worker === worker) return false;
    this.#push = undefined;
    if (worker) {
      const options = this.#options;
      // Its own chunk: a page without `push-worker` never loads it.
      const device = import('../push/device.js').then(
        ({ PushDevice }) =>
          new PushDevice({
            worker,
            endpoint: options.endpoint,
            token: options.token,
            fetch: options.fetch,
            language: options.language,
            member: options.member,
          }),
      );
      this.#push = { worker, device };
      void device.then((loaded) => {
        if (this.#push?.device === device) this.#loaded = loaded;
      });
    } else this.#loaded = undefined;
    return true;
  }

  /** This device's notifications, when the session offers them. */
  device(): Promise<PushDevice | undefined> {
    return this.#push?.device ?? Promise.resolve(undefined);
  }

  /** Another member signed in on this device (in this tab, or on an earlier visit): the one before is told nothing here any more. */
  keepOnlyFor(memberId: string | undefined): void {
    if (memberId)
      void this.#push?.device.then((device) => device.keepOnlyFor(memberId)).catch(() => undefined);
  }

  /** The endpoint of this device's subscription, where this page has seen it: sign-out names it to the proxy. */
  knownEndpoint(): string | undefined {
    return this.#loaded?.endpoint;
  }

  /**
   * Ends the device's subscription: on the proxy with `token` (undefined: in the browser alone,
   * which its push service then refuses); undefined when none was offered.
   */
  end(token: string | undefined): Promise<unknown> | undefined {
    return this.#push?.device.then((device) => device.end(token));
  }

  /**
   * The member's choice of the service's own notifications (`shouldNotify`, where the proxy allows
   * it with `serviceNotifications`): read, or set to `shouldNotify`. `null` while the member has not
   * chosen here; rejects where the proxy does not offer it.
   */
  async serviceNotify(shouldNotify?: boolean): Promise<boolean | null> {
    const token = await this.#options.token();
    const write = shouldNotify !== undefined;
    const response = await this.#options.fetch()(
      `${this.#options.endpoint().replace(/\/$/, '')}/service-notifications`,
      {
        method: write ? 'PUT' : 'GET',
        credentials: 'include',
        headers: {
          authorization: `Bearer ${token}`,
          ...(write ? { 'content-type': 'application/json' } : {}),
        },
        ...(write ? { body: JSON.stringify({ shouldNotify }) } : {}),
      },
    );
    if (!response.ok) throw new Error(`The service's notifications answered ${response.status}.`);
    return ((await response.json()) as { shouldNotify: boolean | null }).shouldNotify;
  }
}
