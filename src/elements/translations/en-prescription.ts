/**
 * The English of `<prescription-request>`, in its own chunk: a page without it does not load these
 * words. Part of the English translation (`./en.ts`).
 */
export const prescription = {
  formLabel: 'Request a prescription',
  optional: '(optional)',
  yes: 'Yes',
  no: 'No',
  submit: 'Send request',
  sending: 'Sending…',
  sent: 'Your prescription request was sent',
  sentNote: 'The service has your request, reference {id}. Its progress is not shown here.',
  another: 'Request another prescription',
  sendFailed: 'Your request could not be sent. Please try again; your answers are kept.',
  noSubscription: 'Prescription requests are not included in your plan.',
  inactive: 'Your account is not active, so requests cannot be sent.',
  required: 'Please answer this question.',
  tooLong: 'This answer is too long: shorten it to {max} characters or fewer.',
  invalid: { one: 'One question needs your attention.', other: '{count} questions need your attention.' },
  charactersLeft: { one: '{count} character left', other: '{count} characters left' },
  unavailable: 'Prescription requests are not available here right now.',
  charactersOver: { one: '{count} character too many', other: '{count} characters too many' },
  reference: 'Reference {id}',
  yourRequests: 'Requests you sent',
} as const;
