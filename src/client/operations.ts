/**
 * The 20 operations of the service (spec section 4), each named here once: its method, its path,
 * what kind of call it is, who may make it (the member's block or the server's), and how a client
 * method's arguments make its request. Everything else is derived from this table: the methods of `ConsultClient` (all 20) and of the
 * browser's `SessionClient` (the member's), the OpenAPI document (src/sandbox/openapi.ts, with the
 * schemas of src/server/operation-schemas.ts keyed by the same names) and `OPERATIONS`.
 *
 * Plain data with no schemas, because it ships in the browser bundle; the browser's client takes
 * only the member's block, so the server's rows stay out of it. Each row's comment is the
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

/** One row of the table: of {@link MEMBER_OPERATIONS} or {@link SERVER_OPERATIONS}. */
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
   * The method's arguments, before its `RequestOptions`, as the request's parts. Its parameter
   * names and types are the method's. No defaults or rest parameters: its `length` says where the
   * options are.
   */
  readonly request: (...args: never[]) => RequestInput;
}

/**
 * The operations the partner's proxy forwards for the signed-in member (docs/architecture.md 2.1),
 * which a browser may call: the browser's client carries only these rows.
 */
export const MEMBER_OPERATIONS = {
  /** Operation 3: get a user account. */
  getUser: {
    number: 3,
    method: 'GET',
    path: '/user/{userId}',
    kind: 'read',
    request: (userId: string) => ({ params: { userId } }),
  },
  /** Operation 8: get all subscriptions of a user. */
  getUserSubscriptions: {
    number: 8,
    method: 'GET',
    path: '/user/{userId}/subscriptions',
    kind: 'read',
    request: (userId: string) => ({ params: { userId } }),
  },
  /** Operation 9: get a subscription. */
  getSubscription: {
    number: 9,
    method: 'GET',
    path: '/user/{userId}/subscription/{subscriptionId}',
    kind: 'read',
    request: (userId: string, subscriptionId: string) => ({ params: { userId, subscriptionId } }),
  },
  /** Operation 10: get the renewal history of a subscription. */
  getSubscriptionHistory: {
    number: 10,
    method: 'GET',
    path: '/user/{userId}/subscription/{subscriptionId}/history',
    kind: 'read',
    request: (userId: string, subscriptionId: string) => ({ params: { userId, subscriptionId } }),
  },
  /** Operation 11: create a consultation. */
  createConsultation: {
    number: 11,
    method: 'POST',
    path: '/consultation',
    kind: 'create',
    request: (body: CreateConsultationRequest) => ({ body }),
  },
  /** Operation 12: get a consultation. */
  getConsultation: {
    number: 12,
    method: 'GET',
    path: '/consultation/{consultationId}',
    kind: 'read',
    request: (consultationId: string) => ({ params: { consultationId } }),
  },
  /** Operation 13: add a follow-up question to a consultation. */
  addConsultationFollowUp: {
    number: 13,
    method: 'POST',
    path: '/consultation/{consultationId}',
    kind: 'create',
    request: (consultationId: string, body: AddFollowUpRequest) => ({ params: { consultationId }, body }),
  },
  /** Operation 14: get all consultations of a user. */
  getCaseHistory: {
    number: 14,
    method: 'GET',
    path: '/user/{userId}/case-history',
    kind: 'read',
    request: (userId: string) => ({ params: { userId } }),
  },
  /** Operation 18: start a health navigator conversation for a user. */
  startNavigatorConversation: {
    number: 18,
    method: 'POST',
    path: '/v2/health-navigator/users/{userId}/conversations',
    kind: 'create',
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
    request: (body: SendNavigatorMessageRequest) => ({ body }),
  },
  /** Operation 20: create a prescription request. */
  createPrescriptionRequest: {
    number: 20,
    method: 'POST',
    path: '/prescription',
    kind: 'create',
    request: (body: CreatePrescriptionRequest) => ({ body }),
  },
} as const satisfies Record<string, OperationDefinition>;

/**
 * Operation 1, a constant of its own: every client with an API key exchanges it with this, and a
 * browser's client, which has none, need not carry the rest of the server's rows for it.
 */
export const CREATE_ACCESS_TOKEN = {
  number: 1,
  method: 'POST',
  path: '/partner/authorization/token',
  kind: 'token',
  request: (body: CreateAccessTokenRequest) => ({ body }),
} as const satisfies OperationDefinition;

/** The operations only the partner's server makes, with the API key. */
export const SERVER_OPERATIONS = {
  /** Operation 1: exchange an API key for an access token (sent without Authorization). */
  createAccessToken: CREATE_ACCESS_TOKEN,
  /** Operation 2: create a user account. */
  createUser: {
    number: 2,
    method: 'POST',
    path: '/user',
    kind: 'create',
    request: (body: CreateUserRequest) => ({ body }),
  },
  /** Operation 4: update a user account. */
  updateUser: {
    number: 4,
    method: 'PUT',
    path: '/user/{userId}',
    kind: 'read',
    request: (userId: string, body: UpdateUserRequest) => ({ params: { userId }, body }),
  },
  /** Operation 5: search user accounts by `uniqueId` in the query. */
  searchUsersByQuery: {
    number: 5,
    method: 'GET',
    path: '/user/search',
    kind: 'read',
    request: (uniqueId: string) => ({ query: { uniqueId } }),
  },
  /** Operation 6: search user accounts by body. */
  searchUsersByBody: {
    number: 6,
    method: 'POST',
    path: '/user/search',
    kind: 'read',
    request: (body: SearchUsersRequest) => ({ body }),
  },
  /** Operation 7: create a subscription for a user. */
  createSubscription: {
    number: 7,
    method: 'POST',
    path: '/user/{userId}/subscription',
    kind: 'create',
    request: (userId: string, body?: CreateSubscriptionRequest) => ({ params: { userId }, body: body ?? {} }),
  },
  /** Operation 15: register a webhook. */
  createWebhook: {
    number: 15,
    method: 'POST',
    path: '/webhook',
    kind: 'create',
    request: (body: CreateWebhookRequest) => ({ body }),
  },
  /** Operation 16: delete a webhook. */
  deleteWebhook: {
    number: 16,
    method: 'DELETE',
    path: '/webhook/{webhookId}',
    kind: 'read',
    request: (webhookId: string) => ({ params: { webhookId } }),
  },
  /** Operation 17: format a webhook event from an arbitrary object. */
  formatWebhookEvent: {
    number: 17,
    method: 'POST',
    path: '/webhook/format-event',
    kind: 'read',
    request: (payload: FormatWebhookEventRequest) => ({ body: payload }),
  },
} as const satisfies Record<string, OperationDefinition>;

/** All 20 operations by client method name. */
export const OPERATION_DEFINITIONS: typeof SERVER_OPERATIONS & typeof MEMBER_OPERATIONS = {
  ...SERVER_OPERATIONS,
  ...MEMBER_OPERATIONS,
};

export type OperationDefinitions = typeof OPERATION_DEFINITIONS;
export type OperationName = keyof OperationDefinitions;

/** The operations the partner's proxy forwards for a member, which the browser's client offers. */
export type MemberOperationName = keyof typeof MEMBER_OPERATIONS;

/** Who may call an operation: a member's browser through the proxy, or only the partner's server. */
export type Caller = 'member' | 'server';

/**
 * The proxy's own routes for a member (docs/architecture.md 2.1): no operation of the service, so
 * they are numbered 0 and sent only by the browser's client (src/session/session-client.ts).
 */
export type ProxyRouteName = 'markConsultationSeen' | 'getPrescriptions';

/** A proxy route as the client sends it: like an operation, under a name of its own. */
export interface ProxyRoute extends Omit<Operation, 'name'> {
  readonly name: ProxyRouteName;
}

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
  readonly caller: Caller;
}

/** A row of the table as the client sends it. */
export function toOperation(
  name: OperationName,
  { number, method, path, kind }: OperationDefinition,
  caller: Caller,
): Operation {
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
export const OPERATIONS: readonly Operation[] = /* @__PURE__ */ (() =>
  (Object.keys(OPERATION_DEFINITIONS) as OperationName[])
    .map((name) =>
      toOperation(name, OPERATION_DEFINITIONS[name], name in MEMBER_OPERATIONS ? 'member' : 'server'),
    )
    .sort((a, b) => a.number - b.number))();
