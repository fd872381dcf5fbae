import { css } from 'lit';

export const styles = css`
  /* The plan's history is part of its card: under what the plan says, inside the same notice. */
  .base {
    display: grid;
  }
  .base > * {
    min-inline-size: 0;
  }
  p {
    margin: 0;
  }
  .summary {
    display: grid;
    gap: 0.25rem;
  }
  .title {
    font-weight: 600;
  }
  ::slotted(*) {
    margin-block-start: 0.5rem;
  }
  .history .label {
    color: var(--_muted);
    font-size: 0.875em;
  }
  /* The earlier periods as plain lines under their label: no bullet hangs on its own. */
  .history {
    margin-block-start: 0.5rem;
    padding-block-start: 0.5rem;
    border-block-start: 1px solid color-mix(in srgb, currentColor 15%, transparent);
    color: var(--_muted);
    font-size: 0.875em;
  }
  .history .label {
    font-size: inherit;
  }
  .history ul {
    margin: 0.125rem 0 0;
    padding: 0;
    list-style: none;
  }
  .placeholder {
    --_kind: var(--_border);
  }
  .placeholder::before {
    content: '';
    background: var(--_surface-raised);
  }
`;
