/**
 * The live stream's parser in the classic script: one file holds everything, so it is there from
 * the start (src/session/load-stream-parser.ts loads it as a chunk elsewhere).
 */
import * as eventsourceParser from 'eventsource-parser';

export const loadStreamParser = (): Promise<typeof eventsourceParser> => Promise.resolve(eventsourceParser);
