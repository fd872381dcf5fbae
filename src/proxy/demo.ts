import { DemoSignInBody } from './schemas.js';
import type { Member } from './options.js';

/**
 * Demo sign-in: `POST {base}/session` with `{ "demoUser": "alex" }` signs in as that member. For
 * the sandbox only; the Node entry refuses it against any other upstream.
 */
export function demoSignIn(): (request: Request) => Promise<Member | undefined> {
  return async (request) => {
    const body: unknown = await request
      .clone()
      .json()
      .catch(() => undefined);
    const parsed = DemoSignInBody.safeParse(body);
    return parsed.success ? { uniqueId: parsed.data.demoUser } : undefined;
  };
}
