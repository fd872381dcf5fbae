/**
 * The OpenAPI 3.1 document of the interface as the sandbox models it, generated from the same zod
 * schemas that validate requests (`GET /openapi.json`).
 */
import { z } from 'zod';
import * as schemas from '../server/schemas.js';

type Schema = z.ZodType;

const components: Record<string, { schema: Schema; io: 'input' | 'output' }> = {
  User: { schema: schemas.UserSchema, io: 'output' },
  Consultation: { schema: schemas.ConsultationSchema, io: 'output' },
  Professional: { schema: schemas.ProfessionalSchema, io: 'output' },
  Subscription: { schema: schemas.SubscriptionSchema, io: 'output' },
  WebhookEvent: { schema: schemas.WebhookEventSchema, io: 'output' },
  Webhook: { schema: schemas.WebhookSchema, io: 'output' },
  AccessToken: { schema: schemas.AccessTokenSchema, io: 'output' },
  NavigatorConversation: { schema: schemas.NavigatorConversationSchema, io: 'output' },
  NavigatorReply: { schema: schemas.NavigatorReplySchema, io: 'output' },
  PrescriptionRequest: { schema: schemas.PrescriptionRequestSchema, io: 'output' },
  Problem: { schema: schemas.ProblemSchema, io: 'output' },
  CreateAccessTokenRequest: { schema: schemas.CreateAccessTokenBody, io: 'input' },
  CreateUserRequest: { schema: schemas.CreateUserBody, io: 'input' },
  UpdateUserRequest: { schema: schemas.UpdateUserBody, io: 'input' },
  SearchUsersRequest: { schema: schemas.SearchUsersBody, io: 'input' },
  CreateSubscriptionRequest: { schema: schemas.CreateSubscriptionBody, io: 'input' },
  CreateConsultationRequest: { schema: schemas.CreateConsultationBody, io: 'input' },
  AddFollowUpRequest: { schema: schemas.AddFollowUpBody, io: 'input' },
  CreateWebhookRequest: { schema: schemas.CreateWebhookBody, io: 'input' },
  FormatEventRequest: { schema: schemas.FormatEventBody, io: 'input' },
  StartConversationRequest: { schema: schemas.StartConversationBody, io: 'input' },
  SendMessageRequest: { schema: schemas.SendMessageBody, io: 'input' },
  CreatePrescriptionRequest: { schema: schemas.CreatePrescriptionBody, io: 'input' },
};

export interface Operation {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  operationId: string;
  summary: string;
  request?: string;
  response?: string;
  /** The response is an array of `response`. */
  list?: boolean;
  status?: number;
  query?: string;
  idempotent?: boolean;
  noAuth?: boolean;
  errors: number[];
}

/** The 20 operations of spec section 4, in its order. */
export const OPERATION_TABLE: readonly Operation[] = [
  {
    method: 'post',
    path: '/partner/authorization/token',
    operationId: 'createAccessToken',
    summary: 'Create an access token',
    request: 'CreateAccessTokenRequest',
    response: 'AccessToken',
    noAuth: true,
    errors: [400, 401],
  },
  {
    method: 'post',
    path: '/user',
    operationId: 'createUser',
    summary: 'Create a user account',
    request: 'CreateUserRequest',
    response: 'User',
    status: 201,
    idempotent: true,
    errors: [400, 409, 422],
  },
  {
    method: 'get',
    path: '/user/{userId}',
    operationId: 'getUser',
    summary: 'Get a user account',
    response: 'User',
    errors: [404],
  },
  {
    method: 'put',
    path: '/user/{userId}',
    operationId: 'updateUser',
    summary: 'Update a user account',
    request: 'UpdateUserRequest',
    response: 'User',
    errors: [400, 404],
  },
  {
    method: 'get',
    path: '/user/search',
    operationId: 'searchUsersByQuery',
    summary: 'Search user accounts by query',
    response: 'User',
    list: true,
    query: 'uniqueId',
    errors: [400],
  },
  {
    method: 'post',
    path: '/user/search',
    operationId: 'searchUsersByBody',
    summary: 'Search user accounts by body',
    request: 'SearchUsersRequest',
    response: 'User',
    list: true,
    errors: [400],
  },
  {
    method: 'post',
    path: '/user/{userId}/subscription',
    operationId: 'createSubscription',
    summary: 'Create a subscription',
    request: 'CreateSubscriptionRequest',
    response: 'Subscription',
    status: 201,
    idempotent: true,
    errors: [400, 404, 422],
  },
  {
    method: 'get',
    path: '/user/{userId}/subscriptions',
    operationId: 'getUserSubscriptions',
    summary: 'Get all user subscriptions',
    response: 'Subscription',
    list: true,
    errors: [404],
  },
  {
    method: 'get',
    path: '/user/{userId}/subscription/{subscriptionId}',
    operationId: 'getSubscription',
    summary: 'Get a subscription',
    response: 'Subscription',
    errors: [404],
  },
  {
    method: 'get',
    path: '/user/{userId}/subscription/{subscriptionId}/history',
    operationId: 'getSubscriptionHistory',
    summary: 'Get subscription renewal history (the renewal chain ending at this subscription, newest first)',
    response: 'Subscription',
    list: true,
    errors: [404],
  },
  {
    method: 'post',
    path: '/consultation',
    operationId: 'createConsultation',
    summary: 'Create a consultation',
    request: 'CreateConsultationRequest',
    response: 'Consultation',
    status: 201,
    idempotent: true,
    errors: [400, 403, 404, 422],
  },
  {
    method: 'get',
    path: '/consultation/{consultationId}',
    operationId: 'getConsultation',
    summary: 'Get a consultation',
    response: 'Consultation',
    errors: [404],
  },
  {
    method: 'post',
    path: '/consultation/{consultationId}',
    operationId: 'addConsultationFollowUp',
    summary: 'Add a consultation follow-up',
    request: 'AddFollowUpRequest',
    response: 'Consultation',
    idempotent: true,
    errors: [400, 404, 409, 422],
  },
  {
    method: 'get',
    path: '/user/{userId}/case-history',
    operationId: 'getCaseHistory',
    summary: 'Get all user consultations, newest first',
    response: 'Consultation',
    list: true,
    errors: [404],
  },
  {
    method: 'post',
    path: '/webhook',
    operationId: 'createWebhook',
    summary: 'Create a webhook; the response carries its signing secret once',
    request: 'CreateWebhookRequest',
    response: 'Webhook',
    status: 201,
    idempotent: true,
    errors: [400, 422],
  },
  {
    method: 'delete',
    path: '/webhook/{webhookId}',
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook',
    status: 204,
    errors: [404],
  },
  {
    method: 'post',
    path: '/webhook/format-event',
    operationId: 'formatWebhookEvent',
    summary: 'Format a webhook event from any JSON object',
    request: 'FormatEventRequest',
    response: 'WebhookEvent',
    errors: [400],
  },
  {
    method: 'post',
    path: '/v2/health-navigator/users/{userId}/conversations',
    operationId: 'startNavigatorConversation',
    summary: 'Start a health navigator conversation',
    request: 'StartConversationRequest',
    response: 'NavigatorConversation',
    status: 201,
    idempotent: true,
    errors: [400, 404, 422],
  },
  {
    method: 'post',
    path: '/v2/health-navigator/messages',
    operationId: 'sendNavigatorMessage',
    summary: 'Send a health navigator message; answers with the messages it added',
    request: 'SendMessageRequest',
    response: 'NavigatorReply',
    idempotent: true,
    errors: [400, 404, 422],
  },
  {
    method: 'post',
    path: '/prescription',
    operationId: 'createPrescriptionRequest',
    summary: 'Create a prescription request',
    request: 'CreatePrescriptionRequest',
    response: 'PrescriptionRequest',
    status: 201,
    idempotent: true,
    errors: [400, 404, 422],
  },
];

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input; `errors` names each bad field',
  401: 'Missing, unknown or expired access token',
  403: 'The user may not do this (inactive account, no active subscription)',
  404: 'Unknown id',
  409: 'State conflict (`question_limit_reached`, `consultation_closed`, `unique_id_taken`)',
  413: 'Body larger than 64 KiB',
  422: 'Idempotency-Key reused with a different request',
  429: 'Rate limited; see Retry-After',
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function jsonSchema(schema: Schema, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
}

let cached: Record<string, unknown> | undefined;

export function openApiDocument(): Record<string, unknown> {
  if (cached) return cached;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATION_TABLE) {
    const parameters = [
      ...[...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
        name: m[1],
        in: 'path',
        required: true,
        schema: { type: 'string' },
      })),
      ...(op.query ? [{ name: op.query, in: 'query', required: true, schema: { type: 'string' } }] : []),
      ...(op.idempotent
        ? [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description: 'Repeats with the same key and body answer the first result.',
              schema: { type: 'string', maxLength: 255 },
            },
          ]
        : []),
    ];
    const status = String(op.status ?? 200);
    const success =
      op.response === undefined
        ? { description: op.summary }
        : {
            description: op.summary,
            content: {
              'application/json': {
                schema: op.list ? { type: 'array', items: ref(op.response) } : ref(op.response),
              },
            },
          };
    const errors = [...new Set([...op.errors, ...(op.noAuth ? [] : [401]), 413, 429])].sort();
    (paths[op.path] ??= {})[op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.noAuth ? { security: [] } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(op.request
        ? { requestBody: { required: true, content: { 'application/json': { schema: ref(op.request) } } } }
        : {}),
      responses: {
        [status]: success,
        ...Object.fromEntries(
          errors.map((code) => [
            String(code),
            {
              description: ERROR_TEXT[code] ?? 'Error',
              content: { 'application/problem+json': { schema: ref('Problem') } },
            },
          ]),
        ),
      },
    };
  }
  cached = {
    openapi: '3.1.0',
    info: {
      title: 'Partner health consultation service (as modelled by the consult-elements sandbox)',
      version: '1.0.0',
      description:
        'The 20 operations of the partner health consultation service. Shapes the upstream specification leaves open are the choices recorded in docs/architecture.md section 3.',
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
      schemas: Object.fromEntries(
        Object.entries(components).map(([name, c]) => [name, jsonSchema(c.schema, c.io)]),
      ),
    },
  };
  return cached;
}
