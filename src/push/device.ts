/**
 * This device's notifications (README "Notifications", docs/security.md S28–S30): whether to offer
 * them, asking the browser only when the member taps the offer, remembering a refusal, and ending
 * them when the member signs out or another member signs in here. Nothing of the member is kept
 * in the browser for it but "refused on this device" and the id of the member the device's
 * subscription is for (as their drafts are kept under it; no health data).
 */

/** What the offer shows. */
export type PushOffer = 'unavailable' | 'refused' | 'offer' | 'on';

const REFUSED_KEY = 'consult-elements:push-refused';
/** Whose the browser's subscription is: a page signed in as anyone else ends it (S30). */
const MEMBER_KEY = 'consult-elements:push-member';
/** The language they asked for their notifications in (the element's), given again with the subscription. */
const LANGUAGE_KEY = 'consult-elements:push-language';

/**
 * Whether this browser can be told at all: the Push API and service workers, and, on iOS and
 * iPadOS, only in an app added to the home screen (Safari has no Web Push in a tab there).
 */
export function pushAvailable(): boolean {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return false;
  if (typeof PushManager === 'undefined' || typeof Notification === 'undefined') return false;
  const apple =
    /iPad|iPhone|iPod/.test(navigator.userAgent) ||
    (/Macintosh/.test(navigator.userAgent) && navigator.maxTouchPoints > 1);
  return !apple || (navigator as { standalone?: boolean }).standalone === true;
}

/**
 * What this device remembers (localStorage), or nothing where storage is off: the browser's own
 * "denied" still holds then, and a subscription that is no one's here ends at the next sign-in.
 */
function remembered(key: string): string | undefined {
  try {
    return localStorage.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

function remember(key: string, value: string | undefined): void {
  try {
    if (value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Storage is off: see `remembered`.
  }
}

/** Whose the browser's subscription is, and the language they asked in; none: no one's. */
function rememberSubscribed(memberId?: string, language?: string): void {
  remember(MEMBER_KEY, memberId);
  remember(LANGUAGE_KEY, memberId ? language : undefined);
}

interface ScriptUrlPolicy {
  createScriptURL(url: string): unknown;
}
let scriptUrlPolicy: ScriptUrlPolicy | undefined;

/**
 * The worker's URL as a page that requires Trusted Types takes it (policy `consult-push`, which
 * its CSP must name): only a URL on the page's own origin, as a service worker must be.
 */
function workerScriptUrl(url: string): string {
  const trustedTypes = (
    globalThis as { trustedTypes?: { createPolicy(name: string, rules: object): ScriptUrlPolicy } }
  ).trustedTypes;
  if (!trustedTypes) return url;
  scriptUrlPolicy ??= trustedTypes.createPolicy('consult-push', {
    createScriptURL: (value: string) => {
      const parsed = new URL(value, location.href);
      if (parsed.origin !== location.origin)
        throw new TypeError('The push worker must be on the page’s origin.');
      return parsed.href;
    },
  });
  return scriptUrlPolicy.createScriptURL(url) as string;
}

/** The VAPID public key as the bytes `pushManager.subscribe` takes. */
function keyBytes(base64Url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64Url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Resolves once `registration` has an active worker, which subscribing needs. Not
 * `navigator.serviceWorker.ready`: that waits for a worker whose scope holds this page, and the
 * worker's scope may be elsewhere (`{base}/push/`).
 */
function activated(registration: ServiceWorkerRegistration): Promise<void> {
  if (registration.active) return Promise.resolve();
  const worker = registration.installing ?? registration.waiting;
  return new Promise((resolve, reject) => {
    if (!worker) return reject(new Error('no service worker'));
    worker.addEventListener('statechange', () => {
      if (worker.state === 'activated') resolve();
      else if (worker.state === 'redundant') reject(new Error('the service worker was not installed'));
    });
  });
}

export interface PushDeviceOptions {
  /** The service worker's URL, as the `push-worker` attribute gives it. */
  worker: string;
  /** The proxy's base URL. */
  endpoint: () => string;
  /** The signed-in member's widget token (signing in when needed). */
  token: () => Promise<string>;
  fetch: () => typeof fetch;
  /** The language notifications are to be in. */
  language: () => string;
  /** The signed-in member's id. */
  member: () => string | undefined;
}

export class PushDevice extends EventTarget {
  readonly #options: PushDeviceOptions;
  /** The browser's subscription's endpoint, as last seen here: sign-out names it to the proxy. */
  #endpoint: string | undefined;
  /** The member whose subscription this page gave the proxy again (see `keepOnlyFor`). */
  #given: string | undefined;

  constructor(options: PushDeviceOptions) {
    super();
    this.#options = options;
  }

  get worker(): string {
    return this.#options.worker;
  }

  /** This device's subscription's endpoint, once this page has seen it; undefined without one. */
  get endpoint(): string | undefined {
    return this.#endpoint;
  }

  /** What to show now: no offer where it cannot work or was refused; `on` once subscribed. */
  async offer(): Promise<PushOffer> {
    if (!pushAvailable()) return 'unavailable';
    if (Notification.permission === 'denied' || remembered(REFUSED_KEY) === '1') return 'refused';
    if (Notification.permission !== 'granted') return 'offer';
    const subscription = await (await this.#registration())?.pushManager.getSubscription();
    this.#endpoint = subscription?.endpoint;
    const member = this.#options.member();
    return subscription && member && remembered(MEMBER_KEY) === member ? 'on' : 'offer';
  }

  /**
   * A member is signed in: a subscription the browser holds for anyone else (the member before on
   * this device, in this tab or an earlier visit) ends, on the proxy with this member's token and
   * in the browser, before anything could be told to it here. The member's own is given to the
   * proxy again, once per page, in the language they asked in: a proxy whose store lost it (a
   * restart of the memory store, Redis emptied) has it back, and its 60 days start again with each
   * visit.
   */
  async keepOnlyFor(memberId: string): Promise<void> {
    if (!pushAvailable()) return;
    const subscription = await (await this.#registration())?.pushManager.getSubscription().catch(() => null);
    this.#endpoint = subscription?.endpoint;
    if (!subscription) return;
    if (remembered(MEMBER_KEY) !== memberId)
      return this.end(await this.#options.token().catch(() => undefined));
    // Once per page and member (a renewed token signs in again), in the language they asked in.
    if (this.#given === memberId || Notification.permission !== 'granted') return;
    this.#given = memberId;
    const token = await this.#options.token().catch(() => undefined);
    // Only with this member's own token: another may have signed in meanwhile.
    if (!token || this.#options.member() !== memberId) return;
    const saved = await this.#call(
      'PUT',
      '/push/subscription',
      { ...subscription.toJSON(), lang: remembered(LANGUAGE_KEY) ?? this.#language() },
      token,
    ).catch(() => undefined);
    // The proxy no longer sends notifications: the browser's subscription ends too, not left "on".
    if (saved?.status === 404 && saved.headers.get('content-type')?.includes('problem+json'))
      await this.end();
  }

  /**
   * The member tapped the offer: the browser asks them now (never before), and a yes subscribes
   * this device for them on the proxy. A no is remembered here and not asked again.
   */
  async enable(language?: string): Promise<PushOffer> {
    if (!pushAvailable()) return 'unavailable';
    // The yes is the member's who tapped. The browser's question can stay open while another
    // member signs in on this page: then nothing is subscribed, for either of them.
    const member = this.#options.member();
    if (!member) return 'offer';
    const stillTheirs = () => this.#options.member() === member;
    const permission = await Notification.requestPermission();
    if (permission !== 'granted') {
      remember(REFUSED_KEY, '1');
      this.#changed();
      return 'refused';
    }
    if (!stillTheirs()) return 'offer';
    const token = await this.#options.token();
    if (!stillTheirs()) return 'offer';
    const key = await this.#call('GET', '/push', undefined, token);
    if (!key.ok) return 'unavailable';
    const { publicKey, page } = (await key.json()) as { publicKey: string; page?: string };
    const registration = await navigator.serviceWorker.register(workerScriptUrl(this.#workerUrl(page)));
    await activated(registration);
    if (!stillTheirs()) return 'offer';
    const subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(publicKey),
    });
    // A token of theirs as it is now (subscribing can take a while), and still theirs.
    const putToken = stillTheirs() ? await this.#options.token() : undefined;
    const saved =
      putToken && stillTheirs()
        ? await this.#call(
            'PUT',
            '/push/subscription',
            { ...subscription.toJSON(), lang: this.#language(language) },
            putToken,
          )
        : undefined;
    if (!saved?.ok) {
      await subscription.unsubscribe().catch(() => undefined);
      return 'offer';
    }
    if (!stillTheirs()) {
      // Saved just as the member changed: forgotten again on the proxy, with the token of the
      // member who asked, and in the browser.
      await this.#forget(subscription, putToken).catch(() => undefined);
      this.#changed();
      return 'offer';
    }
    rememberSubscribed(member, this.#language(language));
    this.#endpoint = subscription.endpoint;
    this.#changed();
    return 'on';
  }

  /** "Not now": remembered on this device, and not offered again. */
  refuse(): void {
    remember(REFUSED_KEY, '1');
    this.#changed();
  }

  /** Turned off by the member: forgotten on the proxy and in the browser. */
  async disable(): Promise<void> {
    await this.end(await this.#options.token().catch(() => undefined));
  }

  /**
   * Ends this device's notifications: the proxy forgets them (with the signed-out member's token
   * while it is still valid, or the token of the member who signed in next) and the browser
   * unsubscribes, so its push service refuses anything sent after. Without a token, the browser's
   * unsubscribe alone ends them: the proxy forgets the subscription when the push service says it
   * is gone.
   */
  async end(token?: string): Promise<void> {
    try {
      const subscription = await (await this.#registration())?.pushManager.getSubscription();
      if (subscription) await this.#forget(subscription, token);
    } catch {
      // No worker, or no access to it: nothing to end.
    } finally {
      this.#changed();
    }
  }

  /** Forgets `subscription` on the proxy (with `token`, when there is one) and in the browser. */
  async #forget(subscription: PushSubscription, token: string | undefined): Promise<void> {
    if (token)
      await this.#call('DELETE', '/push/subscription', { endpoint: subscription.endpoint }, token).catch(
        () => undefined,
      );
    await subscription.unsubscribe();
    this.#endpoint = undefined;
    rememberSubscribed();
  }

  #changed(): void {
    this.dispatchEvent(new Event('change'));
  }

  #language(language = this.#options.language()): string {
    const code = language.toLowerCase().split('-')[0] ?? 'en';
    return ['en', 'de', 'fr', 'es', 'nl', 'ar'].includes(code) ? code : 'en';
  }

  /** The worker, told which page a tap opens when no tab with the elements is open. */
  #workerUrl(page?: string): string {
    const url = new URL(this.#options.worker, location.href);
    url.searchParams.set('page', page ?? `${location.origin}${location.pathname}`);
    return url.href;
  }

  async #registration(): Promise<ServiceWorkerRegistration | undefined> {
    return navigator.serviceWorker.getRegistration(new URL(this.#options.worker, location.href).href);
  }

  async #call(method: string, path: string, body?: unknown, token?: string): Promise<Response> {
    const bearer = token ?? (await this.#options.token());
    return this.#options.fetch()(`${this.#options.endpoint().replace(/\/$/, '')}${path}`, {
      method,
      credentials: 'include',
      keepalive: method === 'DELETE',
      headers: {
        authorization: `Bearer ${bearer}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }
}
