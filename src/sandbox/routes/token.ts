import { Hono } from 'hono';
import type { AccessToken } from '../../client/types.js';
import type { SandboxCore, SandboxEnv } from '../context.js';
import { ProblemError } from '../../server/problems.js';
import { CreateAccessTokenBody } from '../../server/schemas.js';
import { newId } from '../ids.js';
import { readBody } from '../../server/validation.js';

/** Operation 1: an access token for an API key. */
export function tokenRoutes(core: SandboxCore) {
  return new Hono<SandboxEnv>().post('/partner/authorization/token', async (c) => {
    const { apiKey, subPartnerName } = await readBody(c, CreateAccessTokenBody);
    if (!core.apiKeys.includes(apiKey)) {
      throw ProblemError.unauthorized({ code: 'invalid_api_key', detail: 'The API key is not valid.' });
    }
    const token = newId('tok') + newId('').slice(1);
    core.tokens.set(token, {
      token,
      expiresAt: core.clock.now() + core.tokenTtlMs,
      ...(subPartnerName ? { subPartnerName } : {}),
    });
    const body: AccessToken = {
      accessToken: token,
      tokenType: 'Bearer',
      expiresIn: Math.ceil(core.tokenTtlMs / 1000),
    };
    return c.json(body, 200, { 'cache-control': 'no-store' });
  });
}
