/**
 * The top of `<consult-thread>`: the consultation's subject (its first question, shortened) as its
 * heading, as a messenger titles a conversation, and where it stands, in words, beside it.
 */
import { html, type TemplateResult } from 'lit';
import type { ConsultationView } from '../../client/browser-types.js';
import { translate, type LocalizeController } from '../shared/localize.js';
import { shorten } from '../shared/shorten.js';
import { statusBadge } from '../shared/status.js';
import { statusLine } from './messages.js';

/** How long the thread's heading, its first question, may be. */
const SUBJECT_CHARACTERS = 80;

export function threadHeading(c: ConsultationView, localize: LocalizeController<'thread'>): TemplateResult {
  // Its status stays on screen beside it, but is not what the member lands on (`#heading`).
  return html`<div class="header">
    <h3 id="heading" class="subject" tabindex="-1" dir="auto">
      ${shorten(c.questions[0]?.question ?? '', SUBJECT_CHARACTERS) || translate(localize.language, 'history', 'untitled')}
    </h3>
    <p class="status">
      ${statusBadge(c.status, localize.language)}<span class="status-line">${statusLine(c, localize)}</span>
    </p>
  </div>`;
}
