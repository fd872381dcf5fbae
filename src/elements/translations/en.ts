/**
 * English: the elements' own language and the shape of every other translation. Placeholders are
 * `{name}`; a plural message has one text per `Intl.PluralRules` category and counts `{count}`.
 * Its words are in seven modules, so that each loads with the code that shows it (professionals'
 * roles need none: in English they show as sent).
 */
import { access } from './en-access.js';
import core from './en-core.js';
import { history } from './en-history.js';
import { navigator } from './en-navigator.js';
import { thread } from './en-thread.js';
import { prescription } from './en-prescription.js';
import { professions } from './en-professions.js';

// In the order of every other translation (test/node/translations.test.ts holds them to it).
const en = {
  $code: core.$code,
  $name: core.$name,
  $dir: core.$dir,
  session: core.session,
  answer: core.answer,
  status: core.status,
  form: core.form,
  history: { ...core.history, ...history },
  thread,
  navigator: { ...core.navigator, ...navigator },
  notify: core.notify,
  access,
  prescription,
  professions,
} as const;

export type EnglishTranslation = typeof en;
export default en;
