/**
 * The simulated professionals answer on the topic asked, each question going to a professional
 * whose specialty fits it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerFor } from '../../src/sandbox/professionals.js';

const CASES = [
  { question: 'I have a red itchy rash on my arm', says: /skin/i, specialty: 'Dermatology' },
  { question: 'My daughter (4) has a temperature of 38.5', says: /children/i, specialty: 'Paediatrics' },
  {
    question: 'Can I take ibuprofen with my blood thinner?',
    says: /pharmacist/i,
    specialty: 'Medication review',
  },
  { question: 'Should I take a vitamin D supplement?', says: /Vitamin D/, specialty: 'General practice' },
  { question: 'My blood pressure is 150/95 at home', says: /blood pressure/i, specialty: 'Cardiology' },
  {
    question: 'I have had a cough and a sore throat for a week',
    says: /cough/i,
    specialty: 'General practice',
  },
  { question: 'I get a headache every afternoon', says: /headache/i, specialty: 'General practice' },
  { question: 'I keep waking up at 4am', says: /sleep/i, specialty: 'General practice' },
  { question: 'I get heartburn after dinner', says: /heartburn/i, specialty: 'Internal medicine' },
] as const;

describe('the simulated professionals', () => {
  for (const { question, says, specialty } of CASES) {
    it(`answer "${question}" on its topic, from ${specialty}`, () => {
      const { answer, professional } = answerFor(question);
      assert.match(answer, says);
      assert.ok(professional.specialties.includes(specialty), professional.specialties.join(', '));
    });
  }

  it('answer anything else with general advice from a general practitioner', () => {
    const { answer, professional } = answerFor('Is it normal to feel this way?');
    assert.match(answer, /Thank you for your question/);
    assert.equal(professional.title, 'General Practitioner');
  });
});
