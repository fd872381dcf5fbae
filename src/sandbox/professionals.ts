import type { Professional } from '../client/types.js';
import { ENGLISH } from './answers/english.js';
import { OTHER_LANGUAGES } from './answers/other-languages.js';
import { answerLanguage, topicOf, type AnswerLanguage } from './answers/topics.js';

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
 * A simulated professional's markdown answer to a question: about its topic (one of twelve, in
 * any of the six languages, else general advice), in the member's language (see `answerLanguage`),
 * from a professional whose role fits the topic.
 */
export function answerFor(
  question: string,
  memberLanguage?: string,
): { answer: string; professional: Professional; language: AnswerLanguage } {
  const topic = topicOf(question);
  const language = answerLanguage(question, memberLanguage);
  const answers = language === 'en' ? ENGLISH : OTHER_LANGUAGES[language];
  const professional = PROFESSIONALS[topic?.professional ?? 0] ?? GENERAL_PRACTITIONER;
  return { answer: answers[topic?.name ?? 'general'], professional, language };
}

/** Whom a question would go to, for claiming. */
export function professionalFor(question: string): Professional {
  return answerFor(question).professional;
}
