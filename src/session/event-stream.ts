/**
 * The member's live event stream, `GET {endpoint}/events`: a fetch stream with the Authorization
 * header (never a token in a URL), parsed by eventsource-parser, reopened after a drop with the
 * client's jittered exponential backoff, asking the proxy to replay what it missed
 * (`Last-Event-ID`). The session owns one and opens it while anyone listens.
 */
import type { createParser as CreateParser } from 'eventsource-parser';
import { backoffDelay } from '../client/retry.js';
import { loadStreamParser } from './load-stream-parser.js';

export interface EventStreamOptions {
  /** The stream's URL. */
  url(): string;
  /** A token to open it with; rejects when there is no session to be had. */
  token(): Promise<string>;
  fetch(url: string, init: RequestInit): Promise<Response>;
  /** The proxy refused the token: answers whether to try again (with a new one) or stop. */
  refused(): boolean;
  /** An event arrived; the returned promise settles when the event has been handled. */
  onEvent(name: string, data: string): Promise<void> | void;
  /** The stream is live (it has said something since it opened), or closed. */
  onLive(live: boolean): void;
  /**
   * The stream opened but said nothing for `silentAfterMs`: something between the page and the
   * proxy holds it back (a compressing server, a buffering proxy). The page polls meanwhile.
   */
  onSilent?(url: string): void;
  /** How long an open stream may say nothing before `onSilent`. Default 5000 ms. */
  silentAfterMs?: number;
  /**
   * Events may have been missed and cannot be replayed (the proxy said `reset`, or the stream came
   * back with no id to replay from): whoever shows data should read it again.
   */
  onResync(): void;
}

/** Reconnects wait between 0 and 1 s, 2 s, 4 s … up to 30 s. */
const BACKOFF = { baseDelayMs: 1000, maxDelayMs: 30_000 };

export class EventStream {
  readonly #options: EventStreamOptions;
  #running?: AbortController;
  /** The id of the last event received: a reconnect asks the proxy to replay what came after it. */
  #lastEventId?: string;

  constructor(options: EventStreamOptions) {
    this.#options = options;
  }

  /** Opens the stream and keeps it open until `stop()`. */
  start(): void {
    if (this.#running) return;
    const running = (this.#running = new AbortController());
    void this.#run(running.signal);
  }

  /** Closes the stream; no reconnect follows. */
  stop(): void {
    this.#running?.abort();
    this.#running = undefined;
  }

  async #run(stopped: AbortSignal): Promise<void> {
    let failures = 0;
    let opened = false;
    while (!stopped.aborted) {
      try {
        // The parser's chunk is fetched beside the token (on a page's first stream, its sign-in).
        const [token, { createParser }] = await Promise.all([this.#options.token(), loadStreamParser()]);
        stopped.throwIfAborted();
        const lastEventId = this.#lastEventId;
        const url = this.#options.url();
        const response = await this.#options.fetch(url, {
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'text/event-stream',
            ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
          },
          signal: stopped,
        });
        if (response.status === 401) {
          // The token expired between calls: try once more with a new one, unless the session has ended.
          if (!this.#options.refused()) break;
          continue;
        }
        if (!response.ok || !response.body) throw new Error(`event stream answered ${response.status}`);
        failures = 0;
        // Live only once it says something (the proxy writes a comment at once): an intermediary
        // that buffers the stream would otherwise stop the polling that stands in for it.
        const wasOpened = opened;
        opened = true;
        const silent = setTimeout(() => this.#options.onSilent?.(url), this.#options.silentAfterMs ?? 5000);
        try {
          await this.#read(createParser, response.body, stopped, () => {
            clearTimeout(silent);
            this.#options.onLive(true);
            // Back after a drop with nothing to replay from: what happened meanwhile is unknown.
            if (wasOpened && lastEventId === undefined) this.#options.onResync();
          });
        } finally {
          clearTimeout(silent);
        }
      } catch {
        if (stopped.aborted) break;
        failures++;
      } finally {
        this.#options.onLive(false);
      }
      if (failures > 0)
        await new Promise((resolve) => setTimeout(resolve, backoffDelay(failures - 1, BACKOFF, Math.random)));
    }
  }

  /** Reads the stream to its end; `heard` is called once, at its first bytes. */
  async #read(
    createParser: typeof CreateParser,
    body: ReadableStream<Uint8Array>,
    stopped: AbortSignal,
    heard: () => void,
  ): Promise<void> {
    const pending: (Promise<void> | void)[] = [];
    let silent = true;
    const parser = createParser({
      onEvent: (event) => {
        if (event.id !== undefined) this.#lastEventId = event.id;
        if (event.event === 'reset') return this.#options.onResync();
        pending.push(this.#options.onEvent(event.event ?? 'message', event.data));
      },
    });
    const reader = body.getReader();
    const decoder = new TextDecoder();
    stopped.addEventListener('abort', () => void reader.cancel().catch(() => undefined));
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (silent && value.byteLength > 0) {
        silent = false;
        heard();
      }
      parser.feed(decoder.decode(value, { stream: true }));
    }
    await Promise.allSettled(pending);
  }
}
