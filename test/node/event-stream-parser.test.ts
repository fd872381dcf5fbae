/**
 * The event-stream parser the elements' live stream uses (src/session/event-stream-parser.ts): the
 * HTML standard's rules for the fields they read, with the text split at every possible place.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventStreamParser, type StreamEvent } from '../../src/session/event-stream-parser.js';

/** The events `stream` gives when it arrives in `pieces` of the given sizes (all at once by default). */
function parse(stream: string, splitAt: number[] = []): StreamEvent[] {
  const events: StreamEvent[] = [];
  const feed = eventStreamParser((event) => events.push(event));
  let from = 0;
  for (const at of [...splitAt, stream.length]) {
    feed(stream.slice(from, at));
    from = at;
  }
  return events;
}

/** The same events whichever two places the text is cut at. */
function parseEverySplit(stream: string): StreamEvent[] {
  const whole = parse(stream);
  for (let first = 0; first <= stream.length; first++) {
    for (let second = first; second <= stream.length; second++) {
      assert.deepEqual(parse(stream, [first, second]), whole, `cut at ${first} and ${second}`);
    }
  }
  return whole;
}

describe('the event-stream parser', () => {
  it('gives each event with its name, data and id, whatever the line endings and wherever the text is cut', () => {
    for (const newline of ['\n', '\r\n', '\r']) {
      const stream = [
        'event: changed',
        'id: 7',
        'data: {"a":1}',
        '',
        'data: plain',
        '',
        // What follows shows that the CR before it ended a line.
        ': next',
      ].join(newline);
      assert.deepEqual(parseEverySplit(stream), [
        { id: '7', event: 'changed', data: '{"a":1}' },
        { data: 'plain' },
      ]);
    }
  });

  it('joins data lines with newlines, keeps a second space, and treats a field without a colon as empty', () => {
    assert.deepEqual(parseEverySplit('data:one\ndata:  two\ndata\n\n'), [{ data: 'one\n two\n' }]);
  });

  it('skips comments, retry and unknown fields; drops an event without data; an empty name is a message', () => {
    assert.deepEqual(
      parseEverySplit(': keep-alive\nretry: 1000\nfoo: bar\nevent: ping\n\nevent:\ndata: x\n\n'),
      [{ data: 'x' }],
    );
  });

  it('ignores a leading byte order mark and an id with a NUL, and gives nothing before the blank line', () => {
    assert.deepEqual(parse('\ufeffid: a\0b\ndata: x\n\n'), [{ data: 'x' }]);
    assert.deepEqual(parse('data: not yet\n'), []);
    assert.deepEqual(parse('data: not yet\r'), [], 'a CR at the end waits for what follows');
  });
});
