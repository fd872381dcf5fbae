/**
 * The OpenAPI 3.1 document of the interface as the sandbox models it (`GET /openapi.json`),
 * generated from the operations table and the same zod schemas that validate requests.
 */
import { z } from 'zod';
import { OPERATIONS, type OperationName } from '../client/operations.js';
import { OPERATION_SCHEMAS, schemaNamed, type OperationSchemas } from '../server/operation-schemas.js';
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

/** One operation as the OpenAPI document describes it. */
export interface Operation {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  operationId: OperationName;
  summary: string;
  /** The request body's component. */
  request?: string;
  /** The response's component (of each item, when `list`). */
  response?: string;
  /** The response is an array of `response`. */
  list?: boolean;
  status?: number;
  query?: string;
  idempotent?: boolean;
  noAuth?: boolean;
  errors: number[];
}

/** The component a schema is documented as; every schema an operation names must be one. */
function componentName(schema: Schema): string {
  const found = Object.entries(components).find(([, component]) => component.schema === schema);
  if (!found) throw new Error('An operation names a schema that is not an OpenAPI component.');
  return found[0];
}

/**
 * The 20 operations of spec section 4, in its order: the operations table (src/client/operations.ts)
 * with each one's schemas (src/server/operation-schemas.ts).
 */
export const OPERATION_TABLE: readonly Operation[] = OPERATIONS.map(
  ({ name, method, path, auth, creates }) => {
    const { summary, errors, ...described }: OperationSchemas = OPERATION_SCHEMAS[name];
    return {
      method: method.toLowerCase() as Operation['method'],
      path,
      operationId: name,
      summary,
      ...(described.request ? { request: componentName(schemaNamed(described.request)) } : {}),
      ...(described.response ? { response: componentName(schemaNamed(described.response)) } : {}),
      ...(described.list ? { list: true } : {}),
      ...(described.status === undefined ? {} : { status: described.status }),
      ...(described.query === undefined ? {} : { query: described.query }),
      ...(creates ? { idempotent: true } : {}),
      ...(auth ? {} : { noAuth: true }),
      errors: [...errors],
    };
  },
);

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
