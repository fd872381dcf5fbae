import { initialState, Task, TaskStatus } from '@lit/task';
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import { MAX_QUESTIONS_PER_CONSULTATION } from '../../client/types.js';
import type { ConsultationView } from '../../client/browser-types.js';
import { ConsultThread } from '../consult-thread/consult-thread.js';
import { SessionElement } from '../shared/consult-element.js';
import { isOlder } from '../shared/consultations.js';
import { FocusController } from '../shared/focus.js';
import { LiveUpdatesController } from '../shared/live-updates.js';
import { LocalizeController } from '../shared/localize.js';
import type { SessionManager } from '../../session/session.js';
import { statusBadge, statusStyles } from '../shared/status.js';
import { styles } from './case-history.styles.js';

/** Cases a professional may still answer: these are polled while the live stream is down. */
const isActive = (c: ConsultationView) => c.status === 'open' || c.status === 'claimed';
/** At most this many cases are re-read per poll, the newest first. */
const MAX_POLLED = 20;

const time = (iso: string) => {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? -Infinity : ms;
};
const newestFirst = (list: ConsultationView[]) =>
  [...list].sort((a, b) => time(b.createdAt) - time(a.createdAt));

/**
 * @tagname case-history
 * @summary The member's consultations, newest first, with status, date and questions used.
 * Opening one shows its `<consult-thread>` (registered with it). Rows update live, a question sent
 * from a `<consult-form>` of the same session is listed at once, and long histories render in chunks.
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
 * @csspart status - A row's status badge.
 * @csspart empty - The empty state.
 * @csspart more-button - "Show more", which renders the next chunk of rows.
 * @csspart back-button - "Back to all consultations", shown with an opened consultation.
 * @csspart notice - Load errors.
 *
 * @cssprop --consult-history-gap - Space between the rows.
 * @cssprop --consult-history-title-lines - Lines of the first question shown in a row (default 2).
 */
export class CaseHistory extends SessionElement {
  static override styles = [...SessionElement.styles, statusStyles, styles];
  static override dependencies = { 'consult-thread': ConsultThread };

  /** The id of the consultation shown opened (attribute `open`, for deep links); unset shows the list. */
  @property({ attribute: 'open' }) selected?: string;

  /** Milliseconds between checks of unanswered cases while the live stream is down. */
  @property({ attribute: 'poll-interval', type: Number }) pollInterval = 30_000;

  /** How many rows are rendered at a time; the next ones follow on scrolling or "Show more". */
  @property({ attribute: 'chunk-size', type: Number }) chunkSize = 50;

  @state() private consultations: ConsultationView[] = [];
  @state() private shown = 0;
  @state() private activeIndex = 0;
  @state() private announcement = '';

  private readonly localize = new LocalizeController(this, 'history');
  readonly #focus = new FocusController(this);

  /** The member's list: loads for each session and member, aborts when they change. */
  readonly #list = new Task(this, {
    args: () => [this.activeSession, this.user?.id] as const,
    task: async ([session, userId], { signal }) => {
      if (!session)
        throw new Error('case-history has no session: place it in <consult-session> or set endpoint.');
      try {
        if (!userId) {
          // Signing in sets the member, which runs this task again for them.
          await session.ready();
          return initialState;
        }
        const list = await session.client.getCaseHistory(userId, { signal });
        signal.throwIfAborted();
        this.consultations = newestFirst(list);
        this.shown = Math.min(this.consultations.length, Math.max(this.shown, this.#chunk));
        this.activeIndex = Math.min(this.activeIndex, Math.max(0, this.shown - 1));
        return this.consultations.length;
      } catch (error) {
        if (signal.aborted) return initialState;
        throw error;
      }
    },
    onError: (error) => this.reportError(error, 'getCaseHistory'),
  });

  get #loaded(): boolean {
    return this.#list.status === TaskStatus.COMPLETE;
  }

  readonly #live = new LiveUpdatesController(this, {
    onUpdate: (update) => {
      if (this.#loaded) this.#upsert(update.consultation, update.type !== 'created');
    },
    poll: async (session, signal) => {
      const due = this.consultations.filter(isActive).slice(0, MAX_POLLED);
      await Promise.allSettled(
        due.map(async (c) => {
          const next = await session.client.getConsultation(c.consultationId, { signal });
          if (!signal.aborted) this.#upsert(next, true);
        }),
      );
    },
    shouldPoll: () => this.#loaded && this.consultations.some(isActive),
    interval: () => this.pollInterval,
  });

  #openedWith?: ConsultationView;
  #returnTo?: string;
  /** The opened consultation's thread, kept while the same one stays open. */
  #thread?: { id: string; element: ConsultThread };
  #observer?: IntersectionObserver;
  #observed?: Element;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#observer?.disconnect();
    this.#observed = undefined;
  }

  protected override sessionChanged(session: SessionManager | undefined): void {
    this.#live.setSession(session);
  }

  /** Nothing of the previous member stays: their list, the case open, what was announced. */
  protected override memberChanged(): void {
    this.#list.abort();
    this.consultations = [];
    this.selected = undefined;
    this.#openedWith = undefined;
    this.#returnTo = undefined;
    this.#thread = undefined;
    this.shown = 0;
    this.activeIndex = 0;
    this.announcement = '';
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (changed.has('selected') && this.selected && this.#openedWith?.consultationId !== this.selected) {
      this.#openedWith = this.consultations.find((c) => c.consultationId === this.selected);
    }
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    this.#observeSentinel();
  }

  #retry = (): void => {
    // After "try again" the button is gone: focus goes to what replaced it, unless the member moved on.
    this.#focus.whenSettled(
      () => this.#list.status !== TaskStatus.PENDING,
      () =>
        this.#rows()[this.activeIndex] ??
        this.renderRoot.querySelector<HTMLElement>('[part~="notice"][tabindex], [part~="empty"]'),
    );
    this.reload();
  };

  /** Loads the list again, for example after an error. */
  reload(): void {
    void this.#list.run();
  }

  get #chunk(): number {
    return Math.max(1, Math.floor(this.chunkSize) || 50);
  }

  /** Puts a newer record of a consultation into the list, or adds a new one. */
  #upsert(next: ConsultationView, announce: boolean): void {
    const list = this.consultations;
    const index = list.findIndex((c) => c.consultationId === next.consultationId);
    const previous = list[index];
    if (previous) {
      // A slow poll must not take back a question the member has just asked.
      if (isOlder(next, previous)) return;
      const copy = list.slice();
      copy[index] = next;
      this.consultations = copy;
      const answered = next.questions.some(
        (item, i) =>
          item.answer !== undefined && previous.questions[i] && previous.questions[i].answer === undefined,
      );
      // With a consultation open, its thread announces the answer itself.
      if (announce && answered && !this.selected) this.#announce(this.localize.t('answered'));
      return;
    }
    if (this.user && next.userId !== this.user.id) return;
    const updated = newestFirst([next, ...list]);
    const at = updated.indexOf(next);
    this.consultations = updated;
    if (at < this.shown || this.shown === list.length) this.shown++;
    if (at <= this.activeIndex && list.length > 0) this.activeIndex++;
  }

  #announce(text: string): void {
    // The same words twice in a row would not be read again: make them differ invisibly.
    this.announcement = this.announcement === text ? `${text}\u00a0` : text;
  }

  /** The opened thread changed its consultation (a follow-up, an answer): the row follows. */
  #onThreadChange = (event: Event): void => {
    const consultation = (event.currentTarget as ConsultThread).consultation;
    if (consultation && this.#loaded) this.#upsert(consultation, false);
  };

  /** Renders the next chunk when the end of the list scrolls near. */
  #observeSentinel(): void {
    const sentinel = this.renderRoot.querySelector('.sentinel') ?? undefined;
    if (sentinel === this.#observed) return;
    this.#observer?.disconnect();
    this.#observed = sentinel;
    if (!sentinel || typeof IntersectionObserver === 'undefined') return;
    this.#observer ??= new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        this.#renderMore();
        // Still in view after the chunk (a tall screen)? Observing again reports it once more.
        void this.updateComplete.then(() => {
          if (!this.#observed) return;
          this.#observer?.unobserve(this.#observed);
          this.#observer?.observe(this.#observed);
        });
      },
      { rootMargin: '0px 0px 400px 0px' },
    );
    this.#observer.observe(sentinel);
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
    let next: number;
    switch (event.key) {
      case 'ArrowDown':
        if (current === this.shown - 1 && this.shown < this.consultations.length) this.#renderMore();
        next = current + 1;
        break;
      case 'ArrowUp':
        next = current - 1;
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = this.shown - 1;
        break;
      default:
        return;
    }
    event.preventDefault();
    this.#focusRow(Math.max(0, Math.min(next, this.shown - 1)));
  };

  #onListFocusin = (event: FocusEvent): void => {
    const index = this.#rows().indexOf(event.target as HTMLButtonElement);
    if (index >= 0 && index !== this.activeIndex) this.activeIndex = index;
  };

  #open(consultation: ConsultationView): void {
    this.#openedWith = consultation;
    this.#returnTo = consultation.consultationId;
    this.selected = consultation.consultationId;
    this.#focus.next('[part~=back-button]');
  }

  #back = (): void => {
    const id = this.#returnTo ?? this.selected;
    this.selected = undefined;
    this.#returnTo = undefined;
    const index = this.consultations.findIndex((c) => c.consultationId === id);
    if (index >= 0) {
      this.shown = Math.max(this.shown, index + 1);
      this.#focusRow(index);
    } else {
      this.#focus.next(() => this.#rows()[this.activeIndex]);
    }
  };

  protected override render() {
    const busy = !this.selected && !this.#loaded && this.#list.status !== TaskStatus.ERROR;
    return html`<div
      part="base"
      class="base"
      lang=${this.localize.language}
      dir=${this.localize.dir}
      aria-busy=${busy ? 'true' : 'false'}
    >
      ${this.selected ? this.#renderOpened(this.selected) : this.#renderList()}
      <div class="visually-hidden" role="status">${this.announcement}</div>
    </div>`;
  }

  #renderOpened(id: string): TemplateResult {
    const given = this.#openedWith?.consultationId === id ? this.#openedWith : undefined;
    return html`<button part="back-button" class="back" type="button" @click=${this.#back}>
        ${this.localize.t('back')}
      </button>
      ${this.#threadFor(id, given)}`;
  }

  /** The thread of `id`, under the name ConsultThread is registered as (see `dependencies`). */
  #threadFor(id: string, given: ConsultationView | undefined): ConsultThread {
    if (this.#thread?.id !== id) {
      const element = CaseHistory.createDependency<ConsultThread>(ConsultThread, 'consult-thread');
      element.addEventListener('consult-followup', this.#onThreadChange);
      element.addEventListener('consult-answered', this.#onThreadChange);
      // The row's record shows at once; the thread reads the newest one itself.
      element.consultation = given;
      this.#thread = { id, element };
    }
    const { element } = this.#thread;
    element.setAttribute('consultation-id', id);
    element.setAttribute('lang', this.localize.language);
    element.pollInterval = this.pollInterval;
    element.session = this.activeSession;
    return element;
  }

  #renderList(): TemplateResult {
    const { localize } = this;
    if (this.#list.status === TaskStatus.ERROR) {
      return html`<div part="notice" class="notice error" role="alert" tabindex="-1">
        <p>${localize.t('loadFailed')}</p>
        <button type="button" @click=${this.#retry}>${localize.t('retry')}</button>
      </div>`;
    }
    if (!this.#loaded) {
      // Rows shaped like the list to come; the words are for assistive technology.
      return html`<div class="loading">
        <p class="visually-hidden">${localize.t('loading')}</p>
        <ul class="list" aria-hidden="true">
          ${[0, 1, 2].map(
            () =>
              html`<li class="item placeholder">
                <span class="skeleton"></span><span class="skeleton short"></span
                ><span class="skeleton meta"></span>
              </li>`,
          )}
        </ul>
      </div>`;
    }
    if (this.consultations.length === 0) {
      return html`<div part="empty" class="empty" tabindex="-1">
        <slot name="empty"><p class="notice">${localize.t('empty')}</p></slot>
      </div>`;
    }
    const format = localize.format;
    const date = (iso: string) => (Number.isNaN(Date.parse(iso)) ? '' : format.date(iso));
    const visible = this.consultations.slice(0, this.shown);
    const left = this.consultations.length - visible.length;
    return html`<ul
        part="list"
        class="list"
        aria-label=${localize.t('list')}
        @keydown=${this.#onListKeydown}
        @focusin=${this.#onListFocusin}
      >
        ${repeat(
          visible,
          (c) => c.consultationId,
          (c, index) =>
            html`<li class="row">
              <button
                part="item"
                class="item"
                type="button"
                tabindex=${index === this.activeIndex ? 0 : -1}
                @click=${() => this.#open(c)}
              >
                <span class="title" dir="auto">${c.questions[0]?.question ?? localize.t('untitled')}</span>
                <span class="meta">
                  ${statusBadge(c.status, localize.language)}
                  <time datetime=${c.createdAt}>${date(c.createdAt)}</time>
                  <span class="count"
                    >${localize.t('questions', { used: c.questions.length, max: MAX_QUESTIONS_PER_CONSULTATION })}</span
                  >
                </span>
              </button>
            </li>`,
        )}
      </ul>
      ${
        left > 0
          ? html`<div class="more">
              <span class="sentinel" aria-hidden="true"></span>
              <button part="more-button" type="button" @click=${this.#onShowMore}>
                ${localize.t('showMore', { count: left })}
              </button>
            </div>`
          : nothing
      }`;
  }
}
