/**
 * The translations: every language has exactly the English keys, every plural message the forms
 * its language's `Intl.PluralRules` asks for, and every placeholder of the English text; plurals
 * and numbers come out as each language writes them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registerTranslation, translate, type Namespace } from '../../src/elements/shared/localize.js';
import ar from '../../src/elements/translations/ar.js';
import de from '../../src/elements/translations/de.js';
import en from '../../src/elements/translations/en.js';
import es from '../../src/elements/translations/es.js';
import fr from '../../src/elements/translations/fr.js';
import nl from '../../src/elements/translations/nl.js';

type Group = Record<string, string | Record<string, string>>;
const groups = (translation: object) =>
  Object.entries(translation).filter(([name]) => !name.startsWith('$')) as [Namespace, Group][];
const placeholders = (message: string | Record<string, string>) =>
  new Set(
    (typeof message === 'string' ? [message] : Object.values(message)).flatMap((text) =>
      [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]),
    ),
  );

const others = { ar, de, es, fr, nl };
registerTranslation(...Object.values(others));

describe('the translations', () => {
  for (const [code, translation] of Object.entries(others)) {
    it(`${code} has every English key and no other`, () => {
      assert.deepEqual(
        groups(translation).map(([name, group]) => [name, Object.keys(group).sort()]),
        groups(en).map(([name, group]) => [name, Object.keys(group).sort()]),
      );
    });

    it(`${code}: every plural message has each form Intl.PluralRules uses, and the English placeholders`, () => {
      const categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories;
      const english = Object.fromEntries(groups(en));
      for (const [name, group] of groups(translation)) {
        for (const [key, message] of Object.entries(group)) {
          const source = (english[name] as Group)[key]!;
          if (typeof message !== 'string') {
            const forms = Object.keys(message);
            // A message that reads the same for every count may give `other` alone.
            if (forms.length > 1) {
              for (const category of categories)
                assert.ok(category in message, `${name}.${key} lacks "${category}"`);
            }
            assert.ok('other' in message, `${name}.${key} lacks "other"`);
          }
          const used = placeholders(message);
          const expected = placeholders(source);
          for (const placeholder of used) {
            assert.ok(
              expected.has(placeholder) || placeholder === 'count',
              `${name}.${key}: unknown {${placeholder}}`,
            );
          }
          for (const placeholder of expected) {
            if (placeholder === 'count' && typeof message !== 'string') continue;
            assert.ok(used.has(placeholder), `${name}.${key} drops {${placeholder}}`);
          }
        }
      }
    });
  }

  it('chooses plural forms with Intl.PluralRules: French 0 and 1 are singular, Arabic has two and few', () => {
    assert.equal(translate('fr', 'form', 'charactersLeft', { count: 0 }), '0 caractère restant');
    assert.equal(translate('fr', 'form', 'charactersLeft', { count: 1 }), '1 caractère restant');
    assert.equal(translate('fr', 'form', 'charactersLeft', { count: 2 }), '2 caractères restants');
    assert.equal(translate('en', 'form', 'charactersLeft', { count: 1 }), '1 character left');
    assert.equal(translate('en', 'form', 'charactersLeft', { count: 0 }), '0 characters left');
    assert.equal(translate('ar', 'form', 'charactersLeft', { count: 2 }), 'يتبقى حرفان');
    assert.equal(translate('ar', 'form', 'charactersLeft', { count: 3 }), 'يتبقى 3 أحرف');
    assert.equal(translate('ar', 'form', 'charactersLeft', { count: 11 }), 'يتبقى 11 حرفًا');
  });

  it('formats numbers in the language, digits included when the locale asks for them', () => {
    assert.equal(translate('de', 'history', 'showMore', { left: 1050 }), 'Mehr anzeigen (noch 1.050)');
    assert.equal(translate('ar-u-nu-arab', 'thread', 'used', { used: 2, max: 3 }), 'تم استخدام ٢ من ٣ أسئلة');
  });

  it('falls back to English, key by key, for a partial language', () => {
    registerTranslation({ $code: 'pt', status: { open: 'Aberta' } });
    assert.equal(translate('pt', 'status', 'open'), 'Aberta');
    assert.equal(translate('pt', 'status', 'closed'), 'Closed');
  });
});
