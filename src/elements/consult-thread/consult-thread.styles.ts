import { css } from 'lit';

export const styles = css`
  :host {
    --_gap: var(--consult-thread-gap, var(--_space));
    --_answer-background: var(--consult-thread-answer-background, var(--_surface-raised));
  }
  .base {
    display: grid;
    gap: var(--_gap);
  }
  p {
    margin: 0;
  }
  .header {
    margin: 0;
    font: inherit;
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 1rem;
    color: var(--_muted);
  }
  .thread {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: var(--_gap);
  }
  .item {
    display: grid;
    gap: 0.5rem;
  }
  /* Grid children may shrink below their content, so long content wraps or scrolls inside. */
  .base > *,
  .thread > *,
  .item > *,
  .reply > * {
    min-inline-size: 0;
  }
  .label {
    font-size: 0.875em;
    color: var(--_muted);
  }
  .question {
    border-radius: var(--_radius);
  }
  .question-text {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .reply {
    display: grid;
    gap: 0.75rem;
    padding: 0.75rem 1rem;
    border-radius: var(--_radius);
    background: var(--_answer-background);
    border-inline-start: 4px solid var(--_primary);
  }
  .waiting {
    color: var(--_muted);
    font-style: italic;
  }
  .professional {
    display: flex;
    align-items: flex-start;
    gap: 0.75rem;
    padding: 0.75rem 1rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .avatar {
    flex: none;
    display: grid;
    place-items: center;
    inline-size: 2.5rem;
    block-size: 2.5rem;
    border-radius: 50%;
    background: var(--_primary);
    color: var(--_on-primary);
    font-weight: 600;
    letter-spacing: 0.02em;
  }
  .who {
    display: grid;
    gap: 0.125rem;
    min-inline-size: 0;
  }
  .professional .name {
    font-weight: 600;
  }
  .professional .title,
  .by {
    color: var(--_muted);
  }
  .by {
    font-size: 0.875em;
  }
  .credentials summary {
    cursor: pointer;
    color: var(--_primary);
    font-size: 0.875em;
  }
  .credentials[open] {
    display: grid;
    gap: 0.5rem;
  }
  .specialties {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem;
    margin: 0.5rem 0 0;
    padding: 0;
    list-style: none;
  }
  .specialties li {
    padding: 0.125rem 0.5rem;
    border-radius: 999px;
    background: var(--_surface-raised);
    font-size: 0.875em;
  }
  .licences,
  .attachments ul {
    margin: 0;
    padding-inline-start: 1.25rem;
  }
  a {
    color: var(--_primary);
  }
  .attachments li {
    overflow-wrap: anywhere;
  }
  .host,
  .note {
    color: var(--_muted);
    font-size: 0.875em;
  }
  .followup {
    display: grid;
    gap: 0.5rem;
    padding-block-start: var(--_gap);
    border-block-start: 1px solid var(--_border);
  }
  .followup button {
    justify-self: start;
  }
  .count {
    color: var(--_muted);
    font-size: 0.875em;
  }
  textarea {
    resize: vertical;
  }
  textarea[readonly] {
    background: var(--_surface-raised);
  }
  .skeleton.narrow {
    inline-size: 30%;
  }
  .skeleton.short {
    inline-size: 55%;
  }
  .reply.placeholder {
    gap: 0.5rem;
  }
  .notice button {
    margin-block-start: 0.75rem;
  }
  /* "Cancel sending" sits beside what it cancels, not across the card. */
  .cancel {
    justify-self: start;
  }
`;
