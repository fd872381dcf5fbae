/**
 * `ProblemError`, built from a status and options or by a named problem: each named problem says
 * what it always said on the wire (status, body and headers), and what a caller gives overrides
 * only what it names.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { problem } from '../../src/proxy/http.js';
import { ProblemError, unknownId } from '../../src/server/problems.js';

async function wire(error: ProblemError) {
  const response = problem(error);
  return {
    status: response.status,
    body: await response.text(),
    retryAfter: response.headers.get('retry-after'),
    challenge: response.headers.get('www-authenticate'),
  };
}

describe('ProblemError', () => {
  it('from a status and options: the body in its fixed order, empty parts left out', async () => {
    const error = new ProblemError(413, {
      code: 'payload_too_large',
      title: 'Payload too large',
      detail: 'Request bodies are limited to 10 bytes.',
    });
    assert.deepEqual(await wire(error), {
      status: 413,
      body: '{"type":"about:blank","title":"Payload too large","status":413,"detail":"Request bodies are limited to 10 bytes.","code":"payload_too_large"}',
      retryAfter: null,
      challenge: null,
    });
    assert.equal(error.message, 'Payload too large: Request bodies are limited to 10 bytes.');
    assert.equal(new ProblemError(409, { code: 'x', title: 'Conflict', detail: '' }).message, 'Conflict');
    assert.equal(
      (await wire(new ProblemError(409, { code: 'x', title: 'Conflict' }))).body,
      '{"type":"about:blank","title":"Conflict","status":409,"code":"x"}',
    );
  });

  it('the named problems, as the proxy and the sandbox answered them before', async () => {
    const fields = [{ field: 'uniqueId', message: 'is required' }];
    const cases: [ProblemError, number, string, string | null][] = [
      [
        ProblemError.badRequest({ code: 'invalid_json', detail: 'The request body is not valid JSON.' }),
        400,
        '{"type":"about:blank","title":"Invalid request","status":400,"detail":"The request body is not valid JSON.","code":"invalid_json"}',
        null,
      ],
      [
        ProblemError.invalid(fields),
        400,
        '{"type":"about:blank","title":"Invalid request","status":400,"detail":"uniqueId: is required","code":"invalid_request","errors":[{"field":"uniqueId","message":"is required"}]}',
        null,
      ],
      [
        ProblemError.unauthorized({
          code: 'invalid_signature',
          detail: 'The webhook signature is not valid.',
        }),
        401,
        '{"type":"about:blank","title":"Unauthorized","status":401,"detail":"The webhook signature is not valid.","code":"invalid_signature"}',
        null,
      ],
      [
        ProblemError.forbidden({ code: 'user_inactive', detail: 'No.' }),
        403,
        '{"type":"about:blank","title":"Forbidden","status":403,"detail":"No.","code":"user_inactive"}',
        null,
      ],
      [
        unknownId('user', 'usr_1'),
        404,
        '{"type":"about:blank","title":"Not found","status":404,"detail":"No user with id \\"usr_1\\".","code":"not_found"}',
        null,
      ],
      [
        ProblemError.conflict({ code: 'nothing_to_answer', detail: 'Done.' }),
        409,
        '{"type":"about:blank","title":"Conflict","status":409,"detail":"Done.","code":"nothing_to_answer"}',
        null,
      ],
      [
        ProblemError.idempotencyKeyReused(),
        422,
        '{"type":"about:blank","title":"Idempotency key reused","status":422,"detail":"This Idempotency-Key was used with a different request.","code":"idempotency_key_reused"}',
        null,
      ],
      [
        ProblemError.tooManyRequests(7),
        429,
        '{"type":"about:blank","title":"Too many requests","status":429,"detail":"Please wait a moment and try again.","code":"rate_limited"}',
        '7',
      ],
      [
        ProblemError.tooManyRequests(10, {
          code: 'too_many_streams',
          title: 'Too many open streams',
          detail: 'Close another tab and try again.',
        }),
        429,
        '{"type":"about:blank","title":"Too many open streams","status":429,"detail":"Close another tab and try again.","code":"too_many_streams"}',
        '10',
      ],
      [
        ProblemError.internal('Something went wrong.'),
        500,
        '{"type":"about:blank","title":"Internal error","status":500,"detail":"Something went wrong.","code":"internal_error"}',
        null,
      ],
      [
        ProblemError.badGateway({ code: 'upstream_failed', detail: 'The consultation service failed.' }),
        502,
        '{"type":"about:blank","title":"Service unavailable","status":502,"detail":"The consultation service failed.","code":"upstream_failed"}',
        null,
      ],
      [
        ProblemError.unavailable({ code: 'try_again', detail: 'Later.', retryAfter: 5 }),
        503,
        '{"type":"about:blank","title":"Service unavailable","status":503,"detail":"Later.","code":"try_again"}',
        '5',
      ],
      [
        ProblemError.unavailable({ code: 'sandbox_fault', detail: 'A fault.' }),
        503,
        '{"type":"about:blank","title":"Service unavailable","status":503,"detail":"A fault.","code":"sandbox_fault"}',
        null,
      ],
    ];
    for (const [error, status, body, retryAfter] of cases) {
      assert.deepEqual(await wire(error), { status, body, retryAfter, challenge: null }, error.code);
    }
  });

  it('headers given to a named problem go with it', async () => {
    const error = ProblemError.unauthorized({
      code: 'session_required',
      detail: 'Sign in to continue.',
      headers: { 'www-authenticate': 'Bearer realm="consult"' },
    });
    assert.equal((await wire(error)).challenge, 'Bearer realm="consult"');
  });
});
