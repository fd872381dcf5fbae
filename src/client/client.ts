/**
 * Typed client for the 20 operations of the partner health consultation service (spec section 4). The same class
 * runs in the browser against the partner's proxy with a widget token, and in Node against the upstream with the
 * API key. It uses only web-standard globals: fetch, AbortController, URL, crypto.getRandomValues, setTimeout.
 *
 * Its methods are made from the operations table (src/client/operations.ts): their arguments and documentation
 * are the table's, and what each answers is its response schema's type (src/server/operation-schemas.ts).
 */
import { OperationClient, type OperationMethod } from './operation-client.js';
import { MEMBER_OPERATIONS, SERVER_OPERATIONS, type OperationDefinitions } from './operations.js';
import type { OperationResponse } from '../server/operation-schemas.js';

export { OperationClient } from './operation-client.js';
export type { ConsultClientOptions, OperationMethod, RequestOptions } from './operation-client.js';
export { OPERATIONS } from './operations.js';
export type { Caller, HttpMethod, MemberOperationName, Operation, OperationName } from './operations.js';
export type { FetchInit, FetchLike, FetchResponse } from './transport.js';

/** A method for each of the 20 operations, answering the service's own records. */
export type ConsultClientMethods = {
  [N in keyof OperationDefinitions]: OperationMethod<N, OperationResponse<N>>;
};

// The class's methods are defined from the table in its static block; this declares their types.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface ConsultClient extends ConsultClientMethods {}

/** The typed client for all 20 operations of the service, for a server (with an API key) or a browser. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class ConsultClient extends OperationClient {
  static {
    this.defineOperations(SERVER_OPERATIONS, 'server');
    this.defineOperations(MEMBER_OPERATIONS, 'member');
  }
}
