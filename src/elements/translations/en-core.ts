/**
 * The English the script-tag loader carries: the words of `<consult-session>` and `<consult-form>`,
 * and those the other elements share. Each other element carries its own (`./en-thread.ts`,
 * `./en-history.ts`, `./en-navigator.ts`, `./en-access.ts`, `./en-prescription.ts`); `./en.ts` is
 * the whole English translation.
 */
const en = {
  $code: 'en',
  $name: 'English',
  $dir: 'ltr',
  session: {
    expired: 'Your session has ended. Please sign in again to continue.',
    signedOut: 'You have signed out. Sign in to see your questions to a doctor.',
    signIn: 'Sign in again',
    signInFailed: 'We could not sign you in.',
    answeredBy: '{name}, {title}, answered your question',
    answeredByName: '{name} answered your question',
    answered: 'Your question has been answered',
    reconnecting:
      'Reconnecting… What you see is kept, and anything you send goes out once the connection is back.',
    waitingToSend: 'Waiting to send…',
    cancelSend: 'Cancel sending',
    notSignedIn: 'Please sign in to see your questions to a doctor.',
    signInFirst: 'Sign in',
  },
  answer: {
    imageOmitted: 'Image not shown',
  },
  status: {
    statusLabel: 'Status:',
    open: 'Open',
    claimed: 'In progress',
    resolved: 'Answered',
    canceled: 'Canceled',
    closed: 'Closed',
  },
  form: {
    checking: 'Checking your plan before you can send…',
    loadFailed: 'We could not check your plan.',
    retry: 'Try again',
    formLabel: 'Ask a doctor',
    emergency:
      'If this is an emergency, call your local emergency number now. Questions here are answered in writing, not straight away.',
    firstLabel: 'Your question',
    hint: 'Say what worries you, since when, and which medicines you take.',
    counter: { one: '{count} of {max} questions', other: '{count} of {max} questions' },
    noneLeft: 'none left to add',
    moreLeft: { one: '{count} more possible', other: '{count} more possible' },
    addQuestion: 'Add another question',
    remove: 'Remove',
    charactersLeft: { one: '{count} character left', other: '{count} characters left' },
    charactersOver: { one: '{count} character too many', other: '{count} characters too many' },
    tooLong: 'This question is too long: shorten it to {max} characters or fewer.',
    emptyFirst: 'Write your question before sending.',
    emptyExtra: 'Write this question, or remove it.',
    invalid: { one: 'One question needs your attention.', other: '{count} questions need your attention.' },
    submit: 'Send to a doctor',
    sending: 'Sending…',
    sendingStatus: 'Sending your question…',
    sendFailed: 'Your question could not be sent. Your text is kept; please try again.',
    sendFailedNetwork:
      'The connection was lost before we heard back. Your text is kept, and trying again will not send it twice.',
    sent: 'Your question was sent. A doctor will answer here.',
    sentListed: 'Your question was sent. You will find it, and the answer, in your consultations.',
    threadFailed: 'We could not show your question and its answer here.',
    openSent: 'Open your question',
    askAnother: 'Ask another question',
    noSubscription: 'Your plan does not include questions to a doctor at the moment.',
    inactiveTitle: 'Account not active',
    inactive:
      'Your account is not active, so you cannot ask a doctor right now. Please contact your health partner.',
    draftRestored: 'Your unsent draft was restored.',
    removed: 'Question removed.',
    extraLabel: 'Question {number}',
    removeLabel: 'Remove question {number}',
    noSubscriptionTitle: 'Not included in your plan',
  },
  history: {
    untitled: 'Consultation without a question',
  },
  navigator: {
    noForm:
      'There is no question form on this page. You can ask a doctor from the consultations section of this site.',
  },
  notify: {
    offer: 'Tell me on this device when a doctor answers',
    offerNote: 'We only say that an answer is waiting, never what it says.',
    notNow: 'Not now',
    declined: 'We will not ask again on this device.',
    on: 'You will be told on this device when a doctor answers.',
    turnOff: 'Turn off',
    byService: 'Also tell me by e-mail or text message when a doctor answers',
  },
} as const;

export default en;
