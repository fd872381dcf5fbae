import { css } from 'lit';

export const styles = css`
  /* The partner's content inside keeps the page's own background. */
  :host {
    background: none;
  }
  [part~='connection'] {
    margin-block: 0 1rem;
  }
  .notice p {
    margin-block: 0 0.75rem;
  }
`;
