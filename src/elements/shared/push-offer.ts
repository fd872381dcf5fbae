/**
 * The offer to be told on this device when a doctor answers (README "Notifications"). Shown only
 * once the host calls `show()`: `<consult-form>` after the member sent a question, and
 * `<consult-thread>` under the waiting note of a question not answered yet (where the member finds
 * it again later); never on page load, and the browser is asked only when the member taps it.
 * Nothing shows where push cannot work, where the member refused it on this device, or without
 * `push-worker` on the session.
 */
import {
  css,
  html,
  nothing,
  type ReactiveController,
  type ReactiveControllerHost,
  type TemplateResult,
} from 'lit';
import type { PushDevice, PushOffer } from '../../push/device.js';
import type { SessionManager } from '../../session/session.js';
import { translate } from '../shared/localize.js';

export class PushOfferController implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #session: () => SessionManager | undefined;
  #shown = false;
  #offer: PushOffer = 'unavailable';
  #busy = false;
  #device?: PushDevice;
  /** The member's choice of the service's own notifications (`service-notifications`), once read, and whose it is. */
  #service?: { member: string; shouldNotify: boolean | null };
  #serviceAsked?: string;
  /** The member said no on this page ("Not now", or to the browser): a line says so, where the offer was. */
  #declined = false;
  /** Where focus goes once the host has drawn what the member's tap led to. */
  #focusAfter?: string;

  constructor(host: ReactiveControllerHost, session: () => SessionManager | undefined) {
    this.#host = host;
    this.#session = session;
    host.addController(this);
  }

  hostDisconnected(): void {
    this.#device?.removeEventListener('change', this.#refresh);
    this.#device = undefined;
  }

  /** Whether `show()` was called. */
  get shown(): boolean {
    return this.#shown;
  }

  /** From now on the offer (or, once on, that it is on) shows. */
  show(): void {
    this.#shown = true;
    void this.#refresh();
  }

  #refresh = async (): Promise<void> => {
    void this.#readServiceChoice();
    const device = await this.#session()?.pushDevice();
    if (device !== this.#device) {
      this.#device?.removeEventListener('change', this.#refresh);
      device?.addEventListener('change', this.#refresh);
      this.#device = device;
    }
    const offer = device ? await device.offer().catch((): PushOffer => 'unavailable') : 'unavailable';
    if (offer !== this.#offer) {
      this.#offer = offer;
      this.#host.requestUpdate();
    }
  };

  /** Where the session lets the member choose, their current choice, read once per member. */
  async #readServiceChoice(): Promise<void> {
    const session = this.#session();
    const member = session?.member.current?.id;
    if (!session?.serviceNotifications || !member || this.#serviceAsked === member) return;
    this.#serviceAsked = member;
    try {
      this.#service = { member, shouldNotify: await session.serviceNotify() };
    } catch {
      // Not offered by the proxy, or not reachable now: no control.
      this.#service = undefined;
    }
    this.#host.requestUpdate();
  }

  async #setServiceChoice(shouldNotify: boolean): Promise<void> {
    const session = this.#session();
    const service = this.#service;
    if (!session || !service || this.#busy) return;
    this.#busy = true;
    this.#host.requestUpdate();
    try {
      this.#service = { ...service, shouldNotify: await session.serviceNotify(shouldNotify) };
    } catch {
      // The choice stays as it was.
    } finally {
      this.#busy = false;
      this.#host.requestUpdate();
    }
  }

  async #act(action: (device: PushDevice) => Promise<unknown>): Promise<void> {
    const device = this.#device;
    if (!device || this.#busy) return;
    this.#busy = true;
    this.#host.requestUpdate();
    try {
      await action(device);
    } catch {
      // The browser or the proxy said no: the offer stays as it was.
    } finally {
      this.#busy = false;
      await this.#refresh();
      // "Not now", or a no from the browser: a line says it will not be asked again.
      if (this.#offer === 'refused') this.#declined = true;
      // Focus follows the member's tap to what it led to: the offer as it now stands, or the line
      // saying it will not be asked again, rather than falling to the page when a button goes.
      this.#focusAfter = '[part~="push-offer"], [part~="push-declined"]';
      this.#host.requestUpdate();
    }
  }

  hostUpdated(): void {
    const selector = this.#focusAfter;
    if (!selector) return;
    this.#focusAfter = undefined;
    const root = (this.#host as unknown as { renderRoot?: ParentNode }).renderRoot;
    root?.querySelector<HTMLElement>(selector)?.focus();
  }

  /** A notice of its own in the form; in a thread, a quiet line under the waiting note. */
  render(language: string, place: 'form' | 'thread' = 'form'): TemplateResult | typeof nothing {
    if (!this.#shown) return nothing;
    const box = place === 'form' ? 'notice info push-offer' : 'push-offer in-thread';
    // The service's choice sits in the offer's box, or alone where this device cannot be told.
    const service = this.#renderService(language, place);
    const device = this.#renderDevice(language, box, service);
    return device === nothing ? service : device;
  }

  /** "Also tell me by e-mail or text message": the service's own notifications, for this member. */
  #renderService(language: string, place: 'form' | 'thread'): TemplateResult | typeof nothing {
    const service = this.#service;
    if (!service || service.member !== this.#session()?.member.current?.id) return nothing;
    return html`<label part="service-notifications" class="service-notifications in-${place}">
      <input
        type="checkbox"
        .checked=${service.shouldNotify === true}
        ?disabled=${this.#busy}
        @change=${(event: Event) => this.#setServiceChoice((event.target as HTMLInputElement).checked)}
      />
      ${translate(language, 'notify', 'byService')}
    </label>`;
  }

  #renderDevice(
    language: string,
    box: string,
    service: TemplateResult | typeof nothing,
  ): TemplateResult | typeof nothing {
    const t = (key: string) => translate(language, 'notify', key);
    if (this.#offer === 'offer')
      return html`<div part="push-offer" class=${box} tabindex="-1">
        <button
          type="button"
          aria-disabled=${this.#busy ? 'true' : 'false'}
          @click=${() => this.#act((d) => d.enable(language))}
        >
          ${t('offer')}
        </button>
        <button
          type="button"
          class="link"
          aria-disabled=${this.#busy ? 'true' : 'false'}
          @click=${() => this.#act(async (d) => d.refuse())}
        >
          ${t('notNow')}
        </button>
        <p class="push-note">${t('offerNote')}</p>
        ${service}
      </div>`;
    if (this.#offer === 'on')
      return html`<div part="push-offer" class=${box} tabindex="-1">
        <p>${t('on')}</p>
        <button
          type="button"
          class="link"
          aria-disabled=${this.#busy ? 'true' : 'false'}
          @click=${() => this.#act((d) => d.disable())}
        >
          ${t('turnOff')}
        </button>
        ${service}
      </div>`;
    if (this.#declined && this.#offer === 'refused')
      return html`<p part="push-declined" class="push-note" tabindex="-1" role="status">${t('declined')}</p>`;
    return nothing;
  }
}

/** The offer's layout: its button and "not now", then what it will say; the service's box beside its words. */
export const pushOfferStyles = css`
  .push-offer {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 1rem;
  }
  .push-note {
    flex-basis: 100%;
    margin: 0;
    font-size: 0.875em;
  }
  .push-offer.in-thread {
    margin-block-start: 0.25rem;
  }
  .push-offer.in-thread p {
    margin: 0;
  }
  .service-notifications {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    font-weight: normal;
  }
  .push-offer .service-notifications {
    flex-basis: 100%;
  }
  /* A box, not a text field: the shared input style's full width and padding do not apply. */
  .service-notifications input {
    flex: none;
    inline-size: 1rem;
    block-size: 1rem;
    margin: 0;
    padding: 0;
  }
  .service-notifications.in-thread {
    margin-block-start: 0.25rem;
  }
`;
