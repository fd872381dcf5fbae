/**
 * The schemas of each operation, keyed by the names of the operations table
 * (src/client/operations.ts), which holds no schemas because it ships to browsers. With that table,
 * this is what the OpenAPI document is generated from (src/sandbox/openapi.ts), and what the
 * client's methods answer (their response types are inferred from `response`, type-only).
 *
 * A schema is named by its export from src/server/schemas.ts: the type declarations then refer to
 * the module rather than spelling out every schema's type again.
 */
import type { z } from 'zod';
import type { OperationDefinitions, OperationName } from '../client/operations.js';
import * as schemas from './schemas.js';

type SchemaModule = typeof schemas;

/** The name of a schema exported by src/server/schemas.ts. */
export type SchemaName = {
  [K in keyof SchemaModule]: SchemaModule[K] extends z.ZodType ? K : never;
}[keyof SchemaModule];

/** The schema of that name. */
export const schemaNamed = (name: SchemaName): z.ZodType => schemas[name];

export interface OperationSchemas {
  /** The OpenAPI summary. */
  readonly summary: string;
  /** The request body's schema: what the sandbox validates. */
  readonly request?: SchemaName;
  /** The success response's schema; without one, the response has no body. */
  readonly response?: SchemaName;
  /** The response is a list of `response`. */
  readonly list?: true;
  /** The success status, 200 unless given. */
  readonly status?: 200 | 201 | 204;
  /** A required query parameter. */
  readonly query?: string;
  /** The error statuses it answers beyond those of every operation (401 where authorized, 413, 429). */
  readonly errors: readonly number[];
}

export const OPERATION_SCHEMAS = {
  createAccessToken: {
    summary: 'Create an access token',
    request: 'CreateAccessTokenBody',
    response: 'AccessTokenSchema',
    errors: [400, 401],
  },
  createUser: {
    summary: 'Create a user account',
    request: 'CreateUserBody',
    response: 'UserSchema',
    status: 201,
    errors: [400, 409, 422],
  },
  getUser: { summary: 'Get a user account', response: 'UserSchema', errors: [404] },
  updateUser: {
    summary: 'Update a user account',
    request: 'UpdateUserBody',
    response: 'UserSchema',
    errors: [400, 404],
  },
  searchUsersByQuery: {
    summary: 'Search user accounts by query',
    response: 'UserSchema',
    list: true,
    query: 'uniqueId',
    errors: [400],
  },
  searchUsersByBody: {
    summary: 'Search user accounts by body',
    request: 'SearchUsersBody',
    response: 'UserSchema',
    list: true,
    errors: [400],
  },
  createSubscription: {
    summary: 'Create a subscription',
    request: 'CreateSubscriptionBody',
    response: 'SubscriptionSchema',
    status: 201,
    errors: [400, 404, 422],
  },
  getUserSubscriptions: {
    summary: 'Get all user subscriptions',
    response: 'SubscriptionSchema',
    list: true,
    errors: [404],
  },
  getSubscription: { summary: 'Get a subscription', response: 'SubscriptionSchema', errors: [404] },
  getSubscriptionHistory: {
    summary: 'Get subscription renewal history (the renewal chain ending at this subscription, newest first)',
    response: 'SubscriptionSchema',
    list: true,
    errors: [404],
  },
  createConsultation: {
    summary: 'Create a consultation',
    request: 'CreateConsultationBody',
    response: 'ConsultationSchema',
    status: 201,
    errors: [400, 403, 404, 422],
  },
  getConsultation: { summary: 'Get a consultation', response: 'ConsultationSchema', errors: [404] },
  addConsultationFollowUp: {
    summary: 'Add a consultation follow-up',
    request: 'AddFollowUpBody',
    response: 'ConsultationSchema',
    errors: [400, 404, 409, 422],
  },
  getCaseHistory: {
    summary: 'Get all user consultations, newest first',
    response: 'ConsultationSchema',
    list: true,
    errors: [404],
  },
  createWebhook: {
    summary: 'Create a webhook; the response carries its signing secret once',
    request: 'CreateWebhookBody',
    response: 'WebhookSchema',
    status: 201,
    errors: [400, 422],
  },
  deleteWebhook: { summary: 'Delete a webhook', status: 204, errors: [404] },
  formatWebhookEvent: {
    summary: 'Format a webhook event from any JSON object',
    request: 'FormatEventBody',
    response: 'WebhookEventSchema',
    errors: [400],
  },
  startNavigatorConversation: {
    summary: 'Start a health navigator conversation',
    request: 'StartConversationBody',
    response: 'NavigatorConversationSchema',
    status: 201,
    errors: [400, 404, 422],
  },
  sendNavigatorMessage: {
    summary: 'Send a health navigator message; answers with the messages it added',
    request: 'SendMessageBody',
    response: 'NavigatorReplySchema',
    errors: [400, 404, 422],
  },
  createPrescriptionRequest: {
    summary: 'Create a prescription request',
    request: 'CreatePrescriptionBody',
    response: 'PrescriptionRequestSchema',
    status: 201,
    errors: [400, 404, 422],
  },
} as const satisfies { readonly [N in OperationName]: OperationSchemas };

type Schemas = typeof OPERATION_SCHEMAS;

/** What operation `N` answers: its response schema's output (a list of them), or nothing. */
export type OperationResponse<N extends OperationName> = Schemas[N] extends {
  readonly response: infer S extends SchemaName;
}
  ? Schemas[N] extends { readonly list: true }
    ? z.output<SchemaModule[S]>[]
    : z.output<SchemaModule[S]>
  : // The method's promise resolves to nothing, as `Promise<void>` says.
    // eslint-disable-next-line @typescript-eslint/no-invalid-void-type
    void;

// The body a client method sends is what the operation's schema takes: the table's argument types
// (src/client/operations.ts names the wire types) are checked against the schemas here.
type Exactly<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type SentBody<N extends OperationName> =
  ReturnType<OperationDefinitions[N]['request']> extends {
    body: infer B;
  }
    ? B
    : undefined;
type TakenBody<N extends OperationName> = Schemas[N] extends { readonly request: infer S extends SchemaName }
  ? z.input<SchemaModule[S]>
  : undefined;
type Mismatched = {
  [N in OperationName]: Exactly<SentBody<N>, TakenBody<N>> extends true ? never : N;
}[OperationName];
type Assert<T extends true> = T;
export type _ClientBodiesAreTheSchemas = Assert<Exactly<Mismatched, never>>;
