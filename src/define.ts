/**
 * The script-tag entry: registers every element under its tag name. A partner page that already
 * uses one of these names can import the classes from the npm entry instead and register them
 * under other names: `CaseHistory.define('acme-case-history')`.
 */
import { CaseHistory } from './elements/case-history/case-history.js';
import { ConsultForm } from './elements/consult-form/consult-form.js';
import { ConsultSession } from './elements/consult-session/consult-session.js';
import { ConsultThread } from './elements/consult-thread/consult-thread.js';
import { NavigatorChat } from './elements/navigator-chat/navigator-chat.js';

ConsultSession.define('consult-session');
ConsultThread.define('consult-thread');
ConsultForm.define('consult-form');
CaseHistory.define('case-history');
NavigatorChat.define('navigator-chat');

declare global {
  interface HTMLElementTagNameMap {
    'consult-session': ConsultSession;
    'consult-thread': ConsultThread;
    'consult-form': ConsultForm;
    'case-history': CaseHistory;
    'navigator-chat': NavigatorChat;
  }
}

export * from './index.js';
