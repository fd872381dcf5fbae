/**
 * consult-elements: the npm entry for browsers and Node. It registers nothing and has no side
 * effects. Server code has entries of its own (`consult-elements/sandbox`), so none of it reaches a
 * browser bundle.
 */
export * from './client/index.js';
