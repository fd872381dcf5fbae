/**
 * Test support: a push service stand-in on loopback (https, with a certificate made for the test),
 * and browser-side subscriptions whose private keys the test holds, so each message the proxy sends
 * is decrypted here by hand (RFC 8291, aes128gcm per RFC 8188) and its VAPID header (RFC 8292)
 * verified with node:crypto alone: nothing of web-push checks web-push.
 */
import { execFileSync } from 'node:child_process';
import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  hkdfSync,
  randomBytes,
  verify,
  type ECDH,
} from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ReceivedPush {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface PushServiceStandIn {
  origin: string;
  /** An https agent that trusts this stand-in's certificate (and nothing else). */
  agent: Agent;
  received: ReceivedPush[];
  /** The status answered for messages to `path` (default 201). */
  answer(path: string, status: number): void;
  /** Messages to `path` are received but not answered until the function given back is called. */
  hold(path: string): () => void;
  close(): Promise<void>;
}

/** A self-signed certificate for 127.0.0.1, made with openssl for this run. */
function loopbackCertificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'push-standin-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startPushService(): Promise<PushServiceStandIn> {
  const { key, cert } = loopbackCertificate();
  const received: ReceivedPush[] = [];
  const statuses = new Map<string, number>();
  const holds = new Map<string, (() => void)[]>();
  const server: Server = createServer({ key, cert }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks) });
      const reply = () => response.writeHead(statuses.get(path) ?? 201).end();
      const held = holds.get(path);
      if (held) held.push(reply);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const agent = new Agent({ ca: cert, keepAlive: false });
  return {
    origin: `https://127.0.0.1:${port}`,
    agent,
    received,
    answer: (path, status) => statuses.set(path, status),
    hold: (path) => {
      holds.set(path, []);
      return () => {
        const waiting = holds.get(path) ?? [];
        holds.delete(path);
        for (const reply of waiting) reply();
      };
    },
    close: () =>
      new Promise((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const b64url = (bytes: Buffer) => bytes.toString('base64url');

/** A browser's subscription: the keys a browser would keep to itself, and its JSON. */
export interface FakeSubscription {
  endpoint: string;
  path: string;
  ecdh: ECDH;
  auth: Buffer;
  json: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}

export function fakeSubscription(origin: string, name: string): FakeSubscription {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const path = `/push/${name}-${randomBytes(6).toString('hex')}`;
  const endpoint = `${origin}${path}`;
  return {
    endpoint,
    path,
    ecdh,
    auth,
    json: {
      endpoint,
      expirationTime: null,
      keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) },
    },
  };
}

/** Decrypts an aes128gcm Web Push message with the subscription's own keys (RFC 8291 section 3.4). */
export function decryptPush(subscription: FakeSubscription, body: Buffer): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const keyIdLength = body.readUInt8(20);
  const senderPublicKey = body.subarray(21, 21 + keyIdLength);
  const record = body.subarray(21 + keyIdLength);
  if (record.length > recordSize) throw new Error('more than one record');
  const receiverPublicKey = subscription.ecdh.getPublicKey();
  const sharedSecret = subscription.ecdh.computeSecret(senderPublicKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), receiverPublicKey, senderPublicKey]);
  const ikm = Buffer.from(hkdfSync('sha256', sharedSecret, subscription.auth, keyInfo, 32));
  const contentKey = Buffer.from(
    hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16),
  );
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', contentKey, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero or more padding zeros.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/** The claims of a VAPID `Authorization: vapid t=…, k=…` header, after checking its ES256 signature against `publicKey`. */
export function verifyVapid(authorization: string, publicKey: string): Record<string, unknown> {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization);
  if (!match) throw new Error(`not a VAPID header: ${authorization.slice(0, 20)}`);
  const [, token = '', k] = match;
  if (k !== publicKey) throw new Error('k is not the proxy’s public key');
  const [header = '', claims = '', signature = ''] = token.split('.');
  const raw = Buffer.from(publicKey, 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64url(raw.subarray(1, 33)), y: b64url(raw.subarray(33, 65)) },
    format: 'jwk',
  });
  const valid = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!valid) throw new Error('the VAPID signature does not verify');
  if (JSON.parse(Buffer.from(header, 'base64url').toString()).alg !== 'ES256') throw new Error('not ES256');
  return JSON.parse(Buffer.from(claims, 'base64url').toString()) as Record<string, unknown>;
}
