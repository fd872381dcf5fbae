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
    /* Text and its background come from the same scheme: a dark element on a light page stays readable. */
    background: var(--_surface);
    color: var(--_text);
    font-family: var(--consult-font-family, inherit);
    font-size: var(--_font-size);
    line-height: 1.5;
  }
  /* The page sets no font of its own (the browser's default serif): the system's UI font instead. */
  :host(:state(system-font)) {
    font-family: var(
      --consult-font-family,
      system-ui,
      -apple-system,
      'Segoe UI',
      Roboto,
      'Noto Sans',
      'Noto Sans Arabic',
      'Helvetica Neue',
      Arial,
      sans-serif
    );
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
  /*
   * Notices, one style for every element, told apart by kind: info (the default), success,
   * warning (the emergency advice among them) and error. The icon is drawn with CSS alone, so it
   * loads nothing and no Content Security Policy can object; its glyph is hidden from assistive
   * technology, which hears the words.
   */
  .notice {
    --_kind: var(--_primary);
    position: relative;
    padding-block: 0.75rem;
    padding-inline: 2.75rem 1rem;
    border-radius: var(--_radius);
    border: 1px solid color-mix(in srgb, var(--_kind) 35%, transparent);
    border-inline-start: 4px solid var(--_kind);
    background: color-mix(in srgb, var(--_kind) 7%, var(--_surface));
  }
  .notice::before {
    content: 'i' / '';
    position: absolute;
    inset-inline-start: 0.85rem;
    inset-block-start: calc(0.75rem + 0.125em);
    inline-size: 1.25rem;
    block-size: 1.25rem;
    border-radius: 50%;
    background: var(--_kind);
    /* The kinds are dark in light mode and light in dark mode. */
    color: light-dark(#fff, #111);
    font:
      700 0.8rem/1.25rem system-ui,
      sans-serif;
    text-align: center;
  }
  .notice.success {
    --_kind: var(--_success);
  }
  .notice.success::before {
    content: '✓' / '';
  }
  .notice.warning {
    --_kind: var(--_warning);
  }
  .notice.error {
    --_kind: var(--_danger);
  }
  .notice:is(.warning, .error)::before {
    content: '!' / '';
  }
  .notice.warning::before {
    border-radius: 0.2rem;
  }
  /*
   * Loading placeholders shaped like what they stand for. They pulse by their opacity, which the
   * compositor animates without painting them again: a gradient moving across each bar repainted
   * them every frame, a third of the main thread at 4x CPU slowdown while the page waited. Still
   * when motion is not wanted.
   */
  .skeleton,
  .skeleton-text {
    border-radius: 0.25rem;
    background: var(--_surface-raised);
    animation: consult-pulse 1.4s ease-in-out infinite;
  }
  .skeleton {
    display: block;
    block-size: 0.9em;
  }
  /*
   * Stand-in words drawn as bars: they wrap, and so take the room, like the text to come. They are
   * generated content, not text: no one finds them in the page, copies them or hears them.
   */
  .skeleton-text {
    color: transparent;
    -webkit-box-decoration-break: clone;
    box-decoration-break: clone;
  }
  .skeleton-text::before {
    content: attr(data-words);
    /* Transparent even where a part sets its own colour (the count). */
    color: transparent;
  }
  @keyframes consult-pulse {
    50% {
      opacity: 0.45;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .skeleton,
    .skeleton-text {
      animation: none;
    }
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
