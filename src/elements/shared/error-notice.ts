import { html, type TemplateResult } from 'lit';

/**
 * The one error notice of the elements: what failed, in words, and "Try again". It can take focus,
 * so focus can follow a retry that failed again.
 */
export function errorNotice(text: string, retry: string, onRetry: () => void): TemplateResult {
  return html`<div part="notice" class="notice error" role="alert" tabindex="-1">
    <p>${text}</p>
    <button part="retry-button" type="button" @click=${onRetry}>${retry}</button>
  </div>`;
}
