/**
 * The translations: every language has exactly the English namespaces and keys, every plural
 * message the forms its language's `Intl.PluralRules` asks for, and the placeholders of the English
 * text and no others; plurals and numbers come out as each language writes them.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  addEnglish,
  isLoaded,
  LANGUAGES,
  loadLanguage,
  registerTranslation,
  translate,
  type Namespace,
} from '../../src/elements/shared/localize.js';
import ar from '../../src/elements/translations/ar.js';
import de from '../../src/elements/translations/de.js';
import en from '../../src/elements/translations/en.js';
import { history } from '../../src/elements/translations/en-history.js';
import { thread } from '../../src/elements/translations/en-thread.js';
import es from '../../src/elements/translations/es.js';
import fr from '../../src/elements/translations/fr.js';
import nl from '../../src/elements/translations/nl.js';
import { professionWords } from '../../src/elements/shared/profession.js';
import { PROFESSIONALS } from '../../src/sandbox/professionals.js';

type Message = string | Record<string, string>;
type Group = Record<string, Message>;

const translations = { en, de, fr, es, nl, ar } as const;
const groups = (translation: object) =>
  Object.entries(translation).filter(([name]) => !name.startsWith('$')) as [Namespace, Group][];
const placeholdersOf = (text: string) => new Set([...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!));
const formsOf = (message: Message) => (typeof message === 'string' ? [message] : Object.values(message));
/** The placeholders a message uses in any of its forms. */
const placeholders = (message: Message) =>
  new Set(formsOf(message).flatMap((text) => [...placeholdersOf(text)]));

describe('the translations', () => {
  it('cover every built-in language', () => {
    assert.deepEqual(Object.keys(translations).sort(), [...LANGUAGES].sort());
  });

  for (const [code, translation] of Object.entries(translations)) {
    it(`${code} declares its code, name and direction`, () => {
      assert.equal(translation.$code, code);
      assert.ok(translation.$name.trim(), `${code} has no $name`);
      assert.equal(translation.$dir, code === 'ar' ? 'rtl' : 'ltr');
    });

    it(`${code} has the English namespaces in the English order, each with exactly the English keys`, () => {
      assert.deepEqual(
        groups(translation).map(([name, group]) => [name, Object.keys(group).sort()]),
        groups(en).map(([name, group]) => [name, Object.keys(group).sort()]),
      );
    });

    it(`${code}: a plural message where English has one, with every form Intl.PluralRules uses`, () => {
      const categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories;
      const english = Object.fromEntries(groups(en));
      for (const [name, group] of groups(translation)) {
        for (const [key, message] of Object.entries(group)) {
          const source = english[name]![key]!;
          assert.equal(typeof message, typeof source, `${name}.${key}: plural in one language only`);
          if (typeof message === 'string') continue;
          for (const category of categories) {
            assert.ok(category in message, `${code} ${name}.${key} lacks "${category}"`);
          }
          for (const category of Object.keys(message)) {
            assert.ok(
              (categories as string[]).includes(category),
              `${code} ${name}.${key}: "${category}" is not a plural form of ${code}`,
            );
          }
        }
      }
    });

    it(`${code}: every placeholder of the English message, and no other`, () => {
      const english = Object.fromEntries(groups(en));
      for (const [name, group] of groups(translation)) {
        for (const [key, message] of Object.entries(group)) {
          const source = english[name]![key]!;
          const expected = placeholders(source);
          const known = typeof source === 'string' ? expected : new Set([...expected, 'count']);
          for (const placeholder of placeholders(message)) {
            assert.ok(known.has(placeholder), `${code} ${name}.${key}: unknown {${placeholder}}`);
          }
          // A plural form may write its count as a word ("One question…"); every other value is
          // in every form, and the general form (`other`) shows the count.
          for (const placeholder of expected) {
            if (placeholder === 'count') continue;
            for (const text of formsOf(message)) {
              assert.ok(
                placeholdersOf(text).has(placeholder),
                `${code} ${name}.${key} drops {${placeholder}}`,
              );
            }
          }
          if (typeof message !== 'string' && expected.has('count')) {
            assert.ok(
              placeholdersOf(message.other!).has('count'),
              `${code} ${name}.${key}: "other" drops {count}`,
            );
          }
        }
      }
    });
  }
});

describe('translate()', () => {
  before(async () => {
    // The built-in languages load as they do in the browser: by the dynamic imports of localize.ts;
    // the list's and the thread's English as their code registers it when it runs.
    await Promise.all(LANGUAGES.map((code) => loadLanguage(code)));
    addEnglish({ history, thread });
  });

  it('loads every built-in language in Node', () => {
    for (const code of LANGUAGES) assert.ok(isLoaded(code), `${code} is not loaded`);
    assert.equal(translate('de', 'session', 'signIn'), 'Erneut anmelden');
  });

  it('chooses French "one" for 0 and 1, "other" from 2', () => {
    assert.equal(translate('fr', 'form', 'charactersLeft', { count: 0 }), '0 caractère restant');
    assert.equal(translate('fr', 'form', 'charactersLeft', { count: 1 }), '1 caractère restant');
    assert.equal(translate('fr', 'form', 'charactersLeft', { count: 2 }), '2 caractères restants');
    assert.equal(translate('fr', 'history', 'showMore', { count: 1 }), 'Afficher plus (1 restante)');
    assert.equal(translate('fr', 'history', 'showMore', { count: 0 }), 'Afficher plus (0 restante)');
    assert.equal(translate('fr', 'history', 'showMore', { count: 2 }), 'Afficher plus (2 restantes)');
    assert.equal(translate('fr', 'form', 'counter', { count: 1, max: 3 }), '1 question sur 3');
    assert.equal(translate('fr', 'form', 'counter', { count: 2, max: 3 }), '2 questions sur 3');
  });

  it('chooses English "one" for 1 only', () => {
    assert.equal(translate('en', 'form', 'charactersLeft', { count: 1 }), '1 character left');
    assert.equal(translate('en', 'form', 'charactersLeft', { count: 0 }), '0 characters left');
    assert.equal(translate('en', 'form', 'invalid', { count: 1 }), 'One question needs your attention.');
    assert.equal(translate('en', 'form', 'invalid', { count: 2 }), '2 questions need your attention.');
  });

  it('chooses Arabic "two" for 2, "few" for 3, "many" for 11', () => {
    assert.equal(translate('ar', 'form', 'charactersLeft', { count: 2 }), 'يتبقى حرفان');
    assert.equal(translate('ar', 'form', 'charactersLeft', { count: 3 }), 'يتبقى 3 أحرف');
    assert.equal(translate('ar', 'form', 'charactersLeft', { count: 11 }), 'يتبقى 11 حرفًا');
    assert.equal(translate('ar', 'form', 'invalid', { count: 2 }), 'سؤالان يحتاجان إلى انتباهك.');
    assert.equal(translate('ar', 'form', 'moreLeft', { count: 2 }), 'يمكنك إضافة سؤالين آخرين');
    assert.equal(translate('ar', 'form', 'moreLeft', { count: 3 }), 'يمكنك إضافة 3 أسئلة أخرى');
  });

  it('formats numbers in the language, digits included when the locale asks for them', () => {
    assert.equal(translate('en', 'history', 'showMore', { count: 1050 }), 'Show more (1,050 left)');
    assert.equal(translate('de', 'history', 'showMore', { count: 1050 }), 'Mehr anzeigen (noch 1.050)');
    assert.equal(translate('ar-u-nu-arab', 'thread', 'used', { used: 2, max: 3 }), 'تم استخدام ٢ من ٣ أسئلة');
  });

  it('falls back to English, key by key, for a partial language', () => {
    registerTranslation({ $code: 'pt', status: { open: 'Aberta' } });
    assert.equal(translate('pt', 'status', 'open'), 'Aberta');
    assert.equal(translate('pt', 'status', 'closed'), 'Closed');
  });
});

describe('professionWords()', () => {
  before(async () => {
    await Promise.all(LANGUAGES.map((code) => loadLanguage(code)));
  });

  it('has every role and specialty the sandbox sends, in every language', () => {
    const sent = PROFESSIONALS.flatMap((p) => [p.title, ...p.specialties]);
    for (const value of sent) {
      assert.ok(Object.hasOwn(en.professions, value), `"${value}" is not an English key`);
      for (const [code, translation] of Object.entries(translations)) {
        const words = (translation.professions as Record<string, string>)[value];
        assert.ok(words?.trim(), `${code} lacks "${value}"`);
        assert.equal(professionWords(code, value), words);
      }
    }
  });

  it('shows a role in the member’s language, English as sent', () => {
    assert.equal(professionWords('ar', 'Paediatrician'), 'طب الأطفال');
    assert.equal(professionWords('de', 'General Practitioner'), 'Allgemeinmedizin');
    assert.equal(professionWords('nl', 'Dermatologist'), 'Dermatoloog');
    assert.equal(professionWords('fr-CA', 'Paediatrician'), 'Pédiatre');
    assert.equal(professionWords('es', 'Dermatology'), 'Dermatología');
    assert.equal(professionWords('en', 'Clinical Psychologist'), 'Clinical Psychologist');
  });

  it('shows an unknown role as sent, in any language', () => {
    assert.equal(professionWords('ar', 'Sports medicine'), 'Sports medicine');
    assert.equal(professionWords('de', 'Physiotherapist {name}'), 'Physiotherapist {name}');
    assert.equal(professionWords('fr', 'constructor'), 'constructor');
    assert.equal(professionWords('nl', 'toString'), 'toString');
  });
});
