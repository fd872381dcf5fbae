/**
 * The English of `<navigator-chat>`, in its own chunk: a page without it does not load these words.
 * Part of the English translation (`./en.ts`); what a thread says on a page with no question form is
 * in `./en-core.ts`, as the navigator's hand-over says it too.
 */
export const navigator = {
  logLabel: 'Conversation with the health navigator',
  welcome:
    'Ask the health navigator a general health question, or where to find the right care. It does not replace a doctor.',
  examples: 'You could ask:',
  suggestion1: 'How much exercise should I get?',
  suggestion2: 'How can I sleep better?',
  suggestion3: 'Which vaccines do I need before travelling?',
  restored: 'This is a new conversation: earlier messages are not shown again after the page reloads.',
  you: 'You',
  navigator: 'Health navigator',
  sending: 'Sending…',
  notSent: 'Not sent.',
  retry: 'Retry',
  typing: 'The navigator is typing…',
  urgent: 'Urgent: if you are in danger, call your local emergency number now.',
  askDoctor: 'Ask a doctor about this',
  noPlan: 'Questions to a doctor are not part of your plan.',
  handedOver: 'Your message is now in the question form.',
  inputLabel: 'Message to the health navigator',
  earlier: 'Earlier messages',
  keyHint: 'Enter sends, Shift+Enter starts a new line.',
  send: 'Send',
  charactersLeft: { one: '{count} character left', other: '{count} characters left' },
  tooLong: { one: '{count} character too many', other: '{count} characters too many' },
  shorten: 'Messages can have up to {max} characters. Please shorten yours to send it.',
  empty: 'Write a message first.',
  wait: 'Please wait for the reply before sending your next message.',
  connecting: 'Connecting to the health navigator…',
  unavailable: 'The health navigator is not available right now.',
  tryAgain: 'Try again',
  unconfigured: 'The health navigator is not set up on this page.',
  urgentTitle: 'Urgent',
  urgentCall: 'Urgent: if you are in danger, call {number} now.',
  call: 'Call {number}',
  callLocal: 'Call your local emergency number now',
} as const;
