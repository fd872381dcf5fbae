/**
 * The offer to be told on this device when a doctor answers (README "Notifications"). Shown only
 * once the host calls `show()` (after the member sent a question, or where a question waits),
 * never on page load; the browser is asked only when the member taps it. Nothing shows where push
 * cannot work, where the member refused it on this device, or without `push-worker` on the session.
 */
import {
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

  constructor(host: ReactiveControllerHost, session: () => SessionManager | undefined) {
    this.#host = host;
    this.#session = session;
    host.addController(this);
  }

  hostDisconnected(): void {
    this.#device?.removeEventListener('change', this.#refresh);
    this.#device = undefined;
  }

  /** From now on the offer (or, once on, that it is on) shows. */
  show(): void {
    this.#shown = true;
    void this.#refresh();
  }

  #refresh = async (): Promise<void> => {
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
      this.#host.requestUpdate();
    }
  }

  render(language: string): TemplateResult | typeof nothing {
    if (!this.#shown) return nothing;
    const t = (key: string) => translate(language, 'notify', key);
    if (this.#offer === 'offer')
      return html`<div part="push-offer" class="notice info push-offer">
        <button type="button" ?disabled=${this.#busy} @click=${() => this.#act((d) => d.enable(language))}>
          ${t('offer')}
        </button>
        <p class="push-note">${t('offerNote')}</p>
        <button
          type="button"
          class="link"
          ?disabled=${this.#busy}
          @click=${() => this.#act(async (d) => d.refuse())}
        >
          ${t('notNow')}
        </button>
      </div>`;
    if (this.#offer === 'on')
      return html`<div part="push-offer" class="notice info push-offer">
        <p>${t('on')}</p>
        <button
          type="button"
          class="link"
          ?disabled=${this.#busy}
          @click=${() => this.#act((d) => d.disable())}
        >
          ${t('turnOff')}
        </button>
      </div>`;
    return nothing;
  }
}
