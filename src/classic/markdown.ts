/**
 * The classic script's second file, `dist/browser/consult-elements.classic.markdown.js`: marked and
 * DOMPurify, which the main classic script loads beside itself when it first shows an answer
 * (src/classic/markdown-libraries.ts). It only leaves them on `window.ConsultElementsMarkdown`.
 */
import { Marked } from 'marked';
import createDOMPurify from 'dompurify';

export { Marked, createDOMPurify };
