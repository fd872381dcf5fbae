import { css } from 'lit';

export const styles = css`
  :host {
    --_gap: var(--consult-thread-gap, var(--_space));
    --_answer-background: var(--consult-thread-answer-background, var(--_surface-raised));
    --_question-tint: color-mix(in srgb, var(--_primary) 10%, var(--_surface));
    --_question-background: var(--consult-thread-question-background, var(--_question-tint));
  }
  .base {
    display: grid;
    gap: var(--_gap);
  }
  p {
    margin: 0;
  }
  .header {
    display: grid;
    gap: 0.25rem;
  }
  .header h3 {
    margin: 0;
    font-size: 1.125rem;
    font-weight: 700;
    line-height: 1.5rem;
    overflow-wrap: anywhere;
  }
  .status {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.25rem 0.5rem;
  }
  .status-line {
    font-weight: 600;
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
    gap: 0.75rem;
  }
  /* Grid children may shrink below their content, so long content wraps or scrolls inside. */
  .base > *,
  .thread > *,
  .item > *,
  .bubble > * {
    min-inline-size: 0;
  }
  .day {
    display: flex;
    align-items: center;
    gap: 0.75rem;
    color: var(--_muted);
    font-size: 0.8125em;
  }
  .day::before,
  .day::after {
    content: '';
    flex: 1;
    border-block-start: 1px solid var(--_border);
  }
  .message {
    display: grid;
    gap: 0.375rem;
    max-inline-size: min(100%, 40rem);
  }
  /* The member's own messages on the inline-end side, as in a messenger. */
  .mine {
    justify-self: end;
    padding: 0.625rem 0.875rem;
    border-radius: var(--_radius);
    border-end-end-radius: 0.25rem;
    background: var(--_question-background);
  }
  .mine .text {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .theirs {
    justify-self: start;
    display: flex;
    align-items: flex-start;
    gap: 0.5rem;
  }
  .bubble {
    display: grid;
    gap: 0.625rem;
    min-inline-size: 0;
    padding: 0.625rem 0.875rem;
    border-radius: var(--_radius);
    border-start-start-radius: 0.25rem;
    background: var(--_answer-background);
  }
  .meta {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: 0.25rem 0.5rem;
    font-size: 0.875em;
    color: var(--_muted);
  }
  .meta .heading {
    margin: 0;
    font: inherit;
    font-weight: 600;
    color: var(--_text);
  }
  .who {
    display: grid;
    gap: 0.25rem;
  }
  .sender .name {
    font-weight: 600;
    color: var(--_text);
  }
  /* Name and role side by side in either direction, whatever script each is in. */
  .sender {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    column-gap: 0.375em;
  }
  .not-answered {
    color: var(--_muted);
  }
  .waiting {
    display: grid;
    gap: 0.375rem;
    padding-inline-start: 2.5rem;
    color: var(--_muted);
    font-size: 0.875em;
  }
  .steps {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 1rem;
    margin: 0;
    padding: 0;
    list-style: none;
  }
  .steps li {
    display: flex;
    align-items: center;
    gap: 0.375rem;
  }
  .steps .dot {
    inline-size: 0.625rem;
    block-size: 0.625rem;
    border-radius: 50%;
    border: 2px solid currentColor;
  }
  .steps .done {
    color: var(--_success);
  }
  .steps .done .dot,
  .steps .current .dot {
    background: currentColor;
  }
  .steps .current {
    color: var(--_text);
    font-weight: 600;
  }
  .avatar {
    flex: none;
    display: grid;
    place-items: center;
    inline-size: 2rem;
    block-size: 2rem;
    font-size: 0.8125em;
    border-radius: 50%;
    background: var(--_primary);
    color: var(--_on-primary);
    font-weight: 600;
    letter-spacing: 0.02em;
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
  .followup .actions {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 0.5rem;
  }
  .followup.ended button {
    justify-self: start;
  }
  /* On a phone the follow-up box stays within reach at the bottom of the screen in a long thread, compact. */
  @media (max-width: 40rem) {
    form.followup {
      position: sticky;
      inset-block-end: 0;
      z-index: 1;
      gap: 0.375rem;
      padding-block: 0.5rem;
      background: var(--_surface);
      box-shadow: 0 -0.5rem 0.75rem -0.75rem color-mix(in srgb, var(--_text) 40%, transparent);
    }
    form.followup label {
      font-size: 0.875em;
    }
    form.followup textarea {
      block-size: 3rem;
      min-block-size: 3rem;
    }
    form.followup .count {
      font-size: 0.8125em;
    }
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
  .placeholder {
    display: grid;
    gap: 0.5rem;
    padding: 0.75rem 1rem;
    border-radius: var(--_radius);
    background: var(--_answer-background);
  }
  /* The answer's lines, drawn in the page's colour on the answer's own. */
  .placeholder .skeleton {
    background: var(--_surface);
  }
  .notice button {
    margin-block-start: 0.75rem;
  }
  button[aria-disabled='true'] {
    cursor: progress;
    opacity: 0.6;
  }
  /* "Cancel sending" sits beside what it cancels, not across the card. */
  .cancel {
    justify-self: start;
  }
`;
