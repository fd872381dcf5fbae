import { css } from 'lit';

export const styles = css`
  .base {
    display: grid;
    gap: 0.75rem;
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
    display: grid;
    gap: 0.5rem;
  }
  .skeleton.short {
    inline-size: 60%;
  }
`;
