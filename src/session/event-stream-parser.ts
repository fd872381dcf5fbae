/**
 * A `text/event-stream` parser as the HTML standard defines it, for the fields the elements read:
 * `event`, `data` and `id` (`retry` and comments are skipped). Text goes in as it arrives, split
 * anywhere; each event comes out when its blank line does. Small, since every page loads it.
 */
export interface StreamEvent {
  /** The event's `id` field, when it had one. */
  id?: string;
  /** Its `event` field; none (or an empty one) is a `message`. */
  event?: string;
  data: string;
}

/** Returns `feed`, to be called with each piece of the stream's text in order. */
export function eventStreamParser(onEvent: (event: StreamEvent) => void): (text: string) => void {
  let unread = '';
  let started = false;
  let data: string[] | undefined;
  let event = '';
  let id: string | undefined;
  const line = (text: string) => {
    if (text === '') {
      // An event with no data line is dropped, as the standard says.
      if (data) onEvent({ ...(id !== undefined && { id }), ...(event && { event }), data: data.join('\n') });
      data = id = undefined;
      event = '';
      return;
    }
    const colon = text.indexOf(':');
    if (colon === 0) return;
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? '' : text.slice(text[colon + 1] === ' ' ? colon + 2 : colon + 1);
    if (field === 'data') (data ??= []).push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) id = value;
  };
  return (text) => {
    unread += text;
    if (!started && unread) {
      started = true;
      if (unread.startsWith('\ufeff')) unread = unread.slice(1);
    }
    // A CR at the end may be the first half of a CRLF: it waits for what follows.
    const lines = unread.split(/\r\n|\r(?!$)|\n/);
    unread = lines.pop() ?? '';
    for (const text of lines) line(text);
  };
}
