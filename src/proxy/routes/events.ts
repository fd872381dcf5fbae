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
import { sseResponse } from '../sse.js';
import { StoreUnavailableError } from '../store.js';
import { claimAddressPlace, claimSlot, MIN_LEASE_MS, Ticker, type Place } from '../stream-places.js';

/** How a stream catching up after the store's subscriptions came back tries again: every half second, for a minute. */
const CATCH_UP_RETRY_MS = 500;
const CATCH_UP_ATTEMPTS = 120;

export function eventRoutes(core: ProxyCore) {
  const heartbeatMs = core.options.heartbeatMs ?? 15_000;
  // A stream renews its slot at a third of this; a slot of an instance that died lapses after it.
  const leaseMs = Math.max(MIN_LEASE_MS, heartbeatMs * 3);
  // Fixed for the proxy's life: whether consultation events are pushed, or the page must poll.
  const webhooks = Boolean(core.options.publicUrl);
  // One timer for every open stream's heartbeat (it keeps the process running while streams are
  // open, as a stream does), and one for every slot's lease renewal.
  const heartbeats = new Ticker(heartbeatMs, true);
  const renewals = new Ticker(leaseMs / 3, false);

  return new Hono<ProxyEnv>().get('/events', requireMember(core), async (c) => {
    const identity = member(c);
    const { userId, expiresAt } = identity;
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
      slot = await claimSlot(core, userId, core.limits.streamsPerMember, streamId, leaseMs, renewals);
    } catch (error) {
      addressPlace?.release();
      throw error;
    }
    if (!slot) {
      addressPlace?.release();
      throw tooMany();
    }
    const release = () => {
      slot.release();
      addressPlace?.release();
    };

    // The stream keeps only the request's abort signal, not the request's context.
    const signal = c.req.raw.signal;
    return sseResponse(
      async (stream) => {
        let finish!: () => void;
        const finished = new Promise<void>((resolve) => (finish = resolve));
        // Bytes at once: an intermediary that waits for the body to send the headers sends them now,
        // and the page knows the stream passes before anything has happened.
        void stream.write(': open\n\n').catch(finish);
        // Live events wait while the missed ones are replayed, so the member sees them all in order.
        let replaying = true;
        let sentUpTo = 0;
        // The store generation this stream's ids belong to (set once the stream is set up).
        let generation = '';
        const waiting: LoggedEvent[] = [];
        // Generations this stream knows are not the store's: their late events are dropped.
        const replaced = new Set<string>();
        /** Drops the waiting events of any generation but `current`, which the store is on. */
        const keepOnly = (current: string) => {
          for (let i = waiting.length - 1; i >= 0; i--) {
            const other = waiting[i]?.generation;
            if (other !== undefined && other !== current) {
              replaced.add(other);
              waiting.splice(i, 1);
            }
          }
        };
        /**
         * The store's data was lost or replaced while this stream was open: numbers start again
         * under a new generation. The elements read everything again, so only what comes after
         * `after` (the count when this was found) is sent, and nothing of the generation before.
         */
        const adopt = (next: string, after: number) => {
          replaced.add(generation);
          generation = next;
          sentUpTo = after;
          keepOnly(next);
          void stream.writeSSE({ event: 'reset', data: '{}' }).catch(finish);
        };
        const send = (event: LoggedEvent) => {
          if (event.generation !== generation) {
            // Only the store knows which generation is current (an event of the one before can
            // still come late): the catch-up asks it.
            if (!replaced.has(event.generation)) {
              waiting.push(event);
              catchUpUntilDone();
            }
            return;
          }
          if (event.id <= sentUpTo) return;
          if (event.id > sentUpTo + 1) {
            // Two events recorded at once can be published out of their order: the one numbered
            // first is read from the log before this one goes, so the member gets both, in order.
            waiting.push(event);
            catchUpUntilDone();
            return;
          }
          sentUpTo = event.id;
          void stream.writeSSE({ id: eventId(event), event: 'consultation', data: event.data }).catch(finish);
        };
        const deliver = (event: LoggedEvent) => {
          if (replaying) waiting.push(event);
          else send(event);
        };
        const unsubscribe = core.store.subscribe(eventsChannel(userId), (message) => {
          let event: LoggedEvent;
          try {
            event = JSON.parse(message) as LoggedEvent;
          } catch {
            return;
          }
          deliver(event);
        });
        // This session ended (signed out here, or everywhere): the stream says so and closes.
        const unsubscribeSessions = core.store.subscribe(sessionsChannel(userId), (message) => {
          if (!concerns(message, identity)) return;
          void stream.writeSSE({ event: 'session-expired', data: '{"reason":"ended"}' }).finally(finish);
        });
        // The store's subscriptions came back after its connection was lost (a Redis restart, a
        // failover): events published meanwhile never came, so the stream reads them from the log,
        // or says `reset` when the log no longer runs on from what it sent (a failover that lost
        // the newest writes numbers events again from an earlier count).
        const catchUp = async () => {
          if (replaying) return;
          replaying = true;
          try {
            const current = (await currentGeneration(core)).id;
            if (current !== generation) {
              // The store came back empty: its numbers are not this stream's, so none are skipped
              // for it (read before anything changes here, so a store that fails it changes nothing).
              adopt(current, await latestEventId(core, userId));
              return;
            }
            keepOnly(current);
            const missed = await missedSince(core, userId, sentUpTo, generation);
            if (missed.gap) {
              // Numbers this stream has sent are not handed out again: the count moves past them.
              if (missed.latest < sentUpTo) await countPast(core, userId, sentUpTo);
              await stream.writeSSE({ event: 'reset', data: '{}' });
              // The elements read everything again: what came before the reset is not sent.
              sentUpTo = Math.max(sentUpTo, missed.latest);
            } else for (const event of missed.events) send(event);
          } finally {
            replaying = false;
            for (const event of waiting.splice(0).sort((a, b) => a.id - b.id)) deliver(event);
          }
        };
        // The store may not answer yet (its connection comes back a moment later than the
        // subscriptions): tried again until it does, while the stream is open.
        let closed = false;
        const catchUpUntilDone = (attempt = 0): void => {
          if (closed) return;
          catchUp().catch(() => {
            if (attempt < CATCH_UP_ATTEMPTS)
              setTimeout(() => catchUpUntilDone(attempt + 1), CATCH_UP_RETRY_MS).unref?.();
          });
        };
        const stopCatchingUp = core.store.resubscribed?.(() => catchUpUntilDone()) ?? (() => undefined);
        const stopHeartbeat = heartbeats.add(() => void stream.write(': heartbeat\n\n').catch(finish));
        const expiry = setTimeout(
          () => void stream.writeSSE({ event: 'session-expired', data: '{}' }).finally(finish),
          Math.max(0, expiresAt - Date.now()),
        );
        try {
          generation = (await currentGeneration(core)).id;
          // A new stream starts from the newest event now; what comes while it is being set up is
          // replayed. A Last-Event-ID of another generation (from before the store's data was
          // lost) or not of ours replays nothing and gets a reset.
          const replayFrom =
            lastEventId !== undefined
              ? parseEventId(lastEventId, generation)
              : await latestEventId(core, userId);
          stream.onAbort(finish);
          signal.addEventListener('abort', finish);
          // A client gone before the listeners were in place must not hold its slot until expiry.
          if (signal.aborted || stream.aborted) finish();
          // Redis confirms a subscription a round trip later; events sent before then come from the log.
          await Promise.all([
            core.store.subscribed?.(eventsChannel(userId)),
            core.store.subscribed?.(sessionsChannel(userId)),
          ]);
          await stream.writeSSE({
            event: 'ready',
            data: JSON.stringify({ expiresAt: new Date(expiresAt).toISOString(), webhooks }),
          });
          const missed = await missedSince(core, userId, replayFrom, generation);
          if (missed.gap) {
            // Too old to replay (or not an id of ours): the elements read everything again, and
            // what came before the reset is not sent.
            await stream.writeSSE({ event: 'reset', data: '{}' });
            sentUpTo = Math.max(sentUpTo, missed.latest);
          } else {
            // The stream runs on from where it starts (or from the Last-Event-ID).
            sentUpTo = Math.max(sentUpTo, replayFrom ?? 0);
            for (const event of missed.events) send(event);
          }
          replaying = false;
          for (const event of waiting.splice(0).sort((a, b) => a.id - b.id)) deliver(event);
          await finished;
        } finally {
          stopHeartbeat();
          clearTimeout(expiry);
          unsubscribe();
          unsubscribeSessions();
          closed = true;
          stopCatchingUp();
          release();
        }
      },
      // The stream has begun (its status is sent): a failure now ends it, logged as one line
      // naming the kind of failure, and the elements reconnect with their Last-Event-ID.
      async (error) => {
        core.log({
          level: 'error',
          message: error instanceof StoreUnavailableError ? 'store unavailable' : 'event stream failed',
          code: error instanceof StoreUnavailableError ? error.reason : error.name,
        });
      },
    );
  });
}
