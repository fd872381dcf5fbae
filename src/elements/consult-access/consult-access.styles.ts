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
  .history ul {
    margin: 0.25rem 0 0;
    padding-inline-start: 1.25rem;
  }
  .placeholder {
    display: grid;
    gap: 0.5rem;
  }
  .skeleton.short {
    inline-size: 60%;
  }
`;
