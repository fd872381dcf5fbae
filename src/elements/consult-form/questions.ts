/**
 * The questions of `<consult-form>` as plain data: each question's text, where text handed over
 * lands, what is stored as the member's draft (the text, and the idempotency key it was sent with),
 * and what is wrong with a question.
 */
import { MAX_QUESTION_LENGTH, MAX_QUESTIONS_PER_CONSULTATION } from '../../client/types.js';
import type { LocalizeController } from '../shared/localize.js';

export interface Question {
  /** Stable across edits and removals: the key of its row and of its element ids. */
  id: number;
  text: string;
}

/** What is kept in sessionStorage: the text, and the key it was (or will be) sent with. */
export interface FormDraft {
  questions: string[];
  idempotencyKey?: string;
}

/** An idempotency key and the request it belongs to (`fingerprint` of the questions). */
export interface RequestKey {
  value: string;
  for: string;
}

/** The request a key belongs to: the trimmed questions, as the proxy compares them. */
export const fingerprint = (texts: readonly string[]): string =>
  JSON.stringify(texts.map((text) => text.trim()));

let nextQuestionId = 0;
export const newQuestion = (text = ''): Question => ({ id: nextQuestionId++, text });

/**
 * Puts `text` in the first empty question, or in a new one while there is room; with every
 * question taken it joins the last one rather than being lost. Answers the questions and the id of
 * the one that took it.
 */
export function placeText(
  questions: readonly Question[],
  text: string,
): { questions: Question[]; target: number } | undefined {
  const next = [...questions];
  let index = next.findIndex((q) => q.text.trim() === '');
  if (index === -1 && next.length < MAX_QUESTIONS_PER_CONSULTATION) {
    next.push(newQuestion());
    index = next.length - 1;
  }
  const target = index === -1 ? next.at(-1) : next[index];
  if (!target) return undefined;
  const filled = { ...target, text: index === -1 ? `${target.text}\n\n${text}` : text };
  return { questions: next.map((q) => (q.id === target.id ? filled : q)), target: target.id };
}

/** The questions a stored draft holds, and its key; undefined when it holds none. */
export function fromDraft(
  draft: Partial<FormDraft> | undefined,
): { questions: Question[]; key?: RequestKey } | undefined {
  const texts = Array.isArray(draft?.questions)
    ? draft.questions
        .filter((q): q is string => typeof q === 'string')
        .slice(0, MAX_QUESTIONS_PER_CONSULTATION)
    : [];
  if (texts.length === 0) return undefined;
  const questions = texts.map((text) => newQuestion(text));
  return typeof draft?.idempotencyKey === 'string'
    ? { questions, key: { value: draft.idempotencyKey, for: fingerprint(texts) } }
    : { questions };
}

/** What to store for these questions: nothing for one empty question, the key only while it fits the text. */
export function toDraft(questions: readonly Question[], key: RequestKey | undefined): FormDraft | undefined {
  const texts = questions.map((q) => q.text);
  if (texts.length === 1 && texts.every((text) => text.trim() === '')) return undefined;
  const draft: FormDraft = { questions: texts };
  if (key && key.for === fingerprint(texts)) draft.idempotencyKey = key.value;
  return draft;
}

/** What is wrong with a question: too long always, empty once the member tried to send. */
export function questionError(
  question: Question,
  index: number,
  triedToSend: boolean,
  localize: LocalizeController<'form'>,
): string | undefined {
  if (question.text.length > MAX_QUESTION_LENGTH) return localize.t('tooLong', { max: MAX_QUESTION_LENGTH });
  if (triedToSend && question.text.trim() === '')
    return localize.t(index === 0 ? 'emptyFirst' : 'emptyExtra');
  return undefined;
}
