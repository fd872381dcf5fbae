/**
 * English an element's own chunk carries (`<consult-access>`'s and `<prescription-request>`'s words
 * come with their code, not with the loader) goes beneath what the page registered before it
 * loaded: a partner's words are never replaced by the defaults arriving later.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addEnglish, registerTranslation, translate } from '../../src/elements/shared/localize.js';
import en from '../../src/elements/translations/en.js';
import { access } from '../../src/elements/translations/en-access.js';

describe('English that comes with an element’s chunk', () => {
  it('is there once the chunk ran, and keeps the words a page set before it', () => {
    // Before the chunk: the key itself, as for any unknown key.
    assert.equal(translate('en', 'access', 'loadFailed'), 'loadFailed');
    registerTranslation({ $code: 'en', access: { included: 'Your plan covers doctor questions' } });
    addEnglish({ access });
    assert.equal(translate('en', 'access', 'included'), 'Your plan covers doctor questions');
    assert.equal(translate('en', 'access', 'loadFailed'), en.access.loadFailed);
    assert.equal(
      translate('en', 'access', 'active', { date: '3 May 2027' }),
      'Your plan runs until 3 May 2027.',
    );
    // Words set afterwards still replace them.
    registerTranslation({ $code: 'en', access: { retry: 'Check again' } });
    assert.equal(translate('en', 'access', 'retry'), 'Check again');
    assert.equal(translate('en', 'access', 'included'), 'Your plan covers doctor questions');
  });

  it('is part of the whole English translation every other language follows', () => {
    assert.equal(en.access, access);
    assert.ok(en.prescription.submit && en.form && en.session);
  });
});
