/**
 * The markdown renderer's two libraries as one file: a chunk of the module build, loaded on first
 * use (one request, and smaller compressed together than apart), and the classic script's second
 * file, `consult-elements.classic.markdown.js`, which leaves them on `window.ConsultElementsMarkdown`.
 */
export { Marked } from 'marked';
export { default as createDOMPurify } from 'dompurify';
