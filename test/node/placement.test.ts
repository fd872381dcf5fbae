/**
 * The session's placement, in Node: where a consultation shows (form → list) and where a new
 * question's text and focus go (thread or navigator → form), decided in one place from what the
 * page's views registered, never by looking through the page.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemberState, type MemberClient } from '../../src/session/member-state.js';
import { Placement } from '../../src/session/placement.js';

function list(takes = true) {
  const shown: { id: string; focus: boolean }[] = [];
  return {
    shown,
    showConsultation: (id: string, { focus }: { focus: boolean }) => {
      if (takes) shown.push({ id, focus });
      return takes;
    },
  };
}

function form(id?: string) {
  const started: string[] = [];
  return { started, idOnPage: () => id, startQuestion: (text: string) => void started.push(text) };
}

describe('the placement', () => {
  it('opens a consultation in the page’s list, focused unless asked otherwise', () => {
    const placement = new Placement();
    const history = list();
    placement.addList(history);
    assert.equal(placement.showConsultation('cns_1'), true);
    assert.equal(placement.showConsultation('cns_2', { focus: false }), true);
    assert.deepEqual(history.shown, [
      { id: 'cns_1', focus: true },
      { id: 'cns_2', focus: false },
    ]);
  });

  it('answers false without a list, so the form shows the consultation itself', () => {
    const placement = new Placement();
    assert.equal(placement.showConsultation('cns_1'), false);
    const release = placement.addList(list());
    release();
    assert.equal(placement.showConsultation('cns_1'), false, 'a list that left the page takes nothing');
  });

  it('shows a consultation in one list only: the first that takes it', () => {
    const placement = new Placement();
    const [busy, first, second] = [list(false), list(), list()];
    for (const l of [busy, first, second]) placement.addList(l);
    assert.equal(placement.showConsultation('cns_1'), true);
    assert.deepEqual(first.shown, [{ id: 'cns_1', focus: true }]);
    assert.deepEqual(second.shown, []);
  });

  it('starts a new question in the form, with the text carried or none', () => {
    const placement = new Placement();
    const ask = form('ask');
    placement.addForm(ask);
    assert.equal(placement.startQuestion('My unsent follow-up'), true);
    // Nothing typed still lands the member in the form's box: the form is asked, with no text.
    assert.equal(placement.startQuestion(''), true);
    assert.deepEqual(ask.started, ['My unsent follow-up', '']);
  });

  it('goes to the form named by id, else the first registered, and to none that is not there', () => {
    const placement = new Placement();
    const [first, second] = [form('first'), form('second')];
    placement.addForm(first);
    const releaseSecond = placement.addForm(second);
    assert.equal(placement.startQuestion('named', { formId: 'second' }), true);
    assert.equal(placement.startQuestion('default'), true);
    assert.deepEqual(second.started, ['named']);
    assert.deepEqual(first.started, ['default']);
    releaseSecond();
    assert.equal(placement.startQuestion('gone', { formId: 'second' }), false, 'named, but not on the page');
    assert.equal(placement.formFor('missing'), undefined);
  });

  it('answers false with no form, so the thread and the navigator say where to go', () => {
    const placement = new Placement();
    assert.equal(placement.startQuestion('text'), false);
    assert.equal(placement.formFor(), undefined);
  });

  it('is the member state’s, kept when the member changes (views stay registered)', () => {
    const state = new MemberState({ client: () => ({}) as MemberClient, visible: () => false });
    const history = list();
    state.placement.addList(history);
    state.setMember({ id: 'usr_a', language: 'en' });
    state.setMember({ id: 'usr_b', language: 'en' });
    assert.equal(
      state.placement.showConsultation('cns_1'),
      true,
      'the list registered before still shows it',
    );
    assert.deepEqual(history.shown, [{ id: 'cns_1', focus: true }]);
    state.dispose();
  });
});
