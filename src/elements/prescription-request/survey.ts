/**
 * The indication survey a partner describes for `<prescription-request>`: questions of kind text,
 * yes/no, single choice and multiple choice, each required or not, with labels per language.
 * Checked once when it is given, so a mistake in it is named precisely instead of showing a
 * broken form.
 */

/** A text in one language (`"Why?"`) or per language (`{ "en": "Why?", "de": "Warum?" }`). */
export type LocalizedText = string | Readonly<Record<string, string>>;

export interface SurveyOption {
  /** What is sent when the member picks it. */
  value: string;
  label: LocalizedText;
}

export interface SurveyQuestion {
  /** The key of the answer in `indicationSurvey`: letters, digits, `-` and `_`, at most 100. */
  id: string;
  kind: 'text' | 'yes-no' | 'single' | 'multiple';
  label: LocalizedText;
  hint?: LocalizedText;
  required?: boolean;
  /** For `single` and `multiple`: two or more. */
  options?: SurveyOption[];
  /** For `text`: the longest answer. Default 1000. */
  maxLength?: number;
}

export interface Survey {
  questions: SurveyQuestion[];
}

/** An answer as sent: text, yes (true) or no (false), one value, or the values picked. */
export type SurveyAnswer = string | boolean | string[];

const ID = /^[A-Za-z0-9_-]{1,100}$/;
const KINDS = ['text', 'yes-no', 'single', 'multiple'] as const;
export const DEFAULT_MAX_LENGTH = 1000;

const isText = (value: unknown): value is LocalizedText =>
  (typeof value === 'string' && value.trim() !== '') ||
  (typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length > 0 &&
    Object.values(value).every((v) => typeof v === 'string' && v.trim() !== ''));

/** The survey, checked: it, or every problem with it (each naming where it is). */
export function checkSurvey(input: unknown): { survey: Survey } | { problems: string[] } {
  const problems: string[] = [];
  const questions = (input as { questions?: unknown } | null)?.questions;
  if (!Array.isArray(questions) || questions.length === 0) {
    return { problems: ['the survey needs a "questions" array with at least one question'] };
  }
  const seen = new Set<string>();
  questions.forEach((raw: unknown, index) => {
    const q = raw as Partial<SurveyQuestion> | null;
    const where = `questions[${index}]`;
    if (typeof q !== 'object' || q === null) {
      problems.push(`${where} is not an object`);
      return;
    }
    if (typeof q.id !== 'string' || !ID.test(q.id))
      problems.push(`${where}.id must be 1 to 100 letters, digits, - or _`);
    else if (seen.has(q.id)) problems.push(`${where}.id "${q.id}" is used twice`);
    else seen.add(q.id);
    if (!KINDS.includes(q.kind as (typeof KINDS)[number]))
      problems.push(`${where}.kind must be one of ${KINDS.join(', ')}`);
    if (!isText(q.label)) problems.push(`${where}.label must be a text or texts by language`);
    if (q.hint !== undefined && !isText(q.hint))
      problems.push(`${where}.hint must be a text or texts by language`);
    if (q.required !== undefined && typeof q.required !== 'boolean')
      problems.push(`${where}.required must be true or false`);
    if (q.kind === 'single' || q.kind === 'multiple') {
      if (!Array.isArray(q.options) || q.options.length < 2) {
        problems.push(`${where}.options must list at least two choices`);
      } else {
        const values = new Set<string>();
        q.options.forEach((option, i) => {
          if (typeof option?.value !== 'string' || option.value === '')
            problems.push(`${where}.options[${i}].value must be a non-empty text`);
          else if (values.has(option.value))
            problems.push(`${where}.options[${i}].value "${option.value}" is used twice`);
          else values.add(option.value);
          if (!isText(option?.label))
            problems.push(`${where}.options[${i}].label must be a text or texts by language`);
        });
      }
    }
    if (
      q.maxLength !== undefined &&
      (!Number.isInteger(q.maxLength) || (q.maxLength as number) < 1 || (q.maxLength as number) > 4000)
    )
      problems.push(`${where}.maxLength must be a whole number from 1 to 4000`);
  });
  return problems.length ? { problems } : { survey: { questions: questions as SurveyQuestion[] } };
}

/** `text` in `language`: that language, its base (`de` for `de-CH`), English, or the first given. */
export function textIn(text: LocalizedText | undefined, language: string): string {
  if (text === undefined) return '';
  if (typeof text === 'string') return text;
  const base = language.split('-')[0] ?? language;
  return text[language] ?? text[base] ?? text['en'] ?? Object.values(text)[0] ?? '';
}

/** Whether an answer counts as given. */
export function isAnswered(answer: SurveyAnswer | undefined): boolean {
  if (answer === undefined) return false;
  if (typeof answer === 'string') return answer.trim() !== '';
  if (Array.isArray(answer)) return answer.length > 0;
  return true;
}
