/** The typed client: classes, the operation table and types. Importing it has no side effects. */
export { ConsultClient, OPERATIONS } from './client.js';
export type {
  ConsultClientMethods,
  ConsultClientOptions,
  FetchInit,
  FetchLike,
  FetchResponse,
  HttpMethod,
  MemberOperationName,
  Operation,
  OperationMethod,
  OperationName,
  RequestOptions,
} from './client.js';
export { ApiError } from './errors.js';
export type { ApiErrorKind } from './errors.js';
export { canRetry, newIdempotencyKey } from './retry.js';
export type { RetryOptions } from './retry.js';
export type { TokenGrant, TokenProvider } from './auth.js';
export * from './types.js';
export * from './browser-types.js';
