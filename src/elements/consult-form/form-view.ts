/**
 * What `<consult-form>` shows, as views: the form (the note linking to a question just sent and the
 * notifications offer under it, the emergency notice, the questions, how many are used and left, a
 * send error, the send button with what it waits for), a sign-in or plan check that failed, a
 * refusal of the member's plan or account, and a question sent and shown here.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { repeat } from 'lit/directives/repeat.js';
import { MAX_QUESTIONS_PER_CONSULTATION } from '../../client/types.js';
import { errorNotice } from '../shared/error-notice.js';
import { translate, type LocalizeController } from '../shared/localize.js';
import type { Question } from './questions.js';

export interface FormView {
  localize: LocalizeController<'form'>;
  questions: readonly Question[];
  /** Sending: nothing can be added. */
  busy: boolean;
  /** The member's plan is being checked: the form can be typed in but not sent yet. */
  checking: boolean;
  /** Sent, and opened in the page's list: a note links to it. */
  sentTo: boolean;
  /** Under that note: the offer to be told on this device when a doctor answers. */
  pushOffer: TemplateResult | typeof nothing;
  sendError?: 'failed' | 'network';
  /** "Send", "Sending…" or "Waiting to send". */
  submitLabel: string;
  /** "Cancel sending", while a send waits for the connection. */
  cancelSend: TemplateResult | typeof nothing;
  question(question: Question, index: number): TemplateResult;
  onSubmit(event: Event): void;
  onAdd(): void;
  onRetry(): void;
  onOpenSent(): void;
}

export function questionForm(view: FormView): TemplateResult {
  const { localize, questions, busy, checking } = view;
  const max = MAX_QUESTIONS_PER_CONSULTATION;
  const count = questions.length;
  const left = max - count;
  return html`<form part="form" novalidate aria-label=${localize.t('formLabel')} @submit=${view.onSubmit}>
    ${
      view.sentTo
        ? html`<div part="notice" class="notice success sent-to">
              <p>${localize.t('sentListed')}</p>
              <button type="button" class="link" @click=${view.onOpenSent}>${localize.t('openSent')}</button>
            </div>
            ${view.pushOffer}`
        : nothing
    }
    <div part="emergency" class="notice warning emergency" role="note">
      <slot name="emergency">${localize.t('emergency')}</slot>
    </div>
    ${repeat(questions, (q) => q.id, view.question)}
    <div class="row">
      <p part="counter" class="counter" aria-live="polite">
        ${localize.t('counter', { count, max })} ·
        ${left === 0 ? localize.t('noneLeft') : localize.t('moreLeft', { count: left })}
      </p>
      ${
        left > 0
          ? html`<button part="add-button" type="button" ?disabled=${busy} @click=${view.onAdd}>
              ${localize.t('addQuestion')}
            </button>`
          : nothing
      }
    </div>
    ${
      view.sendError
        ? errorNotice(
            localize.t(view.sendError === 'network' ? 'sendFailedNetwork' : 'sendFailed'),
            localize.t('retry'),
            view.onRetry,
          )
        : nothing
    }
    <div class="send">
      <button
        part="submit-button"
        class="primary submit"
        type="submit"
        aria-disabled=${busy || checking ? 'true' : 'false'}
        aria-describedby=${ifDefined(checking ? 'checking' : undefined)}
      >
        ${view.submitLabel}
      </button>
      ${checking ? html`<p id="checking" part="hint" class="hint">${localize.t('checking')}</p>` : nothing}
    </div>
    ${view.cancelSend}
  </form>`;
}

/** Signing in or the plan check failed (`signedIn`: the check), named, with "Try again". */
export function loadError(
  localize: LocalizeController<'form'>,
  signedIn: boolean,
  onRetry: () => void,
): TemplateResult {
  const text = signedIn ? localize.t('loadFailed') : translate(localize.language, 'session', 'signInFailed');
  return errorNotice(text, localize.t('retry'), onRetry);
}

/** The member cannot ask: no plan, or an account that is not active; the partner's slot explains. */
export function refusalNotice(
  kind: 'no-subscription' | 'inactive',
  localize: LocalizeController<'form'>,
): TemplateResult {
  const [title, text] =
    kind === 'inactive'
      ? [localize.t('inactiveTitle'), localize.t('inactive')]
      : [localize.t('noSubscriptionTitle'), localize.t('noSubscription')];
  return html`<div part="notice" class="notice warning" tabindex="-1">
    <p class="title">${title}</p>
    <slot name=${kind}><p>${text}</p></slot>
  </div>`;
}

/** What the "sent" view shows: its thread (or the notice that it could not load), and whether answered. */
interface SentHere {
  answered: boolean;
  thread?: HTMLElement | TemplateResult;
  onAskAnother(): void;
}

/**
 * A question sent and shown here, where the page has no list to open it in: "Sent" until the
 * answer is there (then the answer speaks for itself), its thread, and "Ask another question".
 */
export function sentHere(
  localize: LocalizeController<'form'>,
  { answered, thread, onAskAnother }: SentHere,
): TemplateResult {
  return html`${
      answered
        ? nothing
        : html`<p part="notice" id="sent" class="notice success" tabindex="-1">${localize.t('sent')}</p>`
    }
    ${thread}
    <button type="button" class="ask-another" @click=${onAskAnother}>${localize.t('askAnother')}</button>`;
}

/** Points the sent question's thread at it, with the form's endpoint, language and session. */
export function configureThread<T extends HTMLElement & { session?: unknown }>(
  thread: T,
  consultationId: string,
  endpoint: string | undefined,
  language: string,
  session: T['session'],
): T {
  thread.setAttribute('consultation-id', consultationId);
  if (endpoint) thread.setAttribute('endpoint', endpoint);
  else thread.removeAttribute('endpoint');
  thread.setAttribute('lang', language);
  thread.session = session;
  return thread;
}
