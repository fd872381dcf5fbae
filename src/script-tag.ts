/**
 * The script-tag entry as the build writes it (`dist/browser/consult-elements.js`): the loader of
 * src/define.ts, carrying with it the code of the messaging elements and all they share (Lit, the
 * session, the client). A page that names the loader can then show them after two round trips (the
 * HTML, then this file), where a loader that fetched them in a second wave took three. The plan's
 * and prescriptions' elements, the other languages, the markdown renderer and the console's words
 * stay chunks of their own, fetched when a page needs them.
 *
 * Exporting the classes keeps their code in this file: the loader's `import()` of one then finds
 * it already here.
 */
export * from './define.js';
export { CaseHistory } from './elements/case-history/case-history.js';
export { ConsultForm } from './elements/consult-form/consult-form.js';
export { ConsultSession } from './elements/consult-session/consult-session.js';
export { ConsultThread } from './elements/consult-thread/consult-thread.js';
export { NavigatorChat } from './elements/navigator-chat/navigator-chat.js';
