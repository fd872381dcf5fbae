/**
 * The client a member's browser uses: the operations the proxy forwards to a member (the table's
 * `MEMBER_OPERATIONS`, src/client/operations.ts), each typed as the proxy's view of it
 * (src/client/browser-types.ts). The server's `ConsultClient` has all 20.
 */
import type { BrowserClient } from '../client/browser-types.js';
import { OperationClient } from '../client/operation-client.js';
import { MEMBER_OPERATIONS } from '../client/operations.js';

// The class's methods are defined from the table in its static block; this declares their types.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface SessionClient extends BrowserClient {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class SessionClient extends OperationClient {
  static {
    this.defineOperations(MEMBER_OPERATIONS, 'member');
  }
}
