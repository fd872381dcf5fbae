/**
 * The proxy compresses its large JSON answers for browsers that accept gzip, never its small ones
 * (gzip would cost more than it saves) nor its event stream, which must reach the page event by event: over real HTTP on loopback, reading the raw bytes.
 */
import assert from 'node:assert/strict';
import { request, type IncomingMessage } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { acceptsGzip, COMPRESS_THRESHOLD } from '../../src/proxy/compress.js';
import { startTestProxy, type TestProxy } from './support/proxy.js';

/** A GET with `headers`, answered with the response and, unless `firstChunkOnly`, its whole raw body. */
function get(
  url: string,
  headers: Record<string, string>,
  firstChunkOnly = false,
): Promise<{ response: IncomingMessage; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (firstChunkOnly) {
          resolve({ response, body: Buffer.concat(chunks) });
          req.destroy();
        }
      });
      response.on('end', () => resolve({ response, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    req.on('error', (error) => (firstChunkOnly ? undefined : reject(error)));
    req.end();
  });
}

describe('the proxy’s compression', () => {
  let proxy: TestProxy;
  let token: string;
  before(async () => {
    proxy = await startTestProxy();
    token = await proxy.session('alex');
  });
  after(() => proxy.close());

  it('gzips a JSON answer for a browser that accepts it, and not for one that does not', async () => {
    const url = `${proxy.url}/user/usr_demo_alex/case-history`;
    const auth = { authorization: `Bearer ${token}` };
    const zipped = await get(url, { ...auth, 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(zipped.response.statusCode, 200);
    assert.equal(zipped.response.headers['content-encoding'], 'gzip');
    assert.match(String(zipped.response.headers.vary), /accept-encoding/i);
    const plain = await get(url, { ...auth, 'accept-encoding': 'identity' });
    assert.equal(plain.response.headers['content-encoding'], undefined);
    const unzipped = gunzipSync(zipped.body);
    assert.deepEqual(JSON.parse(unzipped.toString('utf8')), JSON.parse(plain.body.toString('utf8')));
    assert.ok(
      zipped.body.length < plain.body.length / 2,
      `${zipped.body.length} of ${plain.body.length} bytes`,
    );
  });

  it('sends a small JSON answer as it is, which gzip would barely shorten', async () => {
    const url = `${proxy.url}/consultation/cns_demo_alex_rash`;
    const { response, body } = await get(url, {
      authorization: `Bearer ${token}`,
      'accept-encoding': 'gzip, deflate, br',
    });
    assert.equal(response.statusCode, 200);
    assert.ok(body.length < COMPRESS_THRESHOLD, `${body.length} bytes`);
    assert.equal(response.headers['content-encoding'], undefined);
    assert.equal(JSON.parse(body.toString('utf8')).consultationId, 'cns_demo_alex_rash');
  });

  it('reads Accept-Encoding as HTTP does: gzip named or by *, never with q=0', () => {
    assert.equal(acceptsGzip('gzip, deflate, br'), true);
    assert.equal(acceptsGzip('br;q=1.0, gzip;q=0.8'), true);
    assert.equal(acceptsGzip('*'), true);
    assert.equal(acceptsGzip('gzip;q=0, *'), false);
    assert.equal(acceptsGzip('*;q=0'), false);
    assert.equal(acceptsGzip('identity'), false);
    assert.equal(acceptsGzip(undefined), false);
  });

  it('sends the event stream uncompressed, its first bytes at once', async () => {
    const { response, body } = await get(
      `${proxy.url}/events`,
      { authorization: `Bearer ${token}`, accept: 'text/event-stream', 'accept-encoding': 'gzip' },
      true,
    );
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^text\/event-stream/);
    assert.equal(response.headers['content-encoding'], undefined);
    // Readable as it comes: the opening comment, in plain text (ready follows as soon as the stream hears the member's events).
    assert.match(body.toString('utf8'), /^: open\n\n/);
  });
});
