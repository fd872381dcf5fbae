/**
 * The simulated professionals answer the topic a question is about, in each of the six languages
 * the elements speak: a child's rash is not a cough, a headache is not anxiety, and a question on
 * none of the topics gets the general advice. Read as the member would get it: through the
 * sandbox's HTTP API, from a member whose language it is.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ENGLISH } from '../../src/sandbox/answers/english.js';
import { OTHER_LANGUAGES } from '../../src/sandbox/answers/other-languages.js';
import type { AnswerLanguage, TopicName } from '../../src/sandbox/answers/topics.js';
import { answerFor } from '../../src/sandbox/professionals.js';
import { ConsultationSchema, UserSchema } from '../../src/server/schemas.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';

type Expected = TopicName | 'general';
const ANSWERS: Record<AnswerLanguage, Record<Expected, string>> = { en: ENGLISH, ...OTHER_LANGUAGES };

/** Per language, questions as members write them, and the topic each is about. */
const QUESTIONS: Record<AnswerLanguage, readonly (readonly [string, Expected])[]> = {
  en: [
    ['My toddler has a red rash on her tummy and a slight temperature', 'childSkin'],
    ['My 2-year-old has spots on his chest since yesterday', 'childSkin'],
    ['My son has had a fever since last night', 'child'],
    ['I have had a cough and a sore throat for a week', 'cold'],
    ['I get a headache every afternoon at work', 'headache'],
    ['I feel anxious and stressed all the time', 'anxiety'],
    ['Can I take ibuprofen with my blood thinner?', 'medicine'],
    ['My back hurts after lifting boxes', 'back'],
    ['I have an itchy patch of dry skin on my elbow', 'skin'],
    ['My tummy hurts and I have diarrhoea', 'stomach'],
    ['What kind of exercise is good for me?', 'general'],
  ],
  de: [
    ['Mein Kleinkind hat seit gestern einen roten Ausschlag am Bauch', 'childSkin'],
    ['Meine Tochter hat Fieber', 'child'],
    ['Ich habe seit einer Woche Husten und Halsschmerzen', 'cold'],
    ['Ich habe seit gestern Kopfschmerzen', 'headache'],
    ['Ich habe ständig Angst und bin gestresst', 'anxiety'],
    ['Darf ich Ibuprofen zusammen mit meinen anderen Medikamenten nehmen?', 'medicine'],
    ['Mein Rücken tut weh, Rückenschmerzen seit Montag', 'back'],
    ['Ich habe Hautausschlag am Arm, der juckt', 'skin'],
    ['Welche Sportart passt zu mir?', 'general'],
  ],
  fr: [
    ['Mon enfant de 2 ans a des boutons rouges sur le ventre', 'childSkin'],
    ['Mon bébé a de la fièvre depuis ce matin', 'child'],
    ["J'ai de la toux et mal à la gorge", 'cold'],
    ["J'ai mal à la tête depuis hier", 'headache'],
    ['Je souffre de stress et d’angoisse le soir', 'anxiety'],
    ['Puis-je prendre du paracétamol avec mon traitement ?', 'medicine'],
    ["J'ai mal au dos depuis une semaine", 'back'],
    ["J'ai une éruption qui me démange sur le bras", 'skin'],
    ['Son travail est-il trop fatigant pour elle ?', 'sleep'],
    ['Quel sport me conseillez-vous ?', 'general'],
  ],
  es: [
    ['Mi hija pequeña tiene un sarpullido en la barriga', 'childSkin'],
    ['Mi bebé tiene fiebre desde anoche', 'child'],
    ['Tengo tos y fiebre desde hace tres días', 'cold'],
    ['Me duele la cabeza todas las tardes', 'headache'],
    ['Estoy muy ansioso y no paro de preocuparme', 'anxiety'],
    ['¿Puedo tomar ibuprofeno con otros medicamentos?', 'medicine'],
    ['Tengo dolor de espalda desde el lunes', 'back'],
    ['Me ha salido una erupción en la piel que pica', 'skin'],
    ['¿Son normales estos resultados?', 'general'],
  ],
  nl: [
    ['Mijn peuter heeft uitslag op zijn buik', 'childSkin'],
    ['Mijn kind heeft koorts', 'child'],
    ['Ik heb al een week hoest en keelpijn', 'cold'],
    ['Ik heb elke middag hoofdpijn', 'headache'],
    ['Ik ben erg angstig en gestrest', 'anxiety'],
    ['Mag ik paracetamol nemen met mijn andere medicijnen?', 'medicine'],
    ['Ik heb last van mijn rug, vooral onderrug', 'back'],
    ['Ik heb jeuk en rode huid op mijn arm', 'skin'],
    ['Welke sport past bij mij?', 'general'],
  ],
  ar: [
    ['طفلي عمره سنتان وعنده طفح أحمر على بطنه', 'childSkin'],
    ['ابنتي عندها حرارة منذ الأمس', 'child'],
    ['عندي سعال وألم في الحلق منذ أسبوع', 'cold'],
    ['عندي صداع منذ يومين', 'headache'],
    ['أشعر بالقلق والتوتر طوال الوقت', 'anxiety'],
    ['هل يمكنني تناول الإيبوبروفين مع أدويتي الأخرى؟', 'medicine'],
    ['أعاني من ألم في أسفل الظهر', 'back'],
    ['ظهر طفح جلدي على ذراعي مع حكة', 'skin'],
    ['ما هي الرياضة المناسبة لي؟', 'general'],
  ],
};

const ROLES: Record<Expected, string> = {
  childSkin: 'Paediatrician',
  child: 'Paediatrician',
  skin: 'Dermatologist',
  medicine: 'Clinical Pharmacist',
  allergy: 'Clinical Pharmacist',
  vitamin: 'General Practitioner',
  heart: 'Specialist in Internal Medicine',
  stomach: 'Specialist in Internal Medicine',
  cold: 'General Practitioner',
  headache: 'General Practitioner',
  sleep: 'General Practitioner',
  back: 'Nurse Practitioner',
  anxiety: 'Clinical Psychologist',
  general: 'General Practitioner',
};

describe('the sandbox answers the topic asked, in every language', () => {
  for (const [language, questions] of Object.entries(QUESTIONS) as [AnswerLanguage, typeof QUESTIONS.en][]) {
    describe(language, () => {
      it('has questions on several topics, and one on none', () => {
        assert.ok(new Set(questions.map(([, topic]) => topic)).size >= 8);
        assert.ok(questions.some(([, topic]) => topic === 'general'));
      });
      for (const [question, topic] of questions) {
        it(`"${question}" gets the ${topic} answer, from a ${ROLES[topic]}`, () => {
          const answered = answerFor(question, language);
          assert.equal(answered.topic, topic);
          assert.equal(answered.language, language);
          assert.equal(answered.answer, ANSWERS[language][topic]);
          assert.equal(answered.professional.title, ROLES[topic]);
        });
      }
    });
  }

  it('every topic has its own text in every language', () => {
    for (const [language, answers] of Object.entries(ANSWERS)) {
      const texts = Object.values(answers);
      assert.equal(new Set(texts).size, texts.length, `${language}: two topics share a text`);
      assert.deepEqual(Object.keys(answers).sort(), Object.keys(ENGLISH).sort(), language);
    }
  });

  it('a rash in a child is answered with the glass test in each language, never the cough advice', () => {
    const glass = { en: /glass/, de: /Glas/, fr: /verre/, es: /vaso/, nl: /glas/, ar: /كوب/ };
    for (const [language, questions] of Object.entries(QUESTIONS) as [
      AnswerLanguage,
      typeof QUESTIONS.en,
    ][]) {
      const [question] = questions.find(([, topic]) => topic === 'childSkin')!;
      const { answer } = answerFor(question, language);
      assert.match(answer, glass[language]);
      assert.notEqual(answer, ANSWERS[language].cold);
      assert.notEqual(answer, ANSWERS[language].child);
    }
  });

  it('a word of one language that means something else in another does not decide the topic', () => {
    // French "son" is "his", Spanish "son" is "are"; English "kind" is not German "Kind".
    assert.equal(answerFor('Son ventre lui fait mal', 'fr').topic, 'stomach');
    assert.equal(answerFor('¿Son normales estos granos en la piel?', 'es').topic, 'skin');
    assert.equal(answerFor('What kind of exercise is good for me?', 'en').topic, 'general');
    // "drug" holds the Dutch "rug" (back): a whole word only.
    assert.equal(answerFor('Can I take this drug with food?', 'nl').topic, 'medicine');
    // Arabic ظهر is "back", and also "appeared" and "noon".
    assert.equal(answerFor('أشعر بتعب بعد الظهر', 'ar').topic, 'sleep');
    assert.equal(answerFor('عندي ألم في ظهري', 'ar').topic, 'back');
  });

  it('a question in another of the six languages than the member’s still finds its topic', () => {
    assert.equal(answerFor('I have had a cough for a week', 'de').topic, 'cold');
    assert.equal(answerFor('I have had a cough for a week', 'de').language, 'de');
    assert.equal(answerFor('Ich habe Rückenschmerzen', 'en').topic, 'back');
  });

  it('a follow-up that names no topic is answered on the consultation’s', () => {
    const earlier = ['My toddler has a red rash on her tummy'];
    assert.equal(answerFor('Is it contagious?', 'en', earlier).topic, 'childSkin');
    assert.equal(answerFor('Is it contagious?', 'en').topic, 'general');
    // One with its own topic keeps it.
    assert.equal(answerFor('She has started coughing too', 'en', earlier).topic, 'cold');
  });
});

describe('over HTTP, a member in each language gets the answer on their topic', () => {
  let sb: TestSandbox;
  before(async () => {
    sb = await startTestSandbox();
  });
  after(async () => {
    await sb.close();
  });

  const memberSpeaking = async (language: string): Promise<string> => {
    const user = UserSchema.parse((await sb.call('POST', '/user', { body: { language } })).body);
    assert.equal((await sb.call('POST', `/user/${user.id}/subscription`, { body: {} })).status, 201);
    return user.id;
  };
  const ask = async (userId: string, question: string) => {
    const res = await sb.call('POST', '/consultation', { body: { userId, questions: [question] } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return ConsultationSchema.parse(res.body).consultationId;
  };
  const answer = async (id: string) => {
    const res = await sb.call('POST', `/_sandbox/consultations/${id}/answer`, { token: null, body: {} });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return ConsultationSchema.parse(res.body);
  };

  for (const language of Object.keys(QUESTIONS) as AnswerLanguage[]) {
    it(`${language}: a child's rash and a headache, each with its own answer and professional`, async () => {
      const userId = await memberSpeaking(language);
      for (const topic of ['childSkin', 'headache'] as const) {
        const [question] = QUESTIONS[language].find(([, t]) => t === topic)!;
        const answered = await answer(await ask(userId, question));
        assert.equal(answered.questions[0]?.answer, ANSWERS[language][topic]);
        assert.equal(answered.questions[0]?.professional?.title, ROLES[topic]);
      }
    });
  }

  it('a follow-up without a topic of its own is answered on the consultation’s', async () => {
    const userId = await memberSpeaking('de');
    const id = await ask(userId, 'Mein Kleinkind hat einen Ausschlag am Bauch');
    await answer(id);
    assert.equal(
      (await sb.call('POST', `/consultation/${id}`, { body: { question: 'Ist das ansteckend?' } })).status,
      200,
    );
    const answered = await answer(id);
    assert.equal(answered.questions[1]?.answer, ANSWERS.de.childSkin);
  });
});
