import type { Professional } from '../client/types.js';
import { ENGLISH } from './answers/english.js';
import { OTHER_LANGUAGES } from './answers/other-languages.js';
import { answerLanguage, topicOf, type AnswerLanguage, type TopicName } from './answers/topics.js';

/** The sandbox's simulated professionals, each with a full record (spec 2.2). */
export const PROFESSIONALS: readonly Professional[] = [
  {
    name: 'Dr. Amara Okafor',
    title: 'General Practitioner',
    specialties: ['General practice', 'Family medicine'],
    licenses: [{ licenseNumber: 'GMC 7212345', countries: ['GB'] }],
    profileUrl: 'https://professionals.example.org/amara-okafor',
  },
  {
    name: 'Dr. Lukas Becker',
    title: 'Specialist in Internal Medicine',
    specialties: ['Internal medicine', 'Cardiology'],
    licenses: [{ licenseNumber: 'LÄK-BY 48213', countries: ['DE', 'AT'] }],
    profileUrl: 'https://professionals.example.org/lukas-becker',
  },
  {
    name: 'Dr. Sofía Martínez',
    title: 'Dermatologist',
    specialties: ['Dermatology'],
    licenses: [
      { licenseNumber: 'CMM 28/2811934', countries: ['ES'] },
      { licenseNumber: 'GMC 7654321', countries: ['GB'] },
    ],
    profileUrl: 'https://professionals.example.org/sofia-martinez',
  },
  {
    name: 'Dr. Layla Al-Mansouri',
    title: 'Paediatrician',
    specialties: ['Paediatrics', 'Adolescent health'],
    licenses: [{ licenseNumber: 'DHA-P-0042317', countries: ['AE'] }],
    profileUrl: 'https://professionals.example.org/layla-al-mansouri',
  },
  {
    name: 'Priya Nair',
    title: 'Clinical Pharmacist',
    specialties: ['Medication review', 'Travel health'],
    licenses: [{ licenseNumber: 'GPhC 2079311', countries: ['GB', 'IE'] }],
    profileUrl: 'https://professionals.example.org/priya-nair',
  },
  {
    name: 'Tomás Herrera',
    title: 'Nurse Practitioner',
    specialties: ['Musculoskeletal care', 'Minor injuries'],
    licenses: [{ licenseNumber: 'NMC 21H0457E', countries: ['GB'] }],
    profileUrl: 'https://professionals.example.org/tomas-herrera',
  },
  {
    name: 'Dr. Hannah Vos',
    title: 'Clinical Psychologist',
    specialties: ['Anxiety and stress', 'Sleep'],
    licenses: [{ licenseNumber: 'BIG 19061234525', countries: ['NL'] }],
    profileUrl: 'https://professionals.example.org/hannah-vos',
  },
];

const [GENERAL_PRACTITIONER] = PROFESSIONALS as [Professional, ...Professional[]];

/**
 * A simulated professional's markdown answer to a question: about its topic (one of thirteen, read
 * in the language it is answered in, else in any of the six), in the member's language (see
 * `answerLanguage`), from a professional whose role fits the topic. A follow-up with no topic of its
 * own ("Is it contagious?") is answered on the topic of the questions before it in the
 * consultation (`earlier`, oldest first); one with none at all gets general advice.
 */
export function answerFor(
  question: string,
  memberLanguage?: string,
  earlier: readonly string[] = [],
): { answer: string; professional: Professional; language: AnswerLanguage; topic: TopicName | 'general' } {
  const language = answerLanguage(question, memberLanguage);
  const topic =
    topicOf(question, language) ??
    earlier.map((before) => topicOf(before, answerLanguage(before, memberLanguage))).find(Boolean);
  const answers = language === 'en' ? ENGLISH : OTHER_LANGUAGES[language];
  const professional = PROFESSIONALS[topic?.professional ?? 0] ?? GENERAL_PRACTITIONER;
  const name = topic?.name ?? 'general';
  return { answer: answers[name], professional, language, topic: name };
}

/** Whom a question would go to, for claiming. */
export function professionalFor(question: string, memberLanguage?: string): Professional {
  return answerFor(question, memberLanguage).professional;
}
