/**
 * The client a member's browser uses: the operations the proxy forwards to a member (the table's
 * `MEMBER_OPERATIONS`, src/client/operations.ts), each typed as the proxy's view of it
 * (src/client/browser-types.ts). The server's `ConsultClient` has all 20.
 */
import type { BrowserClient, KeptPrescription, SeenView } from '../client/browser-types.js';
import { OperationClient, type RequestOptions } from '../client/operation-client.js';
import { MEMBER_OPERATIONS, type ProxyRoute } from '../client/operations.js';

// The class's methods are defined from the table in its static block; this declares their types.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface SessionClient extends BrowserClient {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class SessionClient extends OperationClient {
  static {
    this.defineOperations(MEMBER_OPERATIONS, 'member');
  }

  markConsultationSeen(consultationId: string, answers: number, options?: RequestOptions): Promise<SeenView> {
    return this.call(
      markSeenOperation,
      { params: { consultationId }, body: { answers } },
      options,
    ) as Promise<SeenView>;
  }

  getPrescriptions(options?: RequestOptions): Promise<KeptPrescription[]> {
    return this.call(getPrescriptionsOperation, {}, options) as Promise<KeptPrescription[]>;
  }
}

// The proxy's own routes (docs/architecture.md 2.1), numbered 0: they are no operation of the service.
/** A PUT of a count that only rises: safe to repeat. */
const markSeenOperation = {
  name: 'markConsultationSeen',
  number: 0,
  method: 'PUT',
  path: '/consultations/{consultationId}/seen',
  auth: true,
  creates: false,
  retrySafe: true,
  caller: 'member',
} as const satisfies ProxyRoute;
const getPrescriptionsOperation = {
  name: 'getPrescriptions',
  number: 0,
  method: 'GET',
  path: '/prescriptions',
  auth: true,
  creates: false,
  retrySafe: true,
  caller: 'member',
} as const satisfies ProxyRoute;
