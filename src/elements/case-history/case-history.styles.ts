import { css } from 'lit';

export const styles = css`
  :host {
    --_gap: var(--consult-history-gap, 0.5rem);
    --_title-lines: var(--consult-history-title-lines, 2);
  }
  .base {
    display: grid;
    gap: var(--_space);
  }
  p {
    margin: 0;
  }
  .list {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: var(--_gap);
  }
  /* The row is the card; its button is the first line, and covers the whole row for the pointer. */
  .row {
    position: relative;
    display: grid;
    gap: 0.375rem;
    padding-block: 0.75rem;
    padding-inline: 1rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    min-inline-size: 0;
  }
  .row:hover {
    background: var(--_surface-raised);
  }
  .row:has(> .item:focus-visible) {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
  }
  .item {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.25rem 0.75rem;
    min-block-size: 0;
    padding: 0;
    border: 0;
    background: none;
    text-align: start;
    color: var(--_muted);
  }
  .item time {
    font-size: 0.875em;
  }
  .item::after {
    content: '';
    position: absolute;
    inset: 0;
    border-radius: var(--_radius);
  }
  .item:focus-visible {
    outline: none;
  }
  .who {
    font-weight: 600;
    color: var(--_text);
    overflow-wrap: anywhere;
  }
  .count {
    color: var(--_muted);
    font-size: 0.875em;
  }
  .title {
    display: -webkit-box;
    -webkit-box-orient: vertical;
    -webkit-line-clamp: var(--_title-lines);
    line-clamp: var(--_title-lines);
    overflow: hidden;
    overflow-wrap: anywhere;
    font-weight: 600;
  }
  /*
   * The latest message in up to two lines, its sender first: on a narrow screen (and in the longer
   * words of some languages) one line would leave a word or two.
   */
  .preview {
    display: -webkit-box;
    -webkit-box-orient: vertical;
    -webkit-line-clamp: 2;
    line-clamp: 2;
    overflow: hidden;
    overflow-wrap: anywhere;
    min-inline-size: 0;
    color: var(--_muted);
  }
  .preview .from {
    color: var(--_text);
  }
  .more {
    display: grid;
    justify-items: center;
  }
  .sentinel {
    display: block;
    block-size: 1px;
    inline-size: 100%;
  }
  .opened {
    display: grid;
    gap: var(--_space);
    min-inline-size: 0;
  }
  .opened > * {
    min-inline-size: 0;
  }
  .back {
    justify-self: start;
  }
  .row.placeholder:hover {
    background: var(--_surface);
  }
  /* Nothing of the stand-in words shows, not even the ellipsis of a clamped title. */
  .placeholder .title {
    color: transparent;
  }
  .placeholder .badge {
    border-color: transparent;
    background: var(--_surface-raised);
  }
  .notice button {
    margin-block-start: 0.75rem;
  }
  .unread-count {
    margin: 0 0 0.5rem;
    font-weight: 600;
    color: var(--_primary);
  }
  .new {
    display: inline-flex;
    align-items: center;
    gap: 0.4rem;
    font-size: 0.875em;
    font-weight: 600;
    color: var(--_primary);
  }
  .dot {
    inline-size: 0.5rem;
    block-size: 0.5rem;
    border-radius: 50%;
    background: currentColor;
  }
  .row.unread .title {
    font-weight: 700;
  }
`;
