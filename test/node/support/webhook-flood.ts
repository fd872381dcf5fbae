/**
 * A flood of badly signed webhooks, from a process of its own so that sending it does not slow the
 * test's own clock: `count` requests spread evenly over `durationMs` to `url`, each kind of forgery
 * in turn. Prints one JSON line when every request has been answered: `{"statuses": {"401": n}}`.
 *
 *   node --import tsx test/node/support/webhook-flood.ts '{"url": …, "secret": …, "count": …, "durationMs": …}'
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { Agent, fetch as undiciFetch } from 'undici';
import { newWebhookSecret } from '../../../src/sandbox/webhook-delivery.js';

export interface FloodConfig {
  url: string;
  /** The proxy's own secret, for forgeries made from genuine signatures. */
  secret: string;
  count: number;
  durationMs: number;
}

/** Runs a flood in a child process; resolves with how many requests got each status. */
export function flood(config: FloodConfig): Promise<Record<string, number>> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), JSON.stringify(config)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const guard = setTimeout(() => child.kill('SIGKILL'), config.durationMs + 30_000);
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => {
      clearTimeout(guard);
      try {
        resolve((JSON.parse(output) as { statuses: Record<string, number> }).statuses);
      } catch {
        reject(new Error(`the flood exited (${code}) with ${JSON.stringify(output.slice(0, 200))}`));
      }
    }),
  );
}

/** One badly signed request of each kind, in turn: what a flood from anywhere can send. */
export function forgedRequest(i: number, secret: string): { headers: Record<string, string>; body: string } {
  const id = `msg_forged_${i}`;
  const now = new Date();
  const seconds = String(Math.floor(now.getTime() / 1000));
  const body = JSON.stringify({ type: 'questionResolved', caseId: `cns_forged_${i % 50}` });
  const json = { 'content-type': 'application/json' };
  switch (i % 6) {
    case 0: // a made-up signature
      return {
        headers: {
          ...json,
          'webhook-id': id,
          'webhook-timestamp': seconds,
          'webhook-signature': 'v1,Zm9yZ2Vk',
        },
        body,
      };
    case 1: // signed with another secret
      return {
        headers: {
          ...json,
          'webhook-id': id,
          'webhook-timestamp': seconds,
          'webhook-signature': new Webhook(newWebhookSecret()).sign(id, now, body),
        },
        body,
      };
    case 2: {
      // signed with the right secret, then the body changed
      const signature = new Webhook(secret).sign(id, now, body);
      return {
        headers: { ...json, 'webhook-id': id, 'webhook-timestamp': seconds, 'webhook-signature': signature },
        body: body.replace('questionResolved', 'consultationClaimed'),
      };
    }
    case 3: {
      // signed with the right secret ten minutes ago: a replay outside the window
      const then = new Date(now.getTime() - 600_000);
      return {
        headers: {
          ...json,
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(then.getTime() / 1000)),
          'webhook-signature': new Webhook(secret).sign(id, then, body),
        },
        body,
      };
    }
    case 4: // no signature headers at all
      return { headers: json, body };
    default: // not JSON, with a garbage signature and timestamp
      return {
        headers: {
          ...json,
          'webhook-id': '',
          'webhook-timestamp': 'soon',
          'webhook-signature': `v1,${'A'.repeat(500)}`,
        },
        body: 'x'.repeat(8000),
      };
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const config = JSON.parse(process.argv[2] ?? '{}') as FloodConfig;
  const statuses: Record<string, number> = {};
  const answers: Promise<void>[] = [];
  // One sender's keep-alive connections, as many as a browser opens to a site several times over.
  const dispatcher = new Agent({ connections: 32 });
  const tick = 25;
  const perTick = Math.ceil(config.count / (config.durationMs / tick));
  const started = Date.now();
  for (let sent = 0, round = 0; sent < config.count; round++) {
    for (let i = 0; i < perTick && sent < config.count; i++, sent++) {
      const request = forgedRequest(sent, config.secret);
      answers.push(
        undiciFetch(config.url, {
          method: 'POST',
          headers: request.headers,
          body: request.body,
          signal: AbortSignal.timeout(15_000),
          dispatcher,
        }).then(
          async (response) => {
            await response.arrayBuffer();
            statuses[response.status] = (statuses[response.status] ?? 0) + 1;
          },
          (error: Error) => {
            statuses[error.name] = (statuses[error.name] ?? 0) + 1;
          },
        ),
      );
    }
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, started + (round + 1) * tick - Date.now())),
    );
  }
  await Promise.all(answers);
  process.stdout.write(`${JSON.stringify({ statuses })}\n`);
}
