/**
 * `GET {base}/events`: a server-sent event stream of the member's consultation events. The widget
 * token comes in the Authorization header (a fetch stream, never a token in the URL); a comment
 * line at once, and every `heartbeatMs`, keeps intermediaries from holding or closing it (with
 * `Cache-Control: no-store, no-transform` and `X-Accel-Buffering: no`, see middleware.ts); it ends
 * when the token expires.
 * Every consultation event carries an `id:` (`<store generation>.<number>`); a stream opened with
 * `Last-Event-ID` first replays what the member missed (see event-log.ts), or says `reset` when
 * that is too old to replay or from before the store's data was lost.
 *
 * The first event is `ready`, once the stream hears the member's events:
 * `{"expiresAt": "<ISO time the widget token ends>", "webhooks": true|false}`. `webhooks` is true
 * when this proxy has a `publicUrl`: it registers its webhook upstream and pushes consultation
 * events here. False otherwise: the elements then poll the member's open consultations (a proxy
 * given only `webhookSecret` still relays the deliveries it receives).
 */
import { Hono } from 'hono';
import { ProblemError } from '../../server/problems.js';
import type { ProxyCore, ProxyEnv } from '../context.js';
import type { WidgetIdentity } from '../widget-token.js';
import { header } from '../../server/request-header.js';
import {
  eventId,
  eventsChannel,
  countPast,
  latestEventId,
  missedSince,
  parseEventId,
  type LoggedEvent,
} from '../event-log.js';
import { currentGeneration } from '../generation.js';
import { member, requireMember } from '../middleware.js';
import { concerns, sessionsChannel } from '../sessions.js';
import { sseResponse, type SSEStream } from '../sse.js';
import { StoreUnavailableError } from '../store.js';
import {
  claimAddressPlace,
  claimSlot,
  MIN_LEASE_MS,
  Ticker,
  type Place,
  type Ticking,
} from '../stream-places.js';

/** How a stream catching up after the store's subscriptions came back tries again: every half second, for a minute. */
const CATCH_UP_RETRY_MS = 500;
const CATCH_UP_ATTEMPTS = 120;

export function eventRoutes(core: ProxyCore) {
  const heartbeatMs = core.options.heartbeatMs ?? 15_000;
  // A stream renews its slot at a third of this; a slot of an instance that died lapses after it.
  const leaseMs = Math.max(MIN_LEASE_MS, heartbeatMs * 3);
  const shared: Shared = {
    core,
    // Fixed for the proxy's life: whether consultation events are pushed, or the page must poll.
    webhooks: Boolean(core.options.publicUrl),
    // One timer for every open stream's heartbeat (it keeps the process running while streams are
    // open, as a stream does), and one for every slot's lease renewal.
    heartbeats: new Ticker(heartbeatMs, true),
  };
  const renewals = new Ticker(leaseMs / 3, false);
  // The stream has begun (its status is sent): a failure now ends it, logged as one line naming
  // the kind of failure, and the elements reconnect with their Last-Event-ID.
  const logFailure = (error: Error) =>
    core.log({
      level: 'error',
      message: error instanceof StoreUnavailableError ? 'store unavailable' : 'event stream failed',
      code: error instanceof StoreUnavailableError ? error.reason : error.name,
    });

  return new Hono<ProxyEnv>().get('/events', requireMember(core), async (c) => {
    const identity = member(c);
    // Where a reconnecting stream left off (the browser's EventSource, or our client, sends it).
    const lastEventId = header(c, 'last-event-id')?.trim() || undefined;
    const tooMany = () =>
      ProblemError.tooManyRequests(10, {
        code: 'too_many_streams',
        title: 'Too many open streams',
        detail: 'Close another tab and try again.',
      });
    const streamId = crypto.randomUUID();
    // Per address, across every instance sharing the store: one address cannot hold open
    // connections without end.
    const address = core.options.clientAddress?.(c);
    const addressPlace = address
      ? await claimAddressPlace(core, address, streamId, leaseMs, renewals)
      : undefined;
    if (address && !addressPlace) throw tooMany();
    // Per member, across every instance sharing the store: a slot leased in the store.
    let slot: Place | undefined;
    try {
      slot = await claimSlot(
        core,
        identity.userId,
        core.limits.streamsPerMember,
        streamId,
        leaseMs,
        renewals,
      );
    } catch (error) {
      addressPlace?.release();
      throw error;
    }
    if (!slot) {
      addressPlace?.release();
      throw tooMany();
    }
    const memberStream = new MemberStream(shared, identity, [slot, addressPlace]);
    // The stream keeps only the request (for its abort signal), not the request's context.
    return sseResponse(
      (stream) => memberStream.run(stream, lastEventId),
      logFailure,
      c.req.raw,
      (c.env as NodeBindings | undefined)?.incoming?.httpVersionMajor === 2,
    );
  });
}

/** What `@hono/node-server` gives a route of the request Node took (other runtimes give other bindings). */
interface NodeBindings {
  incoming?: { httpVersionMajor?: number };
}

/** What every stream of one proxy shares. */
interface Shared {
  core: ProxyCore;
  webhooks: boolean;
  heartbeats: Ticker;
}

/**
 * One member's open stream: one object, with its listeners bound once, since one is held for
 * every stream open (no closures per stream beyond those).
 */
class MemberStream implements Ticking {
  #stream!: SSEStream;
  /** Live events wait while the missed ones are replayed, so the member sees them all in order. */
  #replaying = true;
  #sentUpTo = 0;
  /** The store generation this stream's ids belong to (set once the stream is set up). */
  #generation = '';
  #waiting: LoggedEvent[] = [];
  /** Generations this stream knows are not the store's: their late events are dropped. */
  #replaced: Set<string> | undefined;
  #closed = false;
  #expiry: ReturnType<typeof setTimeout> | undefined;
  #unsubscribe: (() => void) | undefined;
  #unsubscribeSessions: (() => void) | undefined;
  #stopCatchingUp: (() => void) | undefined;
  #finished!: () => void;
  readonly #shared: Shared;
  readonly #identity: WidgetIdentity;
  /** The member's slot and the address's place. */
  readonly #places: (Place | undefined)[];

  constructor(shared: Shared, identity: WidgetIdentity, places: (Place | undefined)[]) {
    this.#shared = shared;
    this.#identity = identity;
    this.#places = places;
  }

  /**
   * Sets the stream up, and resolves once it has ended (the client left, the session ended or
   * expired). Throws, having let go of everything, when the setup fails.
   */
  async run(stream: SSEStream, lastEventId: string | undefined): Promise<void> {
    const { core, webhooks } = this.#shared;
    const { userId, expiresAt } = this.#identity;
    this.#stream = stream;
    const finished = new Promise<void>((resolve) => (this.#finished = resolve));
    // Bytes at once: an intermediary that waits for the body to send the headers sends them now,
    // and the page knows the stream passes before anything has happened.
    stream.write(': open\n\n');
    // Heard from the start: a client gone during the setup below gives its places back at once.
    stream.onAbort(this.#finish.bind(this));
    this.#shared.heartbeats.add(this);
    this.#expiry = setTimeout(this.#expire.bind(this), Math.max(0, expiresAt - Date.now()));
    try {
      this.#unsubscribe = core.store.subscribe(eventsChannel(userId), this.#heard.bind(this));
      // This session ended (signed out here, or everywhere): the stream says so and closes.
      this.#unsubscribeSessions = core.store.subscribe(sessionsChannel(userId), this.#ended.bind(this));
      this.#stopCatchingUp = core.store.resubscribed?.(this.#catchUpUntilDone.bind(this, 0));
      const generation = (this.#generation = (await currentGeneration(core)).id);
      // A new stream starts from the newest event now; what comes while it is being set up is
      // replayed. A Last-Event-ID of another generation (from before the store's data was
      // lost) or not of ours replays nothing and gets a reset.
      const replayFrom =
        lastEventId !== undefined ? parseEventId(lastEventId, generation) : await latestEventId(core, userId);
      // Redis confirms a subscription a round trip later; events sent before then come from the log.
      await Promise.all([
        core.store.subscribed?.(eventsChannel(userId)),
        core.store.subscribed?.(sessionsChannel(userId)),
      ]);
      // Ended while it was set up (the session ended, the token ran out, the client left): it
      // said so, if anything, and says nothing more.
      if (this.#closed) return finished;
      stream.writeSSE({
        event: 'ready',
        data: JSON.stringify({ expiresAt: new Date(expiresAt).toISOString(), webhooks }),
      });
      const missed = await missedSince(core, userId, replayFrom, generation);
      if (this.#closed) return finished;
      if (missed.gap) {
        // Too old to replay (or not an id of ours): the elements read everything again, and
        // what came before the reset is not sent.
        stream.writeSSE({ event: 'reset', data: '{}' });
        this.#sentUpTo = Math.max(this.#sentUpTo, missed.latest);
      } else {
        // The stream runs on from where it starts (or from the Last-Event-ID).
        this.#sentUpTo = Math.max(this.#sentUpTo, replayFrom ?? 0);
        for (const event of missed.events) this.#send(event);
      }
      this.#replaying = false;
      this.#deliverWaiting();
    } catch (error) {
      this.#finish();
      throw error;
    }
    return finished;
  }

  /** Ends the stream here, and lets go of everything it held. */
  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#shared.heartbeats.delete(this);
    clearTimeout(this.#expiry);
    // Each let go of on its own: a store's failure in one (a partner's own store) keeps nothing
    // else held, and the stream still ends.
    for (const letGo of [
      this.#unsubscribe,
      this.#unsubscribeSessions,
      this.#stopCatchingUp,
      ...this.#places,
    ]) {
      try {
        if (typeof letGo === 'function') letGo();
        else letGo?.release();
      } catch {
        // Nothing more to do here: leases lapse by themselves.
      }
    }
    this.#finished();
  }

  /** The heartbeat: keeps intermediaries from closing a quiet stream. */
  tick(): void {
    this.#stream.write(': heartbeat\n\n');
  }

  /** The widget token ran out: the page renews its session and opens another stream. */
  #expire(): void {
    this.#stream.writeSSE({ event: 'session-expired', data: '{}' });
    this.#finish();
  }

  #ended(message: string): void {
    if (!concerns(message, this.#identity)) return;
    this.#stream.writeSSE({ event: 'session-expired', data: '{"reason":"ended"}' });
    this.#finish();
  }

  /** A consultation event published for the member. */
  #heard(message: string): void {
    let event: Partial<LoggedEvent> | null;
    try {
      event = JSON.parse(message) as Partial<LoggedEvent> | null;
    } catch {
      return;
    }
    // Only a numbered event of some generation can be put in order; anything else on the channel
    // (not one of ours) is dropped here, rather than sent to the log to be looked for without end.
    if (
      typeof event?.id === 'number' &&
      typeof event.generation === 'string' &&
      typeof event.data === 'string'
    )
      this.#deliver(event as LoggedEvent);
  }

  #deliver(event: LoggedEvent): void {
    if (this.#replaying) this.#waiting.push(event);
    else this.#send(event);
  }

  #deliverWaiting(): void {
    for (const event of this.#waiting.splice(0).sort((a, b) => a.id - b.id)) this.#deliver(event);
  }

  #send(event: LoggedEvent): void {
    if (event.generation !== this.#generation) {
      // Only the store knows which generation is current (an event of the one before can still
      // come late): the catch-up asks it.
      if (!this.#replaced?.has(event.generation)) {
        this.#waiting.push(event);
        this.#catchUpUntilDone(0);
      }
      return;
    }
    if (event.id <= this.#sentUpTo) return;
    if (event.id > this.#sentUpTo + 1) {
      // Two events recorded at once can be published out of their order: the one numbered first
      // is read from the log before this one goes, so the member gets both, in order.
      this.#waiting.push(event);
      this.#catchUpUntilDone(0);
      return;
    }
    this.#sentUpTo = event.id;
    this.#stream.writeSSE({ id: eventId(event), event: 'consultation', data: event.data });
  }

  /** Drops the waiting events of any generation but `current`, which the store is on. */
  #keepOnly(current: string): void {
    const waiting = this.#waiting;
    for (let i = waiting.length - 1; i >= 0; i--) {
      const other = waiting[i]?.generation;
      if (other !== undefined && other !== current) {
        (this.#replaced ??= new Set()).add(other);
        waiting.splice(i, 1);
      }
    }
  }

  /**
   * The store's data was lost or replaced while this stream was open: numbers start again under a
   * new generation. The elements read everything again, so only what comes after `after` (the
   * count when this was found) is sent, and nothing of the generation before.
   */
  #adopt(next: string, after: number): void {
    (this.#replaced ??= new Set()).add(this.#generation);
    this.#generation = next;
    this.#sentUpTo = after;
    this.#keepOnly(next);
    this.#stream.writeSSE({ event: 'reset', data: '{}' });
  }

  /**
   * The store's subscriptions came back after its connection was lost (a Redis restart, a
   * failover): events published meanwhile never came, so the stream reads them from the log, or
   * says `reset` when the log no longer runs on from what it sent (a failover that lost the newest
   * writes numbers events again from an earlier count).
   */
  async #catchUp(): Promise<void> {
    if (this.#replaying) return;
    this.#replaying = true;
    const { core } = this.#shared;
    const { userId } = this.#identity;
    try {
      const current = (await currentGeneration(core)).id;
      if (current !== this.#generation) {
        // The store came back empty: its numbers are not this stream's, so none are skipped for
        // it (read before anything changes here, so a store that fails it changes nothing).
        this.#adopt(current, await latestEventId(core, userId));
        return;
      }
      this.#keepOnly(current);
      const missed = await missedSince(core, userId, this.#sentUpTo, this.#generation);
      if (missed.gap) {
        // Numbers this stream has sent are not handed out again: the count moves past them.
        if (missed.latest < this.#sentUpTo) await countPast(core, userId, this.#sentUpTo);
        this.#stream.writeSSE({ event: 'reset', data: '{}' });
        // The elements read everything again: what came before the reset is not sent.
        this.#sentUpTo = Math.max(this.#sentUpTo, missed.latest);
      } else for (const event of missed.events) this.#send(event);
    } finally {
      this.#replaying = false;
      this.#deliverWaiting();
    }
  }

  /**
   * Catches up; the store may not answer yet (its connection comes back a moment later than the
   * subscriptions): tried again until it does, while the stream is open.
   */
  #catchUpUntilDone(attempt: number): void {
    if (this.#closed) return;
    this.#catchUp().catch(() => {
      if (attempt < CATCH_UP_ATTEMPTS)
        setTimeout(() => this.#catchUpUntilDone(attempt + 1), CATCH_UP_RETRY_MS).unref?.();
    });
  }
}
