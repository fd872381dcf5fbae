import { css } from 'lit';

export const styles = css`
  :host {
    --_gap: var(--consult-form-gap, var(--_space));
  }
  [part='base'],
  form {
    display: grid;
    gap: var(--_gap);
  }
  .notice p {
    margin: 0;
  }
  .notice p + p,
  .notice p + button,
  .notice slot + button {
    margin-block-start: 0.75rem;
  }
  .notice .title {
    font-weight: 600;
  }
  .notice.success {
    border-inline-start-color: var(--_success);
  }
  .notice:focus {
    outline: none;
  }
  .notice:focus-visible {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
  }
  .question {
    display: grid;
    gap: 0.375rem;
  }
  label {
    font-weight: 600;
  }
  .hint {
    margin: 0;
    color: var(--_muted);
    font-size: 0.875em;
  }
  textarea {
    resize: vertical;
    min-block-size: 6rem;
  }
  textarea[readonly] {
    opacity: 0.8;
  }
  .meta {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 0.5rem;
  }
  .meta:empty {
    display: none;
  }
  .character-count {
    color: var(--_muted);
    font-size: 0.875em;
  }
  .character-count.over,
  .error {
    color: var(--_danger);
    font-weight: 600;
  }
  .remove {
    margin-inline-start: auto;
  }
  .error {
    margin: 0;
    font-size: 0.875em;
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 0.5rem var(--_gap);
  }
  .counter {
    margin: 0;
    color: var(--_muted);
  }
  button[aria-disabled='true'] {
    cursor: progress;
    opacity: 0.6;
  }
  /* The plan-check hint sits beside the send button where there is room, so the form keeps its height when it goes. */
  .send {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem var(--_gap);
  }
  .send .hint {
    flex: 1 1 10rem;
  }
  .sent-to {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem var(--_gap);
  }
  .sent-to p {
    margin: 0;
    flex: 1 1 16rem;
  }
  /* "Cancel sending" sits beside what it cancels, not across the card. */
  .cancel {
    justify-self: start;
  }
`;
