/**
 * The parts of `<navigator-chat>` around the messages: the welcome with example questions (each
 * sends when tapped), and the composer with its hints, its length counter in the question form's
 * words, and why a message cannot go yet.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { LocalizeController } from '../shared/localize.js';

/** The proxy refuses longer messages. */
export const MAX_LENGTH = 4000;
/** From here on, the composer shows how many characters are left. */
const WARN_LENGTH = 3500;

export type ComposerError = 'empty' | 'wait' | 'tooLong';

/** A keyboard with keys (a fine pointer, as on a desktop or laptop) rather than a phone's on-screen one. */
export function hasPhysicalKeyboard(): boolean {
  return typeof matchMedia !== 'function' || matchMedia('(pointer: fine)').matches;
}

export function welcome(
  t: LocalizeController<'navigator'>,
  {
    restored,
    suggestions,
    onSuggestion,
  }: { restored: boolean; suggestions: string[]; onSuggestion(text: string): void },
): TemplateResult {
  return html`<div class="welcome">
    ${restored ? html`<p class="notice">${t.t('restored')}</p>` : nothing}
    <p>${t.t('welcome')}</p>
    ${
      suggestions.length
        ? html`<p id="examples">${t.t('examples')}</p>
            <ul class="suggestions" aria-labelledby="examples">
              ${suggestions.map(
                (text) =>
                  html`<li>
                    <button type="button" part="suggestion" @click=${() => onSuggestion(text)}>
                      ${text}
                    </button>
                  </li>`,
              )}
            </ul>`
        : nothing
    }
  </div>`;
}

export interface ComposerView {
  draft: string;
  error: ComposerError | undefined;
  sending: boolean;
  /** The send button's words: "Send", or "Waiting to send…" while a message waits for the connection. */
  sendLabel: string;
  /** "Cancel sending", while a message waits for the connection. */
  cancelSend: TemplateResult | typeof nothing;
  onInput(event: InputEvent): void;
  onKeydown(event: KeyboardEvent): void;
  onSubmit(event: SubmitEvent): void;
}

export function composer(t: LocalizeController<'navigator'>, view: ComposerView): TemplateResult {
  const length = view.draft.length;
  const over = length - MAX_LENGTH;
  const counted = length >= WARN_LENGTH;
  // "Enter sends" is advice for a physical keyboard; a phone's keyboard has its own send key.
  const keyboard = hasPhysicalKeyboard();
  const describedBy = [keyboard ? 'key-hint' : '', counted ? 'count' : '', view.error ? 'composer-error' : '']
    .filter(Boolean)
    .join(' ');
  const error =
    view.error === 'empty'
      ? t.t('empty')
      : view.error === 'wait'
        ? t.t('wait')
        : view.error === 'tooLong'
          ? t.t('shorten', { max: MAX_LENGTH })
          : undefined;
  return html`<form part="composer" novalidate @submit=${view.onSubmit}>
    <label class="visually-hidden" for="input">${t.t('inputLabel')}</label>
    <textarea
      dir="auto"
      id="input"
      part="input"
      rows="2"
      .value=${live(view.draft)}
      aria-describedby=${describedBy}
      aria-invalid=${over > 0 || view.error === 'empty' ? 'true' : 'false'}
      @input=${view.onInput}
      @keydown=${view.onKeydown}
    ></textarea>
    <button part="send-button" class="primary" type="submit" aria-disabled=${view.sending ? 'true' : 'false'}>
      ${view.sendLabel}
    </button>
    ${view.cancelSend}
    <div class="composer-notes">
      ${keyboard ? html`<p id="key-hint">${t.t('keyHint')}</p>` : nothing}
      ${
        counted
          ? html`<p id="count" class=${over > 0 ? 'error' : ''}>
              ${over > 0 ? t.t('tooLong', { count: over }) : t.t('charactersLeft', { count: MAX_LENGTH - length })}
            </p>`
          : nothing
      }
      ${error ? html`<p id="composer-error" class="error" role="alert">${error}</p>` : nothing}
    </div>
  </form>`;
}

/** Why `text` cannot be sent now (`sending`: another message is on its way), or undefined. */
export function composerProblem(text: string, sending: boolean): ComposerError | undefined {
  if (sending) return 'wait';
  if (!text.trim()) return 'empty';
  if (text.length > MAX_LENGTH) return 'tooLong';
  return undefined;
}
