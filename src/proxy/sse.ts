/**
 * A server-sent event response, as Hono's `streamSSE` makes one (the same headers, with those of
 * `eventStream`, message format and error handling), with much less held per open stream. Writes
 * are sent in order at once and never reject; after the client left (or the stream closed) they
 * are dropped. Where the text goes is decided when the response is sent:
 * - into the response's body (a ReadableStream read by the runtime), wherever the proxy runs;
 * - straight into Node's own response, when the server in front knows to hand it over
 *   ({@link sendTo}; `startProxyServer` does): no stream, reader or pump is then held per stream.
 * `streamSSE` puts a TransformStream and a second ReadableStream, with their readers, writers and
 * promises, between the writes and the response: about 13 KiB of heap for each stream held open.
 */
import { eventStream } from './http.js';

const encoder = new TextEncoder();

/**
 * The stream behind the body of a response made by {@link sseResponse}. On the body, not the
 * response: a middleware that adds a header after the route (Hono's CORS, `c.header()`) makes a
 * new response around the same body.
 */
const EVENT_STREAM = Symbol('consult.eventStream');

type TaggedBody = ReadableStream<Uint8Array> & { [EVENT_STREAM]?: SSEStream };

export interface SSEMessage {
  data: string;
  event?: string;
  id?: string;
  retry?: number;
}

/** Where a stream's text goes once its response is sent: its body, or Node's own response. */
export interface SSETarget {
  write(text: string): unknown;
  end(): unknown;
}

/** The lines of one message, as the event-stream format has them. */
export function formatSSE(message: SSEMessage): string {
  for (const key of ['event', 'id'] as const) {
    if (/[\r\n]/.test(message[key] ?? '')) throw new Error(`${key} must not contain "\\r" or "\\n"`);
  }
  let text = message.event ? `event: ${message.event}\n` : '';
  for (const line of message.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  if (message.id !== undefined) text += `id: ${message.id}\n`;
  if (message.retry !== undefined) text += `retry: ${message.retry}\n`;
  return `${text}\n`;
}

export class SSEStream {
  /** Whether the client went away. */
  aborted = false;
  /** Whether the stream was closed by this end. */
  closed = false;
  /** Text written before the response is sent, given to whichever way it goes then. */
  #pending: string[] | undefined = [];
  #target: SSETarget | undefined;
  #onAbort: (() => void) | undefined;

  /** Sends `text` as it is (a comment line, say). */
  write(text: string): void {
    if (this.closed || this.aborted) return;
    if (this.#target) this.#target.write(text);
    else this.#pending?.push(text);
  }

  writeSSE(message: SSEMessage): void {
    this.write(formatSSE(message));
  }

  /** Calls `listener` once the client has gone away (one listener: the stream's owner). */
  onAbort(listener: () => void): void {
    this.#onAbort = listener;
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listener = this.#onAbort;
    this.#onAbort = undefined;
    try {
      listener?.();
    } catch {
      // Heard where the client left (a socket's close, a cancel): nothing there can take a failure.
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.#onAbort = undefined;
    this.#target?.end();
  }

  /**
   * Where the text goes from now on (once only): what was written so far, then every write. On
   * Node, `startProxyServer` hands Node's response itself here, and the body is never read.
   */
  sendTo(target: SSETarget): void {
    if (this.#target) throw new Error('This event stream is being sent already.');
    this.#target = target;
    for (const text of this.#pending ?? []) target.write(text);
    this.#pending = undefined;
    if (this.closed) target.end();
  }

  /** Whether the text has somewhere to go yet (the body is being read, or Node's response took it). */
  get sending(): boolean {
    return this.#target !== undefined;
  }

  /**
   * The response's body, which takes the text from when the runtime first reads it.
   * `request`'s abort signal also ends the stream, where a runtime says so that way.
   */
  readable(request?: Request): ReadableStream<Uint8Array> {
    const body: TaggedBody = new ReadableStream<Uint8Array>(
      {
        pull: (controller) => {
          if (this.#target) return;
          this.sendTo({
            write: (text) => {
              try {
                controller.enqueue(encoder.encode(text));
              } catch {
                // Already closed underneath (the client left as this was written): dropped.
              }
            },
            end: () => {
              try {
                controller.close();
              } catch {
                // Already cancelled by the client.
              }
            },
          });
          const signal = request?.signal;
          if (signal?.aborted) this.abort();
          else signal?.addEventListener('abort', () => this.abort(), { once: true });
        },
        cancel: () => {
          if (!this.closed) this.abort();
        },
      },
      // Nothing is pulled until the runtime reads: a stream sent to Node's response never is.
      { highWaterMark: 0 },
    );
    body[EVENT_STREAM] = this;
    return body;
  }
}

/** The event stream behind `response`, when {@link sseResponse} made it. */
export const eventStreamOf = (response: Response): SSEStream | undefined =>
  (response.body as TaggedBody | null)?.[EVENT_STREAM];

/**
 * Answers with an event stream that `run` writes to; when `run` throws, `onError` hears it and the
 * stream ends with an `error` event. The stream closes when `run` is done. `request`, when given,
 * is the request whose abort signal also tells the stream its client left; `http2`, that it came
 * over HTTP/2, whose responses must not name `Connection` or `Transfer-Encoding`.
 */
export function sseResponse(
  run: (stream: SSEStream) => Promise<void>,
  onError?: (error: Error, stream: SSEStream) => void | Promise<void>,
  request?: Request,
  http2 = false,
): Response {
  const stream = new SSEStream();
  // Chained rather than awaited: no suspended function is held for as long as the stream is open.
  void run(stream).then(
    () => stream.close(),
    async (error: unknown) => {
      try {
        if (error instanceof Error && onError) {
          await onError(error, stream);
          stream.writeSSE({ event: 'error', data: error.message });
        } else console.error(error);
      } finally {
        stream.close();
      }
    },
  );
  return eventStream(stream.readable(request), http2);
}
