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
  .item {
    display: grid;
    gap: 0.375rem;
    inline-size: 100%;
    text-align: start;
    padding-block: 0.75rem;
    padding-inline: 1rem;
    background: var(--_surface);
  }
  .item:hover {
    background: var(--_surface-raised);
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
  .preview {
    display: flex;
    gap: 0.25rem;
    min-inline-size: 0;
    color: var(--_muted);
  }
  .preview .from {
    flex: none;
    color: var(--_text);
  }
  .preview .text {
    overflow: hidden;
    white-space: nowrap;
    text-overflow: ellipsis;
  }
  .meta {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.25rem 1rem;
    color: var(--_muted);
    font-size: 0.875em;
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
  .back {
    justify-self: start;
  }
  .placeholder {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  /* Nothing of the stand-in words shows, not even the ellipsis of a clamped title. */
  .placeholder :is(.title, .badge) {
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
  .item.unread .title {
    font-weight: 700;
  }
`;
