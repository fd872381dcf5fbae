/**
 * The English of `<case-history>`, in its own chunk: a page without it does not load these words.
 * Part of the English translation (`./en.ts`); the name of a consultation without a question is in
 * `./en-core.ts`, as a thread shows it too.
 */
export const history = {
  loading: 'Loading your consultations…',
  loadFailed: 'We could not load your consultations.',
  retry: 'Try again',
  empty: 'You have not asked a doctor yet.',
  list: 'Your consultations',
  questions: '{used} of {max} questions',
  showMore: { one: 'Show more ({count} left)', other: 'Show more ({count} left)' },
  back: 'Back to all consultations',
  newAnswer: 'New answer',
  unread: { one: '{count} new answer', other: '{count} new answers' },
  you: 'You',
  /** Who wrote a row's latest message, when it is an answer without the professional's name. */
  answer: 'Answer',
  waitingForProfessional: 'Waiting for a professional',
  askedAt: 'asked {time}',
} as const;
