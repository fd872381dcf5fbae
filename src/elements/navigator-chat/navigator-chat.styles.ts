import { css } from 'lit';

export const styles = css`
  :host {
    --_max-height: var(--consult-chat-max-height, 28rem);
    --_bubble-padding: 0.625rem 0.875rem;
    container-type: inline-size;
  }
  [part='base'] {
    display: flex;
    flex-direction: column;
    gap: calc(var(--_space) * 0.75);
  }
  .welcome p {
    margin-block: 0 0.5rem;
  }
  .suggestions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    margin: 0;
    padding: 0;
    list-style: none;
  }
  .suggestions button {
    border-radius: 999px;
    text-align: start;
  }
  [part='log'] {
    display: flex;
    flex-direction: column;
    gap: 0.75rem;
    max-block-size: var(--_max-height);
    overflow-y: auto;
    overscroll-behavior: contain;
  }
  /* A cue above the log, in its own row: it never covers a message. */
  .older {
    margin: 0;
    display: flex;
    justify-content: center;
  }
  .older[hidden] {
    display: flex;
    visibility: hidden;
  }
  .older span {
    padding: 0.125rem 0.75rem;
    border-radius: 999px;
    background: var(--_surface-raised);
    border: 1px solid var(--_border);
    color: var(--_muted);
    font-size: 0.8125em;
  }
  /* Bubbles: the member's in the primary colour at the end, the navigator's neutral at the start. */
  .message {
    max-inline-size: min(85%, 40rem);
    padding: var(--_bubble-padding);
    border-radius: calc(var(--_radius) * 2);
    border: 1px solid transparent;
    background: var(--_surface-raised);
  }
  .message.grouped {
    margin-block-start: -0.5rem;
  }
  .message.member {
    align-self: flex-end;
    background: var(--_primary);
    color: var(--_on-primary);
    border-end-end-radius: 0.25rem;
  }
  .message.member .meta,
  .message.member .sender,
  .message.member .state {
    color: inherit;
  }
  .message.member .meta {
    opacity: 0.85;
  }
  .message.navigator {
    align-self: flex-start;
    border-color: var(--_border);
    border-end-start-radius: 0.25rem;
  }
  .message.urgent {
    border-color: var(--_danger);
    border-inline-start-width: 4px;
  }
  .message.failed {
    background: var(--_surface);
    color: var(--_text);
    border-color: var(--_danger);
    border-style: dashed;
  }
  /* The host is the container: only what is inside it can answer to its width. */
  @container (max-width: 30rem) {
    [part='base'] {
      --_bubble-padding: 0.5rem 0.625rem;
    }
    .message {
      max-inline-size: 92%;
    }
  }
  .meta {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    margin-block-end: 0.25rem;
    font-size: 0.875em;
    color: var(--_muted);
  }
  .sender {
    font-weight: 600;
    color: var(--_text);
  }
  .text {
    margin: 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  /* The number to call, large enough to tap at once. */
  .call {
    display: block;
    margin-block: 0.5rem;
    padding: 0.75rem 1rem;
    border-radius: var(--_radius);
    background: var(--_danger);
    color: light-dark(#ffffff, #410002);
    font-size: 1.125em;
    font-weight: 700;
    text-align: center;
    text-decoration: none;
  }
  p.call {
    font-size: 1em;
  }
  .urgent-label {
    margin-block: 0 0.5rem;
    color: var(--_danger);
    font-weight: 600;
  }
  .state {
    margin-block: 0.25rem 0;
    font-size: 0.875em;
    color: var(--_muted);
  }
  .state.error {
    color: var(--_danger);
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem;
  }
  .actions {
    margin-block-start: 0.5rem;
  }
  .hint {
    margin-block: 0.5rem 0;
    font-size: 0.875em;
  }
  .typing {
    display: inline-flex;
    align-items: center;
    gap: 0.5rem;
    color: var(--_muted);
    font-size: 0.875em;
  }
  .dots {
    display: inline-flex;
    gap: 0.2rem;
  }
  .dots span {
    inline-size: 0.4rem;
    block-size: 0.4rem;
    border-radius: 50%;
    background: currentColor;
    animation: bounce 1.2s infinite ease-in-out;
  }
  .dots span:nth-child(2) {
    animation-delay: 0.15s;
  }
  .dots span:nth-child(3) {
    animation-delay: 0.3s;
  }
  @keyframes bounce {
    0%,
    60%,
    100% {
      opacity: 0.3;
      transform: translateY(0);
    }
    30% {
      opacity: 1;
      transform: translateY(-0.2rem);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .dots span {
      animation: none;
      opacity: 0.6;
    }
  }
  [part='composer'] {
    display: grid;
    grid-template-columns: 1fr auto;
    gap: 0.5rem;
    align-items: end;
  }
  [part='input'] {
    resize: vertical;
    min-block-size: 2.75rem;
  }
  /* "Cancel sending" under the button it cancels. */
  [part='composer'] .cancel {
    grid-column: 1 / -1;
    justify-self: end;
  }
  .composer-notes {
    grid-column: 1 / -1;
    display: flex;
    flex-wrap: wrap;
    justify-content: space-between;
    gap: 0.25rem 1rem;
    font-size: 0.875em;
    color: var(--_muted);
  }
  .composer-notes p {
    margin: 0;
  }
  .composer-notes .error {
    color: var(--_danger);
  }
  button[aria-disabled='true'] {
    cursor: not-allowed;
    opacity: 0.6;
  }
  .notice p {
    margin-block: 0 0.75rem;
  }
  .notice p:last-child {
    margin-block-end: 0;
  }
`;
