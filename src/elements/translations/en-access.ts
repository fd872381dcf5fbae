/**
 * The English of `<consult-access>`, in its own chunk: a page without it does not load these words.
 * Part of the English translation (`./en.ts`).
 */
export const access = {
  loading: 'Checking your plan…',
  loadFailed: 'We could not check your plan.',
  retry: 'Try again',
  included: 'Questions to a doctor are included in your plan',
  notIncluded: 'Questions to a doctor are not included in your plan',
  active: 'Your plan runs until {date}.',
  expiring: {
    one: 'Your plan ends on {date}, in {count} day.',
    other: 'Your plan ends on {date}, in {count} days.',
  },
  canceled: 'Your plan was canceled on {date}.',
  expired: 'Your plan ended on {date}.',
  none: 'You do not have a plan that includes them yet.',
  inactive: 'Your account is not active. Please contact us to activate it.',
  renewed: 'Renewed from',
  period: '{start} to {end}',
} as const;
