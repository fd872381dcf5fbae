/**
 * The page's link to the service, for the member state: whether the service answers
 * (`connection.ts`) and how answers reach the page (`delivery.ts`: the live stream, or polling).
 * The session and its live stream tell it what they hear (a request failed or was answered, the
 * browser is online again, the stream opened, the proxy pushes or not, the page was hidden); the
 * member state sends its reads and writes through it and tells it when a record changed.
 * Elements read only `MemberState.connection`.
 */
import { ConnectionState, type Connection } from './connection.js';
import { AnswerDelivery, type Delivery, type DeliveryOptions } from './delivery.js';
import type { MemberClient, Timer } from './state-basics.js';
import { keyedWrite } from './writes.js';

export interface ServiceLinkOptions extends Pick<
  DeliveryOptions,
  'pace' | 'visible' | 'anyWaiting' | 'waiting' | 'read'
> {
  /** The client to call, read at each call. */
  client: () => MemberClient;
  timer: Timer;
  /** The member's scope now. */
  scope(): AbortSignal;
  /** The member whose subscriptions a check of the connection reads; none: nothing is checked. */
  memberId(): string | undefined;
  /** The connection is back: what could not be read is read now. */
  back(): void;
  /** The connection or the delivery changed: the page renders again. */
  changed(): void;
}

type Run<T> = (client: MemberClient, signal: AbortSignal) => Promise<T>;

export class ServiceLink {
  readonly #connection: ConnectionState;
  readonly #delivery: AnswerDelivery;

  constructor(options: ServiceLinkOptions) {
    const { client, timer, scope, memberId, back, changed } = options;
    this.#connection = new ConnectionState({
      client,
      scope,
      timer,
      changed,
      memberId,
      watched: () => this.#delivery.watched,
      back,
    });
    this.#delivery = new AnswerDelivery({
      pace: options.pace,
      visible: options.visible,
      timer,
      anyWaiting: options.anyWaiting,
      waiting: options.waiting,
      read: options.read,
      scope,
      changed,
    });
  }

  /** Whether the service answers now. */
  get connection(): Connection {
    return this.#connection.status;
  }

  /** Sign-in reached the service, or did not: the one "Reconnecting…" notice shows until it does. */
  setReachable(reachable: boolean): void {
    this.#connection.set(reachable ? 'online' : 'reconnecting');
  }

  /**
   * A request to the proxy found nothing to answer it: the connection is lost unless one is
   * answered soon. The live stream's alone is checked with a read at once.
   */
  requestFailed(what: 'request' | 'stream' = 'request'): void {
    this.#connection.requestFailed(what);
  }

  /** A request to the proxy was answered. */
  requestAnswered(): void {
    this.#connection.requestAnswered();
  }

  /** Checks the connection now (the browser says it is online again). */
  reconnect(): void {
    this.#connection.reconnect();
  }

  /** The live stream opened or closed. */
  setLive(live: boolean): void {
    this.#delivery.setLive(live);
  }

  /** The proxy said whether it pushes answers (it has a webhook) or the page must poll. */
  setDelivery(delivery: Delivery): void {
    this.#delivery.setDelivery(delivery);
  }

  /** Whether the live stream is open. */
  get live(): boolean {
    return this.#delivery.live;
  }

  /** How answers reach the page now. */
  get delivery(): Delivery {
    return this.#delivery.delivery;
  }

  /** An element shows consultations: while anyone watches, they are kept current. Answers the unwatch function. */
  watch(): () => void {
    return this.#delivery.watch();
  }

  /** The page became visible or hidden: polling follows. */
  visibilityChanged(): void {
    this.#delivery.schedule();
  }

  /** One read for the member, in their scope; whether it reached the service sets the connection. */
  call<T>(run: Run<T>): Promise<T> {
    return this.#connection.call(run);
  }

  /** A keyed write that waits out a lost connection (see `writes.keyedWrite`). */
  send<T>(run: Run<T>, signal?: AbortSignal): Promise<T> {
    return keyedWrite(this.#connection, run, signal);
  }

  /** A keyed write of the member's; once it went through, polling comes soon again, an answer may follow. */
  async write<T>(run: Run<T>, signal?: AbortSignal): Promise<T> {
    const value = await this.send(run, signal);
    this.#delivery.quicken();
    return value;
  }

  /** A record changed: the next poll comes soon again. */
  recordChanged(): void {
    this.#delivery.noteChange();
  }

  /** What waits for an answer, or who watches, may have changed: polling starts, stops or keeps its pace. */
  schedule(): void {
    this.#delivery.schedule();
  }

  /** Another member: what they do starts online, and polling starts over at the first pace. */
  reset(): void {
    this.#connection.reset();
    this.#delivery.reset();
  }

  /** Stops polling and checking for good (the session is gone). */
  stop(): void {
    this.#delivery.stop();
    this.#connection.stop();
  }
}
