/**
 * The live stream's parser (eventsource-parser). In the script-tag build it is in the chunk of the
 * elements that watch (the thread, the list: vite.config.ts), asked for when a stream first opens,
 * beside its token, so the loader does not carry it; the classic script carries it in its one file (src/classic/load-stream-parser.ts
 * stands in for this module there). A failed load is asked for again at the next try.
 */
import type * as EventsourceParser from 'eventsource-parser';

let parser: Promise<typeof EventsourceParser> | undefined;

export const loadStreamParser = (): Promise<typeof EventsourceParser> =>
  (parser ??= import('eventsource-parser').catch((error: unknown) => {
    parser = undefined;
    throw error;
  }));
