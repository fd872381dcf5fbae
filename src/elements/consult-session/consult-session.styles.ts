import { css } from 'lit';

export const styles = css`
  .notice p {
    margin-block: 0 0.75rem;
  }
`;
