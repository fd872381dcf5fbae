/**
 * A server-sent event response, as Hono's `streamSSE` makes one (the same headers, with those of
 * `eventStream`, message format and error handling) over a single ReadableStream that the stream's writes go into. `streamSSE`
 * puts a TransformStream and a second ReadableStream, with their readers, writers and promises,
 * between the writes and the response: about 13 KiB of heap for each stream held open, which this
 * does not keep. Writes are queued in order at once and never reject; after the client left (or
 * the stream closed) they are dropped.
 */
import { eventStream } from './http.js';

const encoder = new TextEncoder();

export interface SSEMessage {
  data: string;
  event?: string;
  id?: string;
  retry?: number;
}

export class SSEStream {
  /** Whether the client went away (the response body was cancelled). */
  aborted = false;
  /** Whether the stream was closed by this end. */
  closed = false;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #abortListeners: (() => void)[] = [];
  readonly body: ReadableStream<Uint8Array>;

  constructor() {
    this.body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => {
        if (!this.closed) this.abort();
      },
    });
  }

  async write(text: string): Promise<this> {
    if (!this.closed && !this.aborted) {
      try {
        this.#controller?.enqueue(encoder.encode(text));
      } catch {
        // Already closed underneath (the client left as this was written): dropped.
      }
    }
    return this;
  }

  async writeSSE(message: SSEMessage): Promise<void> {
    const data = message.data
      .split(/\r\n|\r|\n/)
      .map((line) => `data: ${line}`)
      .join('\n');
    for (const key of ['event', 'id'] as const) {
      if (message[key] && /[\r\n]/.test(message[key]))
        throw new Error(`${key} must not contain "\\r" or "\\n"`);
    }
    const text =
      [
        message.event && `event: ${message.event}`,
        data,
        message.id !== undefined && `id: ${message.id}`,
        message.retry !== undefined && `retry: ${message.retry}`,
      ]
        .filter(Boolean)
        .join('\n') + '\n\n';
    await this.write(text);
  }

  /** Calls `listener` once the client has gone away. */
  onAbort(listener: () => void): void {
    this.#abortListeners.push(listener);
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listeners = this.#abortListeners;
    this.#abortListeners = [];
    for (const listener of listeners) {
      try {
        listener();
      } catch {
        // One listener's failure does not keep the others from hearing it.
      }
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.#abortListeners = [];
    try {
      this.#controller?.close();
    } catch {
      // Already cancelled by the client.
    }
  }
}

/**
 * Answers with an event stream that `run` writes to; when `run` throws, `onError` hears it and the
 * stream ends with an `error` event. The stream closes when `run` is done.
 */
export function sseResponse(
  run: (stream: SSEStream) => Promise<void>,
  onError?: (error: Error, stream: SSEStream) => Promise<void>,
): Response {
  const stream = new SSEStream();
  void (async () => {
    try {
      await run(stream);
    } catch (error) {
      if (error instanceof Error && onError) {
        await onError(error, stream);
        await stream.writeSSE({ event: 'error', data: error.message });
      } else console.error(error);
    } finally {
      stream.close();
    }
  })();
  return eventStream(stream.body);
}
