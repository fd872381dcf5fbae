/**
 * The questions `<consult-form>` holds and their draft: what the member typed is kept in
 * sessionStorage per member, with the idempotency key it was sent with, so a reload loses nothing
 * and a retry after a timeout sends the same key (one consultation, never two).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { newIdempotencyKey } from '../../client/retry.js';
import { MAX_QUESTIONS_PER_CONSULTATION } from '../../client/types.js';
import { DraftController } from '../shared/draft.js';
import {
  fingerprint,
  fromDraft,
  newQuestion,
  placeText,
  toDraft,
  type FormDraft,
  type Question,
  type RequestKey,
} from './questions.js';

export class QuestionsDraft implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  #questions: Question[] = [newQuestion()];
  /** The member whose draft is in the form. */
  #owner?: string;
  /** The key for the request it was made `for`: the same content always goes with the same key. */
  #key?: RequestKey;
  #saveTimer?: ReturnType<typeof setTimeout>;
  readonly #draft = new DraftController<FormDraft>(
    () => this.#owner,
    () => 'consult-form',
  );

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  get questions(): readonly Question[] {
    return this.#questions;
  }

  /** Replaces the questions and stores them at once (added, removed, or text handed over). */
  #replace(questions: Question[]): void {
    this.#questions = questions;
    this.#host.requestUpdate();
    this.saveNow();
  }

  /** Adds an empty question while there is room; answers its id. */
  add(): number | undefined {
    if (this.#questions.length >= MAX_QUESTIONS_PER_CONSULTATION) return undefined;
    const question = newQuestion();
    this.#replace([...this.#questions, question]);
    return question.id;
  }

  /** Removes a question after the first; answers the id of the one before it, where focus goes. */
  remove(id: number): number | undefined {
    const index = this.#questions.findIndex((q) => q.id === id);
    const previous = this.#questions[index - 1];
    if (index <= 0 || !previous) return undefined;
    this.#replace(this.#questions.filter((q) => q.id !== id));
    return previous.id;
  }

  /** Puts text handed over in the first empty question (see `placeText`); answers the id of the one that took it. */
  place(text: string): number | undefined {
    // Nothing to hand over: focus goes to the first empty question, or the first.
    if (!text.trim()) return (this.#questions.find((q) => !q.text.trim()) ?? this.#questions[0])?.id;
    const placed = placeText(this.#questions, text);
    if (placed) this.#replace(placed.questions);
    return placed?.target;
  }

  /** The member whose questions these are, once known. */
  get owner(): string | undefined {
    return this.#owner;
  }

  /** Whether any question holds text. */
  get typed(): boolean {
    return this.#questions.some((q) => q.text.trim() !== '');
  }

  hostConnected(): void {
    window.addEventListener('pagehide', this.#flush);
  }

  hostDisconnected(): void {
    window.removeEventListener('pagehide', this.#flush);
    this.#flush();
  }

  /**
   * Takes the member's draft back when they become known; answers whether restored text is on
   * screen. Text typed before the member was known wins, and becomes their draft.
   */
  restore(userId: string): boolean {
    if (this.#owner === userId) return false;
    this.#owner = userId;
    if (this.typed) {
      this.saveNow();
      return false;
    }
    const restored = fromDraft(this.#draft.load());
    if (!restored) return false;
    this.#questions = restored.questions;
    this.#key = restored.key;
    this.#host.requestUpdate();
    return this.typed;
  }

  /** One question's new text, stored shortly after the member stops typing. */
  edit(id: number, text: string): void {
    this.#questions = this.#questions.map((q) => (q.id === id ? { ...q, text } : q));
    this.#host.requestUpdate();
    clearTimeout(this.#saveTimer);
    this.#saveTimer = setTimeout(() => this.saveNow(), 300);
  }

  /**
   * The key to send the questions with, stored before sending so a reload mid-request retries
   * with it. The same text keeps its key (a retry answers the first outcome); changed text is a
   * new request.
   */
  keyForSending(texts: readonly string[]): string {
    const request = fingerprint(texts);
    if (this.#key?.for !== request) this.#key = { value: newIdempotencyKey(), for: request };
    this.saveNow();
    return this.#key.value;
  }

  /** Sent: the draft and its key are done with, and a fresh question is ready. */
  sent(): void {
    this.#draft.clear();
    this.#key = undefined;
    this.reset();
  }

  /** One empty question, as a new form starts. */
  reset(): void {
    this.#questions = [newQuestion()];
    this.#host.requestUpdate();
  }

  /** Forgets the previous member's questions: in memory only, the session clears their stored drafts. */
  forget(): void {
    clearTimeout(this.#saveTimer);
    this.#saveTimer = undefined;
    this.#owner = undefined;
    this.#key = undefined;
    this.reset();
  }

  /** Writes the draft now: the text, and the key while it still belongs to this text. */
  saveNow(): void {
    clearTimeout(this.#saveTimer);
    this.#saveTimer = undefined;
    if (this.#owner) this.#draft.save(toDraft(this.#questions, this.#key));
  }

  #flush = (): void => {
    if (this.#saveTimer !== undefined) this.saveNow();
  };
}
