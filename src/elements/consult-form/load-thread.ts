/**
 * The thread the form shows once a question is sent. In the script-tag build it is in a chunk of its
 * own (with the list and the navigator: vite.config.ts), asked for once the page is idle after the
 * form is registered, so a member waits for none of it to type; the classic
 * script carries it in its one file (src/classic/load-thread.ts stands in for this module there).
 */
import type { ConsultThread } from '../consult-thread/consult-thread.js';

export const loadThread = (): Promise<typeof ConsultThread> =>
  import('../consult-thread/consult-thread.js').then((module) => module.ConsultThread);
