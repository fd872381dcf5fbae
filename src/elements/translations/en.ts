/**
 * English: the elements' own language and the shape of every other translation. Placeholders are
 * `{name}`; a plural message has one text per `Intl.PluralRules` category and counts `{count}`.
 * Its words are in four modules, so that each loads with the code that shows it (professionals'
 * roles need none: in English they show as sent).
 */
import { access } from './en-access.js';
import core from './en-core.js';
import { prescription } from './en-prescription.js';
import { professions } from './en-professions.js';

const en = { ...core, access, prescription, professions } as const;

export type EnglishTranslation = typeof en;
export default en;
