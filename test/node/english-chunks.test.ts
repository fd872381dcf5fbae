/**
 * English an element's chunk carries (the thread's, the list's, the navigator's, the plan's and the
 * prescriptions' words come with their code, not with the loader) goes beneath what the page
 * registered before it loaded: a partner's words are never replaced by the defaults arriving later.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addEnglish, registerTranslation, translate } from '../../src/elements/shared/localize.js';
import en from '../../src/elements/translations/en.js';
import { access } from '../../src/elements/translations/en-access.js';
import { history } from '../../src/elements/translations/en-history.js';
import { navigator } from '../../src/elements/translations/en-navigator.js';
import { thread } from '../../src/elements/translations/en-thread.js';

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

  it('keeps a page’s words for the thread, the list and the navigator, and the few the loader carries', () => {
    // Before their chunk: the loader's few words of theirs are there, the rest is not.
    assert.equal(translate('en', 'history', 'untitled'), en.history.untitled);
    assert.equal(translate('en', 'navigator', 'noForm'), en.navigator.noForm);
    assert.equal(translate('en', 'history', 'empty'), 'empty');
    registerTranslation({
      $code: 'en',
      thread: { followupLabel: 'Ask more' },
      history: { empty: 'Nothing here yet' },
      navigator: { send: 'Ask' },
    });
    addEnglish({ thread, history, navigator });
    assert.equal(translate('en', 'thread', 'followupLabel'), 'Ask more');
    assert.equal(translate('en', 'history', 'empty'), 'Nothing here yet');
    assert.equal(translate('en', 'navigator', 'send'), 'Ask');
    assert.equal(translate('en', 'thread', 'retry'), en.thread.retry);
    assert.equal(translate('en', 'history', 'loadFailed'), en.history.loadFailed);
    assert.equal(translate('en', 'navigator', 'typing'), en.navigator.typing);
    // What the loader carries stays beside them.
    assert.equal(translate('en', 'history', 'untitled'), en.history.untitled);
    assert.equal(translate('en', 'navigator', 'noForm'), en.navigator.noForm);
  });

  it('is part of the whole English translation every other language follows', () => {
    assert.equal(en.access, access);
    assert.equal(en.thread, thread);
    assert.deepEqual(en.history, { ...history, untitled: en.history.untitled });
    assert.deepEqual(en.navigator, { ...navigator, noForm: en.navigator.noForm });
    assert.ok(en.prescription.submit && en.form && en.session);
  });
});
