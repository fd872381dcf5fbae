/**
 * What a notification says, in the six languages the elements ship: that there is news, never
 * what it is (docs/security.md S28). The service worker chooses from these; the push names only
 * the kind and the language.
 */
export const PUSH_WORDS = {
  en: {
    answer: { title: 'You have a new answer', body: 'Tap to read it.' },
    closed: { title: 'Your consultation was closed', body: 'Tap to see it.' },
  },
  de: {
    answer: { title: 'Sie haben eine neue Antwort', body: 'Tippen Sie, um sie zu lesen.' },
    closed: { title: 'Ihre Konsultation wurde abgeschlossen', body: 'Tippen Sie, um sie anzusehen.' },
  },
  fr: {
    answer: { title: 'Vous avez une nouvelle réponse', body: 'Touchez pour la lire.' },
    closed: { title: 'Votre consultation a été clôturée', body: 'Touchez pour la voir.' },
  },
  es: {
    answer: { title: 'Tienes una nueva respuesta', body: 'Toca para leerla.' },
    closed: { title: 'Tu consulta se ha cerrado', body: 'Toca para verla.' },
  },
  nl: {
    answer: { title: 'U hebt een nieuw antwoord', body: 'Tik om het te lezen.' },
    closed: { title: 'Uw consult is afgesloten', body: 'Tik om het te bekijken.' },
  },
  ar: {
    answer: { title: 'لديك إجابة جديدة', body: 'انقر لقراءتها.' },
    closed: { title: 'تم إغلاق استشارتك', body: 'انقر لعرضها.' },
  },
} as const;

export type PushLanguage = keyof typeof PUSH_WORDS;
export type PushKind = keyof (typeof PUSH_WORDS)['en'];
