/**
 * consult-elements: the npm entry for browsers and Node. It registers nothing and has no side
 * effects (import `consult-elements/define` or load the script-tag bundle for that). Server code
 * has entries of its own (`consult-elements/proxy`, `consult-elements/sandbox`), so none of it
 * reaches a browser bundle.
 */
export * from './client/index.js';
export { ConsultSession } from './elements/consult-session/consult-session.js';
export { ConsultForm } from './elements/consult-form/consult-form.js';
export { CaseHistory } from './elements/case-history/case-history.js';
export { ConsultThread } from './elements/consult-thread/consult-thread.js';
export { NavigatorChat } from './elements/navigator-chat/navigator-chat.js';
export { ConsultAccess, type AccessState } from './elements/consult-access/consult-access.js';
export { PrescriptionRequest } from './elements/prescription-request/prescription-request.js';
export type {
  LocalizedText,
  Survey,
  SurveyAnswer,
  SurveyOption,
  SurveyQuestion,
} from './elements/prescription-request/survey.js';
export { ConsultElement } from './elements/shared/consult-element.js';
export { SessionElement } from './elements/shared/session-element.js';
export {
  SessionManager,
  type SessionGrant,
  type SessionOptions,
  type SessionUser,
} from './session/session.js';
export * from './elements/shared/events.js';
export {
  LANGUAGES,
  loadLanguage,
  registerTranslation,
  type Language,
  type Translation,
  type TranslationOverride,
} from './elements/shared/localize.js';
export { VERSION } from './version.js';
