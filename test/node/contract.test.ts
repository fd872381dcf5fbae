/**
 * One contract: the operations table (src/client/operations.ts) names each of the 20 operations
 * once, and everything made from it has each of them exactly once, no more and no fewer: the
 * schemas of each (src/server/operation-schemas.ts), the OpenAPI document, the methods of the
 * server's `ConsultClient`, and, for the member's operations only, the methods of the browser's
 * `SessionClient` and the proxy's views.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConsultClient } from '../../src/client/client.js';
import { OperationClient } from '../../src/client/operation-client.js';
import { MEMBER_OPERATIONS, OPERATION_DEFINITIONS, OPERATIONS } from '../../src/client/operations.js';
import { MEMBER_VIEWS } from '../../src/proxy/schemas.js';
import { openApiDocument } from '../../src/sandbox/openapi.js';
import { OPERATION_SCHEMAS, schemaNamed } from '../../src/server/operation-schemas.js';
import { SessionClient } from '../../src/session/session-client.js';
import { json, scriptedFetch } from './client-fixtures.js';

const NAMES = Object.keys(OPERATION_DEFINITIONS);
const sorted = (names: Iterable<string>) => [...names].sort();

/** The methods a client class adds to `OperationClient`'s. */
function methodsOf(client: { prototype: object }): string[] {
  return Object.getOwnPropertyNames(client.prototype).filter(
    (name) => name !== 'constructor' && !(name in OperationClient.prototype),
  );
}

/** Every operation of the OpenAPI document, as `operationId METHOD path`. */
function documentedOperations(): string[] {
  const paths = openApiDocument().paths as Record<string, Record<string, { operationId: string }>>;
  return Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(
      ([method, { operationId }]) => `${operationId} ${method.toUpperCase()} ${path}`,
    ),
  );
}

describe('the operations table', () => {
  it('names 20 operations, numbered 1 to 20 in spec order, each once', () => {
    assert.equal(NAMES.length, 20);
    assert.deepEqual(sorted(OPERATIONS.map(({ name }) => name)), sorted(NAMES));
    assert.deepEqual(
      OPERATIONS.map(({ number }) => number),
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    assert.equal(new Set(OPERATIONS.map(({ method, path }) => `${method} ${path}`)).size, 20);
  });

  it('has the schemas of exactly its operations', () => {
    assert.deepEqual(sorted(Object.keys(OPERATION_SCHEMAS)), sorted(NAMES));
  });

  it('is the OpenAPI document: each operation once, with its method and path', () => {
    const documented = documentedOperations();
    assert.deepEqual(
      sorted(documented),
      sorted(OPERATIONS.map(({ name, method, path }) => `${name} ${method} ${path}`)),
    );
    assert.equal(new Set(documented.map((entry) => entry.split(' ')[0])).size, 20);
  });

  it('gives each operation’s body a schema object of its own, which the document names by identity', () => {
    const bodies = Object.values(OPERATION_SCHEMAS).flatMap((s) =>
      'request' in s ? [schemaNamed(s.request)] : [],
    );
    assert.equal(new Set(bodies).size, bodies.length);
  });

  it('is the methods of ConsultClient: all 20, each once, and no others', () => {
    assert.deepEqual(sorted(methodsOf(ConsultClient)), sorted(NAMES));
  });

  it('is the methods of the browser’s SessionClient: the member’s operations and the proxy’s own routes, and no others', () => {
    // The proxy's member surface (docs/architecture.md 2.1).
    const member = [
      'getUser',
      'getUserSubscriptions',
      'getSubscription',
      'getSubscriptionHistory',
      'createConsultation',
      'getConsultation',
      'addConsultationFollowUp',
      'getCaseHistory',
      'startNavigatorConversation',
      'sendNavigatorMessage',
      'createPrescriptionRequest',
    ];
    assert.deepEqual(sorted(Object.keys(MEMBER_OPERATIONS)), sorted(member));
    assert.deepEqual(
      sorted(OPERATIONS.filter(({ caller }) => caller === 'member').map(({ name }) => name)),
      sorted(member),
    );
    // The proxy's own routes (read marks, kept prescription requests) are no operation of the service.
    assert.deepEqual(
      sorted(methodsOf(SessionClient)),
      sorted([...member, 'markConsultationSeen', 'getPrescriptions']),
    );
    assert.deepEqual(sorted(Object.keys(MEMBER_VIEWS)), sorted(member));
  });

  it('gives each method its options after the table’s arguments, and sends the path the table names', async () => {
    const { fetch, requests } = scriptedFetch([], (request) =>
      request.method === 'DELETE' ? new Response(null, { status: 204 }) : json(200, {}),
    );
    const client = new ConsultClient({ baseUrl: 'https://api.example.test', fetch, retry: { retries: 0 } });
    for (const { name, path } of OPERATIONS) {
      const { request } = OPERATION_DEFINITIONS[name];
      const args = Array.from({ length: request.length }, (_, i) => `arg${i}`);
      const method = client[name] as (...args: unknown[]) => Promise<unknown>;

      const reason = new Error(`aborted ${name}`);
      const aborted = AbortSignal.abort(reason);
      await assert.rejects(method.call(client, ...args, { signal: aborted }), reason, name);

      await method.call(client, ...args, { idempotencyKey: `key-${name}` });
      const sent = requests.at(-1)!;
      const expected = path.replace(/\{\w+\}/g, () => 'arg\\d');
      assert.match(sent.url.pathname, new RegExp(`^${expected}$`), name);
      if (OPERATIONS.find((op) => op.name === name)!.creates) {
        assert.equal(sent.headers.get('idempotency-key'), `key-${name}`, name);
      }
    }
    assert.equal(requests.length, 20);
  });
});
