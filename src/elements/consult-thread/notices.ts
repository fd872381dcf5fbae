/**
 * What `<consult-thread>` shows in place of the consultation: a skeleton while it loads, why it
 * could not be read, or that there is none to show.
 */
import { html, type TemplateResult } from 'lit';
import { ApiError } from '../../client/errors.js';
import { errorNotice } from '../shared/error-notice.js';
import type { LocalizeController } from '../shared/localize.js';

/** A question and an answer, shaped like the thread to come; the words are for assistive technology. */
export function loadingThread(words: string): TemplateResult {
  return html`<div class="loading">
    <p class="visually-hidden">${words}</p>
    <div class="thread" aria-hidden="true">
      <div class="item">
        <span class="skeleton narrow"></span>
        <span class="skeleton"></span>
        <div class="placeholder">
          <span class="skeleton narrow"></span><span class="skeleton"></span><span class="skeleton"></span
          ><span class="skeleton short"></span>
        </div>
      </div>
    </div>
  </div>`;
}

/** The consultation could not be read (its load's status is `error`), or no consultation is set. */
export function missingThread(
  load: { status: string; error?: unknown },
  localize: LocalizeController<'thread'>,
  retry: () => void,
): TemplateResult {
  if (load.status !== 'error') return html`<p part="notice" class="notice">${localize.t('none')}</p>`;
  const { error } = load;
  // A consultation that does not exist will not appear by trying again: say so, with no retry.
  return error instanceof ApiError && error.status === 404
    ? html`<div part="notice" class="notice info" role="alert" tabindex="-1">
        <p>${localize.t('notFound')}</p>
      </div>`
    : errorNotice(localize.t('loadFailed'), localize.t('retry'), retry);
}
