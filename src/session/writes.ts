/**
 * The member's writes (a new consultation, a follow-up, a prescription request): each goes with
 * its idempotency key (S14), and while the service cannot be reached it waits and is tried again,
 * with the same key, each time the connection comes back, until it is answered or cancelled.
 */
import type { ConsultationView } from '../client/browser-types.js';
import type { CreatePrescriptionRequest } from '../client/types.js';
import { unreachable, type ConnectionState } from './connection.js';
import type { MemberData } from './member-data.js';
import type { SentPrescription } from './prescriptions.js';
import type { MemberClient } from './state-basics.js';

/**
 * A signal that aborts with whichever of `a` and `b` aborts first (`AbortSignal.any`, which older
 * browsers lack); `release` stops listening to them.
 */
function eitherSignal(a: AbortSignal, b?: AbortSignal): { signal: AbortSignal; release(): void } {
  if (!b) return { signal: a, release: () => undefined };
  const controller = new AbortController();
  const fromA = (): void => controller.abort(a.reason);
  const fromB = (): void => controller.abort(b.reason);
  if (a.aborted) fromA();
  else if (b.aborted) fromB();
  a.addEventListener('abort', fromA, { once: true });
  b.addEventListener('abort', fromB, { once: true });
  return {
    signal: controller.signal,
    release: () => {
      a.removeEventListener('abort', fromA);
      b.removeEventListener('abort', fromB);
    },
  };
}

/**
 * Runs a keyed write in the member's scope, tried again each time the connection comes back,
 * until it is answered, refused, or `signal` (the member's "cancel sending") aborts.
 */
export async function keyedWrite<T>(
  connection: ConnectionState,
  run: (client: MemberClient, signal: AbortSignal) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  for (;;) {
    signal?.throwIfAborted();
    let release = (): void => undefined;
    try {
      return await connection.call((client, scope) => {
        const either = eitherSignal(scope, signal);
        release = either.release;
        return run(client, either.signal);
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (!unreachable(error)) throw error;
    } finally {
      release();
    }
    await connection.whenOnline(signal);
  }
}

/** What a write needs: the member and their data, and how to send. */
export interface WriteContext {
  memberId: string;
  data: MemberData;
  /** Sends a keyed write (`keyedWrite`, then polling picks up soon). */
  send<T>(run: (client: MemberClient, signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T>;
  changed(): void;
}

/** Creates a consultation and takes it; sent by the member here, it is not news to them when it shows. */
export async function createConsultation(
  { memberId, data, send }: WriteContext,
  questions: string[],
  idempotencyKey: string,
  signal?: AbortSignal,
): Promise<ConsultationView> {
  const record = await send(
    (client, scope) =>
      client.createConsultation({ userId: memberId, questions }, { idempotencyKey, signal: scope }),
    signal,
  );
  data.sentHere(record.consultationId);
  data.store.apply(record);
  data.seen.mark(record);
  return record;
}

/** Adds a follow-up question and takes the consultation it answers. */
export async function addFollowUp(
  { data, send }: WriteContext,
  consultationId: string,
  question: string,
  idempotencyKey: string,
  signal?: AbortSignal,
): Promise<ConsultationView> {
  const record = await send(
    (client, scope) =>
      client.addConsultationFollowUp(consultationId, { question }, { idempotencyKey, signal: scope }),
    signal,
  );
  data.store.apply(record);
  return data.store.get(consultationId) ?? record;
}

/** Sends a prescription request; `asked` (the member's words, health text) is kept in memory only. */
export async function sendPrescription(
  { memberId, data, send, changed }: WriteContext,
  indicationSurvey: CreatePrescriptionRequest['indicationSurvey'],
  idempotencyKey: string,
  signal?: AbortSignal,
  asked?: string,
): Promise<SentPrescription & { status: string }> {
  const record = await send(
    (client, scope) =>
      client.createPrescriptionRequest(
        { userId: memberId, indicationSurvey },
        { idempotencyKey, signal: scope },
      ),
    signal,
  );
  const sent = data.prescriptions.add(record, asked);
  changed();
  // The status the service answered goes to the host page's event only: nothing reports it later.
  return { ...sent, status: record.status };
}
