/**
 * The 20 operations of the service (spec section 4), each named here once: its method, its path,
 * what kind of call it is, who may make it, and how a client method's arguments make its request.
 * Everything else is derived from this table: the methods of `ConsultClient` (all 20) and of the
 * browser's `SessionClient` (the member's), the OpenAPI document (src/sandbox/openapi.ts, with the
 * schemas of src/server/operation-schemas.ts keyed by the same names) and `OPERATIONS`.
 *
 * Plain data with no schemas, because it ships in the browser bundle. Each row's comment is the
 * documentation a partner's editor shows on the client's method of that name.
 */
import type {
  AddFollowUpRequest,
  CreateAccessTokenRequest,
  CreateConsultationRequest,
  CreatePrescriptionRequest,
  CreateSubscriptionRequest,
  CreateUserRequest,
  CreateWebhookRequest,
  FormatWebhookEventRequest,
  SearchUsersRequest,
  SendNavigatorMessageRequest,
  StartNavigatorConversationRequest,
  UpdateUserRequest,
} from './types.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What a method's arguments make of a request. */
export interface RequestInput {
  /** The path template's `{name}` parameters. */
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

/** One row of {@link OPERATION_DEFINITIONS}. */
export interface OperationDefinition {
  /** Operation number in spec section 4. */
  readonly number: number;
  readonly method: HttpMethod;
  /** Path template; `{name}` is a path parameter. */
  readonly path: string;
  /**
   * `read`: safe to repeat (reads, PUT, DELETE and the read-only POSTs). `create`: makes a record, so
   * it is sent with an `Idempotency-Key` and retried only with one. `token`: operation 1, sent
   * without Authorization.
   */
  readonly kind: 'read' | 'create' | 'token';
  /**
   * `member`: the partner's proxy forwards it for the signed-in member, so a browser may call it
   * (docs/architecture.md 2.1). `server`: only the partner's server, with the API key.
   */
  readonly caller: 'member' | 'server';
  /**
   * The method's arguments, before its `RequestOptions`, as the request's parts. Its parameter
   * names and types are the method's. No defaults or rest parameters: its `length` says where the
   * options are.
   */
  readonly request: (...args: never[]) => RequestInput;
}

/** The operations by client method name, in spec order. */
export const OPERATION_DEFINITIONS = {
  /** Operation 1: exchange an API key for an access token (sent without Authorization). */
  createAccessToken: {
    number: 1,
    method: 'POST',
    path: '/partner/authorization/token',
    kind: 'token',
    caller: 'server',
    request: (body: CreateAccessTokenRequest) => ({ body }),
  },
  /** Operation 2: create a user account. */
  createUser: {
    number: 2,
    method: 'POST',
    path: '/user',
    kind: 'create',
    caller: 'server',
    request: (body: CreateUserRequest) => ({ body }),
  },
  /** Operation 3: get a user account. */
  getUser: {
    number: 3,
    method: 'GET',
    path: '/user/{userId}',
    kind: 'read',
    caller: 'member',
    request: (userId: string) => ({ params: { userId } }),
  },
  /** Operation 4: update a user account. */
  updateUser: {
    number: 4,
    method: 'PUT',
    path: '/user/{userId}',
    kind: 'read',
    caller: 'server',
    request: (userId: string, body: UpdateUserRequest) => ({ params: { userId }, body }),
  },
  /** Operation 5: search user accounts by `uniqueId` in the query. */
  searchUsersByQuery: {
    number: 5,
    method: 'GET',
    path: '/user/search',
    kind: 'read',
    caller: 'server',
    request: (uniqueId: string) => ({ query: { uniqueId } }),
  },
  /** Operation 6: search user accounts by body. */
  searchUsersByBody: {
    number: 6,
    method: 'POST',
    path: '/user/search',
    kind: 'read',
    caller: 'server',
    request: (body: SearchUsersRequest) => ({ body }),
  },
  /** Operation 7: create a subscription for a user (without a body: starting now, for the partner's term). */
  createSubscription: {
    number: 7,
    method: 'POST',
    path: '/user/{userId}/subscription',
    kind: 'create',
    caller: 'server',
    request: (userId: string, body?: CreateSubscriptionRequest) => ({ params: { userId }, body: body ?? {} }),
  },
  /** Operation 8: get all subscriptions of a user. */
  getUserSubscriptions: {
    number: 8,
    method: 'GET',
    path: '/user/{userId}/subscriptions',
    kind: 'read',
    caller: 'member',
    request: (userId: string) => ({ params: { userId } }),
  },
  /** Operation 9: get a subscription. */
  getSubscription: {
    number: 9,
    method: 'GET',
    path: '/user/{userId}/subscription/{subscriptionId}',
    kind: 'read',
    caller: 'member',
    request: (userId: string, subscriptionId: string) => ({ params: { userId, subscriptionId } }),
  },
  /** Operation 10: get the renewal history of a subscription. */
  getSubscriptionHistory: {
    number: 10,
    method: 'GET',
    path: '/user/{userId}/subscription/{subscriptionId}/history',
    kind: 'read',
    caller: 'member',
    request: (userId: string, subscriptionId: string) => ({ params: { userId, subscriptionId } }),
  },
  /** Operation 11: create a consultation. */
  createConsultation: {
    number: 11,
    method: 'POST',
    path: '/consultation',
    kind: 'create',
    caller: 'member',
    request: (body: CreateConsultationRequest) => ({ body }),
  },
  /** Operation 12: get a consultation. */
  getConsultation: {
    number: 12,
    method: 'GET',
    path: '/consultation/{consultationId}',
    kind: 'read',
    caller: 'member',
    request: (consultationId: string) => ({ params: { consultationId } }),
  },
  /** Operation 13: add a follow-up question to a consultation. */
  addConsultationFollowUp: {
    number: 13,
    method: 'POST',
    path: '/consultation/{consultationId}',
    kind: 'create',
    caller: 'member',
    request: (consultationId: string, body: AddFollowUpRequest) => ({ params: { consultationId }, body }),
  },
  /** Operation 14: get all consultations of a user. */
  getCaseHistory: {
    number: 14,
    method: 'GET',
    path: '/user/{userId}/case-history',
    kind: 'read',
    caller: 'member',
    request: (userId: string) => ({ params: { userId } }),
  },
  /** Operation 15: register a webhook. */
  createWebhook: {
    number: 15,
    method: 'POST',
    path: '/webhook',
    kind: 'create',
    caller: 'server',
    request: (body: CreateWebhookRequest) => ({ body }),
  },
  /** Operation 16: delete a webhook. */
  deleteWebhook: {
    number: 16,
    method: 'DELETE',
    path: '/webhook/{webhookId}',
    kind: 'read',
    caller: 'server',
    request: (webhookId: string) => ({ params: { webhookId } }),
  },
  /** Operation 17: format a webhook event from an arbitrary object. */
  formatWebhookEvent: {
    number: 17,
    method: 'POST',
    path: '/webhook/format-event',
    kind: 'read',
    caller: 'server',
    request: (payload: FormatWebhookEventRequest) => ({ body: payload }),
  },
  /** Operation 18: start a health navigator conversation for a user. */
  startNavigatorConversation: {
    number: 18,
    method: 'POST',
    path: '/v2/health-navigator/users/{userId}/conversations',
    kind: 'create',
    caller: 'member',
    request: (userId: string, body?: StartNavigatorConversationRequest) => ({
      params: { userId },
      body: body ?? {},
    }),
  },
  /** Operation 19: send a message in a health navigator conversation. */
  sendNavigatorMessage: {
    number: 19,
    method: 'POST',
    path: '/v2/health-navigator/messages',
    kind: 'create',
    caller: 'member',
    request: (body: SendNavigatorMessageRequest) => ({ body }),
  },
  /** Operation 20: create a prescription request. */
  createPrescriptionRequest: {
    number: 20,
    method: 'POST',
    path: '/prescription',
    kind: 'create',
    caller: 'member',
    request: (body: CreatePrescriptionRequest) => ({ body }),
  },
} as const satisfies Record<string, OperationDefinition>;

export type OperationDefinitions = typeof OPERATION_DEFINITIONS;
export type OperationName = keyof OperationDefinitions;

/** The operations the partner's proxy forwards for a member, which the browser's client offers. */
export type MemberOperationName = {
  [N in OperationName]: OperationDefinitions[N]['caller'] extends 'member' ? N : never;
}[OperationName];

/** An operation with what the client needs to send it: one of {@link OPERATIONS}. */
export interface Operation {
  /** The client method. */
  readonly name: OperationName;
  /** Operation number in spec section 4. */
  readonly number: number;
  readonly method: HttpMethod;
  /** Path template; `{name}` is a path parameter. */
  readonly path: string;
  /** Sent with the bearer token; only the token operation is not. */
  readonly auth: boolean;
  /** Creates a record: sent with an `Idempotency-Key`, and retried only with one. */
  readonly creates: boolean;
  /** Safe to repeat without an idempotency key: reads, PUT, DELETE and the read-only POSTs. */
  readonly retrySafe: boolean;
  /** Who may call it: a member's browser through the proxy, or only the partner's server. */
  readonly caller: 'member' | 'server';
}

/** The operation of that name, as the client sends it. */
export function operation(name: OperationName): Operation {
  const { number, method, path, kind, caller } = OPERATION_DEFINITIONS[name];
  return {
    name,
    number,
    method,
    path,
    auth: kind !== 'token',
    creates: kind === 'create',
    retrySafe: kind !== 'create',
    caller,
  };
}

/** The 20 operations, in spec order; the proxy and tests enumerate them. */
export const OPERATIONS: readonly Operation[] = /* @__PURE__ */ (
  Object.keys(OPERATION_DEFINITIONS) as OperationName[]
).map(operation);

/** The names of the operations a member's browser may call. */
export const MEMBER_OPERATION_NAMES = /* @__PURE__ */ (
  Object.keys(OPERATION_DEFINITIONS) as OperationName[]
).filter((name): name is MemberOperationName => OPERATION_DEFINITIONS[name].caller === 'member');
