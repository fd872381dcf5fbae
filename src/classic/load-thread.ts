/**
 * The form's thread in the classic script: one file holds every element, so the thread is there
 * from the start (src/elements/consult-form/load-thread.ts loads it as a chunk elsewhere).
 */
import { ConsultThread } from '../elements/consult-thread/consult-thread.js';

export const loadThread = (): Promise<typeof ConsultThread> => Promise.resolve(ConsultThread);
