/**
 * Said on the console when the page's Content Security Policy requires Trusted Types without
 * naming the elements' policies. Its own module: the loader says it too, and must not carry the rest.
 */
export const TRUSTED_TYPES_MISSING =
  'the page’s Content Security Policy does not allow the Trusted Types policies the elements use: ' +
  'add "trusted-types lit-html dompurify" to it (beside "require-trusted-types-for \'script\'").';
