import { css } from 'lit';

export const styles = css`
  /* The partner's content inside keeps the page's own background. */
  :host {
    background: none;
  }
  /* In view wherever the member is on the page, as a messenger keeps its "Connecting…" bar. */
  [part~='connection'] {
    position: sticky;
    inset-block-start: var(--consult-connection-top, 0.5rem);
    z-index: 2;
    margin-block: 0 1rem;
    box-shadow: 0 0.25rem 0.75rem -0.5rem color-mix(in srgb, var(--_text) 40%, transparent);
  }
  /* A screen too short to give it a place (a phone on its side) keeps it where it stands. */
  @media (max-height: 30rem) {
    [part~='connection'] {
      position: static;
    }
  }
  .notice p {
    margin-block: 0 0.75rem;
  }
`;
