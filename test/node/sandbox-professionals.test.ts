/**
 * The simulated professionals answer on the topic asked, in the member's language, each question
 * going to a professional whose specialty fits it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerFor, PROFESSIONALS } from '../../src/sandbox/professionals.js';
import { TOPICS } from '../../src/sandbox/answers/topics.js';

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

  /** A question on a topic in each language, and words its answer must have in that language. */
  const IN_LANGUAGES = [
    {
      language: 'de',
      question: 'Ich habe seit gestern Kopfschmerzen',
      topic: /Kopfschmerz/,
      not: /headache/i,
    },
    { language: 'de', question: 'Mein Rücken tut weh, Rückenschmerzen seit Montag', topic: /Rückenschmerz/ },
    { language: 'fr', question: "J'ai de la toux et mal à la gorge", topic: /toux/, not: /cough/i },
    { language: 'fr', question: 'Je souffre de stress et d’angoisse le soir', topic: /anxiété/ },
    { language: 'es', question: 'Tengo alergia al polen cada primavera', topic: /antihistamínico/ },
    { language: 'es', question: 'Me duele el estómago y tengo diarrea', topic: /diarrea/ },
    { language: 'nl', question: 'Ik heb hooikoorts, wat kan ik doen?', topic: /antihistaminicum/ },
    { language: 'nl', question: 'Ik slaap slecht en word om 4 uur wakker', topic: /slaap|wakker/ },
    { language: 'ar', question: 'عندي صداع منذ يومين', topic: /صداع/ },
    { language: 'ar', question: 'ظهر طفح جلدي على ذراعي', topic: /الجلد|جلدية/ },
    { language: 'en', question: 'I feel anxious and stressed all the time', topic: /anxiety/i },
    { language: 'en', question: 'My lower back hurts after lifting boxes', topic: /back pain/i },
  ] as const;

  for (const { language, question, topic, ...rest } of IN_LANGUAGES) {
    it(`answer "${question}" in ${language}, on its topic`, () => {
      const answer = answerFor(question, language);
      assert.equal(answer.language, language);
      assert.match(answer.answer, topic);
      if ('not' in rest) assert.doesNotMatch(answer.answer, rest.not);
    });
  }

  it('answer a question written in Arabic in Arabic, even to a member whose language is English', () => {
    const answer = answerFor('ابني عنده حرارة ٣٨٫٥ منذ يوم', 'en');
    assert.equal(answer.language, 'ar');
    assert.match(answer.answer, /[\u0600-\u06FF]/u);
    assert.equal(answer.professional.title, 'Paediatrician');
  });

  it('answer in English a member whose language is not one of the six', () => {
    assert.equal(answerFor('I have a headache', 'pt').language, 'en');
  });

  it('cover at least a dozen topics in every language, from professionals of several roles', () => {
    assert.ok(TOPICS.length >= 12, `${TOPICS.length} topics`);
    const roles = new Set(TOPICS.map((t) => PROFESSIONALS[t.professional]?.title));
    assert.ok(roles.size >= 5, [...roles].join(', '));
    for (const language of ['en', 'de', 'fr', 'es', 'nl', 'ar']) {
      const answers = new Set<string>();
      for (const t of TOPICS) {
        // A question in that topic's own words answers with its own text, never the general one.
        answers.add(answerFor(`${t.name}`, language).answer);
      }
      assert.ok(answers.size >= 2, language);
    }
  });

  it('answer anything else with general advice from a general practitioner', () => {
    const { answer, professional } = answerFor('Is it normal to feel this way?');
    assert.match(answer, /Thank you for your question/);
    assert.equal(professional.title, 'General Practitioner');
  });
});
