import { css } from 'lit';

/**
 * Design tokens. Partners theme with the public `--consult-*` properties; each element maps them
 * to private `--_*` ones (Material's scheme). Colors follow `prefers-color-scheme` unless a
 * `theme="light|dark"` attribute (or `--consult-color-scheme`) says otherwise. No fonts or other
 * resources are loaded: the partner's font is inherited.
 */
export const hostStyles = css`
  :host {
    color-scheme: var(--consult-color-scheme, light dark);
    --_primary: var(--consult-color-primary, light-dark(#0b5cad, #7cb8ff));
    --_on-primary: var(--consult-color-on-primary, light-dark(#ffffff, #04223f));
    --_surface: var(--consult-color-surface, light-dark(#ffffff, #1b1d21));
    --_surface-raised: var(--consult-color-surface-raised, light-dark(#f4f6f9, #25282e));
    --_text: var(--consult-color-text, light-dark(#1c1f24, #eceef2));
    --_muted: var(--consult-color-muted, light-dark(#545b66, #b3b9c4));
    --_border: var(--consult-color-border, light-dark(#c9ced6, #4a505b));
    --_danger: var(--consult-color-danger, light-dark(#b3261e, #ffb4ab));
    --_success: var(--consult-color-success, light-dark(#1e6b35, #8fd9a4));
    --_warning: var(--consult-color-warning, light-dark(#8a4b00, #ffcf8a));
    --_focus: var(--consult-color-focus, light-dark(#0b5cad, #7cb8ff));
    --_radius: var(--consult-radius, 0.5rem);
    --_space: var(--consult-spacing, 1rem);
    --_font-size: var(--consult-font-size, 1rem);

    display: block;
    box-sizing: border-box;
    color: var(--_text);
    font-family: var(--consult-font-family, inherit);
    font-size: var(--_font-size);
    line-height: 1.5;
  }
  :host([theme='light']) {
    --consult-color-scheme: light;
  }
  :host([theme='dark']) {
    --consult-color-scheme: dark;
  }
  :host([hidden]) {
    display: none;
  }
  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }
  :focus-visible {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
  }
  button {
    font: inherit;
    min-block-size: 2.75rem;
    padding-block: 0.5rem;
    padding-inline: 1rem;
    border-radius: var(--_radius);
    border: 1px solid var(--_border);
    background: var(--_surface);
    color: var(--_text);
    cursor: pointer;
  }
  button.primary {
    background: var(--_primary);
    border-color: var(--_primary);
    color: var(--_on-primary);
  }
  button:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }
  textarea,
  input {
    font: inherit;
    color: var(--_text);
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0.5rem 0.75rem;
    inline-size: 100%;
  }
  [aria-invalid='true'] {
    border-color: var(--_danger);
  }
  .visually-hidden {
    position: absolute;
    inline-size: 1px;
    block-size: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  .notice {
    padding: 0.75rem 1rem;
    border-radius: var(--_radius);
    background: var(--_surface-raised);
    border-inline-start: 4px solid var(--_primary);
  }
  .notice.error {
    border-inline-start-color: var(--_danger);
  }
  .notice.warning {
    border-inline-start-color: var(--_warning);
  }
  .badge {
    display: inline-block;
    padding-inline: 0.5rem;
    border-radius: 999px;
    font-size: 0.875em;
    border: 1px solid currentColor;
  }
  /* Long words, URLs, code and tables stay inside the answer: nothing scrolls the page sideways. */
  .markdown {
    min-inline-size: 0;
    overflow-wrap: anywhere;
  }
  .markdown a {
    color: var(--_primary);
  }
  .markdown :is(p, ul, ol, pre, blockquote, table) {
    margin-block: 0.6em;
  }
  .markdown :is(p, ul, ol, pre, blockquote):first-child {
    margin-block-start: 0;
  }
  .markdown :is(p, ul, ol, pre, blockquote):last-child {
    margin-block-end: 0;
  }
  .markdown :is(pre, table) {
    display: block;
    max-inline-size: 100%;
    overflow-x: auto;
  }
  .markdown pre {
    padding: 0.5rem 0.75rem;
    border-radius: calc(var(--_radius) / 2);
    background: var(--_surface);
    overflow-wrap: normal;
  }
`;
