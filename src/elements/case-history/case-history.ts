import { html, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { ConsultationView } from '../../client/browser-types.js';
import { ConsultThread } from '../consult-thread/consult-thread.js';
import { errorNotice } from '../shared/error-notice.js';
import { prepareTimes } from '../shared/message-time.js';
import { SessionElement } from '../shared/session-element.js';
import { FocusController } from '../shared/focus.js';
import { addEnglish, LocalizeController } from '../shared/localize.js';
import { statusStyles } from '../shared/status.js';
import { PlaceController } from '../shared/place.js';
import { NearEndController } from './near-end.js';
import { AnswerAnnouncer } from './answer-announcer.js';
import { loadingRows } from './row.js';
import { consultationList, rowForKey } from './list.js';
import { forgetOpen, openBeforeReload, rememberOpen } from './reopen.js';
import { styles } from './case-history.styles.js';
import { history } from '../translations/en-history.js';

// This element's English comes with its code, not with the loader.
addEnglish({ history });

/**
 * @tagname case-history
 * @summary The member's consultations, newest first, as an inbox: unseen answers marked, the
 * latest message of each with who sent it and when, its status and the questions used.
 * Opening one shows its `<consult-thread>` (registered with it). Rows update live, a question sent
 * from a `<consult-form>` of the same session is listed at once, and long histories render in chunks.
 * Each row is named shortly for screen readers (unread, who, status, when), its subject and questions
 * used as its description; Escape in an open consultation returns to the list, focus on its row; the
 * consultation open is reopened after a reload.
 *
 * @slot empty - Shown instead of the default notice when the member has no consultations yet.
 *
 * @event consult-error - Loading failed (`{ code, status, operation }`).
 * @event consult-answered - From the opened `<consult-thread>`: a question there received its answer.
 * @event consult-followup - From the opened `<consult-thread>`: the member asked a follow-up question.
 *
 * @csspart base - The wrapper of everything.
 * @csspart list - The list of consultations.
 * @csspart item - One consultation's row (a button).
 * @csspart unread - How many answers the member has not seen yet, above the list, and each row's "New answer" mark.
 * @csspart status - A row's status chip.
 * @csspart preview - A row's preview of the latest message (two lines at most), with who sent it.
 * @csspart empty - The empty state.
 * @csspart more-button - "Show more", which renders the next chunk of rows.
 * @csspart back-button - "Back to all consultations", shown with an opened consultation.
 * @csspart notice - Load errors.
 * @csspart retry-button - "Try again" in an error notice.
 *
 * @cssprop --consult-history-gap - Space between the rows.
 * @cssprop --consult-history-title-lines - Lines of the first question shown in a row (default 2).
 */
export class CaseHistory extends SessionElement {
  static override styles = [...SessionElement.styles, statusStyles, styles];
  static override dependencies = { 'consult-thread': ConsultThread };

  /** The id of the consultation shown opened (attribute `open`, for deep links); unset shows the list. */
  @property({ attribute: 'open' }) selected?: string;

  /**
   * How many rows are rendered at a time (about two screens); the next ones follow as the member
   * scrolls, before the end is reached, or on "Show more".
   */
  // Each row costs about a millisecond of style and layout on a laptop (several on a phone)
  // before the list can first paint: a long history's first rows come as fast as a short one's.
  @property({ attribute: 'chunk-size', type: Number }) chunkSize = 20;

  static override watchesConsultations = true;
  /** The case open is the member's: it closes when they go. */
  static override memberProperties = ['selected'];

  @state() private shown = 0;
  @state() private activeIndex = 0;

  private readonly localize = new LocalizeController(this, 'history');
  readonly #focus = new FocusController(this);

  /** The member's consultations, newest first: the member state's, shared by every view of the page. */
  get consultations(): ConsultationView[] {
    return this.member.current ? (this.memberState?.consultations ?? []) : [];
  }

  /** Where the list is: loading until the member is known and their list read. */
  get #listStatus(): { status: 'idle' | 'loading' | 'ready' | 'error'; error?: unknown } {
    const state = this.memberState;
    const signIn = this.member.signInStatus;
    if (!state || signIn !== 'ready') return { status: signIn };
    const { status, error } = state.historyStatus;
    return { status: status === 'idle' ? 'loading' : status, error };
  }

  get #loaded(): boolean {
    return this.#listStatus.status === 'ready';
  }

  /**
   * The list as this element last showed it, the member's: the ids listed at the last update (a
   * consultation new since then may need a row rendered), the case to return to, the open case's thread.
   */
  readonly #view = this.member.keep(
    (): {
      listed?: Set<string>;
      returnTo?: string;
      thread?: { id: string; element: ConsultThread };
      /** The consultation open before a reload was looked for. */
      reopened?: boolean;
    } => ({}),
  );
  /** Answers are announced while the list shows. */
  protected readonly answers = new AnswerAnnouncer(
    this,
    () => this.localize.language,
    (words) => this.announce(words),
  );
  /** The session's placement shows consultations here: one sent from a form of the page opens in this list. */
  protected readonly place = new PlaceController(
    this,
    () => this.memberState?.placement,
    (placement) =>
      placement.addList({
        showConsultation: (id, { focus }) => this.#show(id, focus),
        showing: () => this.selected,
      }),
  );

  /** Renders the next chunk when the end of the list scrolls near. */
  protected readonly nearEnd = new NearEndController(this, () => this.#renderMore());

  /** The placement shows a consultation here (a question just sent): it opens, its heading focused. */
  #show(consultationId: string, focus: boolean): boolean {
    if (!this.isConnected) return false;
    this.#view.returnTo = consultationId;
    this.selected = consultationId;
    if (focus) {
      void this.updateComplete.then(() => {
        this.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
        this.#view.thread?.element.focusHeading();
      });
    }
    return true;
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    const state = this.isConnected ? this.memberState : undefined;
    // Rows show dates: the browser's date data loads while the page waits for sign-in and the list.
    prepareTimes(this.localize.format);
    if (!this.member.current) this.member.signInIfIdle();
    else if (state && state.historyStatus.status === 'idle') {
      state.loadHistory().catch((error: unknown) => this.reportError(error, 'getCaseHistory'));
    }
    this.#fitShown();
    this.#reopen();
  }

  /**
   * After a reload, the consultation that was open opens again, once the list shows it is the
   * member's.
   */
  #reopen(): void {
    const member = this.member.current;
    if (!member || !this.#loaded || this.#view.reopened) return;
    this.#view.reopened = true;
    if (this.selected) {
      // A deep link opened one: that is the one a reload reopens.
      rememberOpen(member.id, this.selected);
      return;
    }
    const id = openBeforeReload(member.id);
    if (id === undefined) return;
    if (!this.consultations.some((c) => c.consultationId === id)) return;
    this.#view.returnTo = id;
    this.selected = id;
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    if (changed.has('selected')) this.memberState?.placement.shownChanged();
    const member = this.member.current;
    if (!changed.has('selected') || !member || !this.#view.reopened) return;
    if (this.selected) rememberOpen(member.id, this.selected);
    else forgetOpen(member.id);
  }

  /** Rows for consultations new since the last update are rendered where they land. */
  #fitShown(): void {
    if (!this.#loaded) return;
    const list = this.consultations;
    const listed = this.#view.listed;
    if (!listed) {
      this.shown = Math.min(list.length, Math.max(this.shown, this.#chunk));
    } else {
      const everything = this.shown >= listed.size;
      list.forEach((c, at) => {
        if (listed.has(c.consultationId)) return;
        if (at < this.shown || everything) this.shown++;
        if (at <= this.activeIndex && listed.size > 0) this.activeIndex++;
      });
      this.shown = Math.min(this.shown, list.length);
    }
    this.activeIndex = Math.min(this.activeIndex, Math.max(0, this.shown - 1));
    this.#view.listed = new Set(list.map((c) => c.consultationId));
  }

  #retry = (): void => {
    // After "try again" the button is gone: focus goes to what replaced it, unless the member moved on.
    this.#focus.whenSettled(
      () => this.#listStatus.status !== 'loading',
      () =>
        this.#rows()[this.activeIndex] ??
        this.renderRoot.querySelector<HTMLElement>('[part~="notice"][tabindex], [part~="empty"]'),
    );
    this.reload();
  };

  /** Loads the list again, for example after an error. */
  reload(): void {
    if (!this.member.current) void this.activeSession?.retry().catch(() => undefined);
    if (!this.member.current) return;
    this.memberState
      ?.loadHistory({ fresh: true })
      .catch((error: unknown) => this.reportError(error, 'getCaseHistory'));
  }

  get #chunk(): number {
    return Math.max(1, Math.floor(this.chunkSize) || 50);
  }

  #renderMore(): void {
    this.shown = Math.min(this.consultations.length, this.shown + this.#chunk);
  }

  #rows(): HTMLButtonElement[] {
    return [...this.renderRoot.querySelectorAll<HTMLButtonElement>('[part~=item]')];
  }

  #focusRow(index: number): void {
    this.activeIndex = index;
    this.#focus.next(() => this.#rows()[index]);
  }

  #onShowMore = (): void => {
    const first = this.shown;
    this.#renderMore();
    this.#focusRow(first);
  };

  /** Roving focus: one Tab stop for the list, arrows, Home and End within it. */
  #onListKeydown = (event: KeyboardEvent): void => {
    const current = this.#rows().indexOf(event.target as HTMLButtonElement);
    if (current < 0) return;
    const next = rowForKey(event.key, current, this.shown);
    if (next === undefined) return;
    // ArrowDown on the last rendered row renders the next chunk first.
    if (event.key === 'ArrowDown' && current === this.shown - 1 && this.shown < this.consultations.length)
      this.#renderMore();
    event.preventDefault();
    this.#focusRow(Math.max(0, Math.min(next, this.shown - 1)));
  };

  #onListFocusin = (event: FocusEvent): void => {
    const index = this.#rows().indexOf(event.target as HTMLButtonElement);
    if (index >= 0 && index !== this.activeIndex) this.activeIndex = index;
  };

  #open(consultation: ConsultationView): void {
    this.#view.returnTo = consultation.consultationId;
    this.selected = consultation.consultationId;
    this.#focus.next('[part~=back-button]');
  }

  #back = (): void => {
    const id = this.#view.returnTo ?? this.selected;
    this.selected = undefined;
    this.#view.returnTo = undefined;
    const index = this.consultations.findIndex((c) => c.consultationId === id);
    if (index >= 0) {
      this.shown = Math.max(this.shown, index + 1);
      this.#focusRow(index);
    } else {
      this.#focus.next(() => this.#rows()[this.activeIndex]);
    }
  };

  protected override render() {
    const busy = !this.selected && this.#listStatus.status === 'loading';
    return html`<div
      part="base"
      class="base"
      lang=${this.localize.language}
      dir=${this.localize.dir}
      aria-busy=${busy ? 'true' : 'false'}
    >
      ${this.selected ? this.#renderOpened(this.selected) : this.#renderList()} ${this.renderAnnouncement()}
    </div>`;
  }

  /**
   * Escape in an open consultation goes back to the list, as in a messenger, focus on its row;
   * not while an input method composes, nor when something inside used the key already.
   */
  #onOpenedKeydown = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape' || event.isComposing || event.defaultPrevented) return;
    event.preventDefault();
    this.#back();
  };

  #renderOpened(id: string): TemplateResult {
    return html`<div class="opened" @keydown=${this.#onOpenedKeydown}>
      <button part="back-button" class="back" type="button" @click=${this.#back}>
        ${this.localize.t('back')}
      </button>
      ${this.#threadFor(id)}
    </div>`;
  }

  /**
   * The thread of `id`, under the name ConsultThread is registered as (see `dependencies`). It
   * shows the member state's record, the one this list shows, so there is one copy of it.
   */
  #threadFor(id: string): ConsultThread {
    if (this.#view.thread?.id !== id) {
      const element = CaseHistory.createDependency<ConsultThread>(ConsultThread, 'consult-thread');
      this.#view.thread = { id, element };
    }
    const { element } = this.#view.thread;
    element.setAttribute('consultation-id', id);
    element.setAttribute('lang', this.localize.language);
    element.session = this.activeSession;
    return element;
  }

  #renderList(): TemplateResult {
    const { localize } = this;
    if (this.#listStatus.status === 'error') {
      return errorNotice(localize.t('loadFailed'), localize.t('retry'), this.#retry);
    }
    if (!this.#loaded) {
      return loadingRows(localize);
    }
    if (this.consultations.length === 0) {
      return html`<div part="empty" class="empty" tabindex="-1">
        <slot name="empty"><p class="notice">${localize.t('empty')}</p></slot>
      </div>`;
    }
    return consultationList({
      localize,
      consultations: this.consultations,
      shown: this.shown,
      activeIndex: this.activeIndex,
      state: this.memberState,
      onKeydown: this.#onListKeydown,
      onFocusin: this.#onListFocusin,
      onOpen: (consultation) => this.#open(consultation),
      onShowMore: this.#onShowMore,
    });
  }
}
