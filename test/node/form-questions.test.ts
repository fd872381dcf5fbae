/**
 * The question model of <consult-form>, in Node: where handed-over text lands, and what the
 * member's draft keeps (the text, and the idempotency key only while it still fits that text).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  fingerprint,
  fromDraft,
  newQuestion,
  placeText,
  toDraft,
} from '../../src/elements/consult-form/questions.js';

describe('the questions of <consult-form>', () => {
  it('puts handed-over text in the first empty question', () => {
    const questions = [newQuestion('My knee hurts'), newQuestion('')];
    const placed = placeText(questions, 'Since Monday')!;
    assert.deepEqual(
      placed.questions.map((q) => q.text),
      ['My knee hurts', 'Since Monday'],
    );
    assert.equal(placed.target, questions[1]!.id);
  });

  it('adds a question while there is room, and joins the last one when all three are taken', () => {
    const added = placeText([newQuestion('One')], 'Two')!;
    assert.deepEqual(
      added.questions.map((q) => q.text),
      ['One', 'Two'],
    );
    const full = placeText([newQuestion('One'), newQuestion('Two'), newQuestion('Three')], 'Four')!;
    assert.deepEqual(
      full.questions.map((q) => q.text),
      ['One', 'Two', 'Three\n\nFour'],
      'nothing is lost',
    );
  });

  it('keeps the key in the draft only while it belongs to the text', () => {
    const questions = [newQuestion('Is 142/91 high?')];
    const key = { value: 'key-1', for: fingerprint(['Is 142/91 high?']) };
    assert.deepEqual(toDraft(questions, key), { questions: ['Is 142/91 high?'], idempotencyKey: 'key-1' });
    const changed = [newQuestion('Is 142/91 high for me?')];
    assert.deepEqual(toDraft(changed, key), { questions: ['Is 142/91 high for me?'] });
    assert.equal(toDraft([newQuestion('  ')], key), undefined, 'one empty question stores nothing');
  });

  it('restores a draft with its key, and refuses what is not one', () => {
    const restored = fromDraft({ questions: ['A', 'B', 'C', 'D'], idempotencyKey: 'key-2' })!;
    assert.deepEqual(
      restored.questions.map((q) => q.text),
      ['A', 'B', 'C'],
      'at most three',
    );
    assert.deepEqual(restored.key, { value: 'key-2', for: fingerprint(['A', 'B', 'C']) });
    assert.equal(fromDraft(undefined), undefined);
    assert.equal(fromDraft({ questions: [42 as unknown as string] }), undefined);
  });
});
