import { css } from 'lit';

export const styles = css`
  .base,
  form {
    display: grid;
    gap: var(--_space);
  }
  p {
    margin: 0;
  }
  .question {
    display: grid;
    gap: 0.375rem;
    min-inline-size: 0;
  }
  fieldset {
    margin: 0;
    padding: 0;
    border: 0;
  }
  label,
  legend {
    font-weight: 600;
  }
  legend {
    padding: 0;
    margin-block-end: 0.375rem;
  }
  .optional {
    font-weight: 400;
    color: var(--_muted);
  }
  .hint,
  .count {
    color: var(--_muted);
    font-size: 0.875em;
  }
  .choice {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    min-block-size: 2.75rem;
    font-weight: 400;
    cursor: pointer;
  }
  .choice input {
    inline-size: 1.25rem;
    block-size: 1.25rem;
    margin: 0;
    accent-color: var(--_primary);
  }
  textarea {
    resize: vertical;
  }
  .error {
    color: var(--_danger);
    font-weight: 600;
    font-size: 0.875em;
  }
  .notice .title {
    font-weight: 600;
  }
  .notice:focus {
    outline: none;
  }
  .notice:focus-visible {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
  }
  ::slotted(*) {
    margin-block-start: 0.5rem;
  }
  .submit,
  .another {
    justify-self: start;
  }
  button[aria-disabled='true'] {
    cursor: progress;
    opacity: 0.6;
  }
  /* "Cancel sending" sits beside what it cancels, not across the card. */
  .cancel {
    justify-self: start;
  }
  .sent-requests {
    display: grid;
    gap: 0.5rem;
    margin-block-end: var(--_space);
  }
  .sent-requests h3 {
    margin: 0;
    font: inherit;
    font-weight: 600;
  }
  .sent-requests ul {
    display: grid;
    gap: 0.5rem;
    margin: 0;
    padding: 0;
    list-style: none;
  }
  .request {
    display: grid;
    gap: 0.25rem;
    padding: 0.625rem 0.875rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .request .asked {
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .request .meta {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 0.75rem;
    color: var(--_muted);
    font-size: 0.875em;
  }
  .count.over {
    color: var(--_danger);
  }
`;
