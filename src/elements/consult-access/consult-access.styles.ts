import { css } from 'lit';

export const styles = css`
  /* Earlier periods sit beside the notice where there is room, below it where there is not. */
  .base {
    display: flex;
    flex-wrap: wrap;
    align-items: start;
    gap: 0.75rem;
  }
  .base > * {
    flex: 1 1 20rem;
  }
  .base > .history {
    flex: 0 1 auto;
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
