/**
 * The body guard on a real node:http server in this process: bodies within the cap reach the handler
 * whole; a declared length over it is refused before the handler runs; a chunked body is cut off where
 * it crosses it; a body left unread is still counted; a trickle and a body past the time limit get 408.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { probe } from '../../test/support/body-probes.ts';
import { bodyCapFor } from './body-caps.ts';
import { BodyGuard, type BodyPace, GuardedRequest } from './body-guard.ts';

const PATH = '/api/auth/callback/credentials';
const CAP = bodyCapFor(PATH).bytes;

interface Seen {
  /** Bytes each handler call read before its body ended or was cut off. */
  reads: number[];
}

/** A server whose handler reads the whole body and answers its size (or, with `unread`, answers at once). */
async function guardedServer(t: test.TestContext, pace: BodyPace, { unread = false } = {}) {
  const guard = new BodyGuard(pace);
  const seen: Seen = { reads: [] };
  const server = http.createServer({ IncomingMessage: GuardedRequest }, (req: GuardedRequest, res) => {
    if (!guard.admit(req, res, PATH)) return;
    if (unread) return void res.end('answered without reading');
    const at = seen.reads.push(0) - 1;
    req.on('data', (chunk: Buffer) => (seen.reads[at] += chunk.length));
    req.on('end', () => res.end(String(seen.reads[at])));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  return { port: (server.address() as AddressInfo).port, seen };
}

const relaxed: BodyPace = { timeoutMs: 60_000, minBytesPerSecond: 0 };

test('a body of exactly the cap reaches the handler whole, declared or chunked', async (t) => {
  const { port, seen } = await guardedServer(t, relaxed);
  const body = Buffer.alloc(CAP, 97);
  const declared = await probe(
    { port },
    { path: PATH, headers: { 'content-length': String(CAP), connection: 'close' }, body },
  );
  assert.equal(declared.status, 200);
  const chunked = await probe({ port }, { path: PATH, headers: { connection: 'close' }, body, chunked: true });
  assert.equal(chunked.status, 200);
  assert.deepEqual(seen.reads, [CAP, CAP]);
});

test('a declared length over the cap is refused with 413 before the handler reads a byte', async (t) => {
  const { port, seen } = await guardedServer(t, relaxed);
  const answer = await probe(
    { port },
    { path: PATH, headers: { 'content-length': String(CAP + 1) }, body: Buffer.alloc(CAP + 1, 97) },
  );
  assert.equal(answer.status, 413);
  assert.equal(answer.json?.error, 'payload_too_large');
  assert.ok(answer.closedByServer);
  assert.deepEqual(seen.reads, []);
});

test('a chunked body is cut off where it crosses the cap: the handler never reads past it, the client gets 413', async (t) => {
  const { port, seen } = await guardedServer(t, relaxed);
  const answer = await probe({ port }, { path: PATH, body: Buffer.alloc(CAP * 4, 97), chunked: true });
  assert.equal(answer.status, 413);
  assert.ok(answer.closedByServer);
  assert.equal(seen.reads.length, 1);
  assert.ok(seen.reads[0] <= CAP, `the handler read ${seen.reads[0]} bytes`);
});

test('a body the handler left unread is still counted: past the cap the connection is closed', async (t) => {
  const { port } = await guardedServer(t, relaxed, { unread: true });
  const answer = await probe({ port }, { path: PATH, body: Buffer.alloc(CAP * 64, 97), chunked: true });
  assert.equal(answer.status, 200);
  assert.ok(answer.closedByServer);
});

test('a body that trickles below the minimum rate gets 408 and its connection is closed', async (t) => {
  const { port } = await guardedServer(t, { timeoutMs: 60_000, minBytesPerSecond: 1000 });
  const answer = await probe({ port }, { path: PATH, headers: { 'content-length': '5000' }, body: { trickleMs: 200 } });
  assert.equal(answer.status, 408);
  assert.equal(answer.json?.error, 'request_timeout');
  assert.ok(answer.closedByServer);
});

test('a body still arriving after the time limit gets 408, however steady', async (t) => {
  const { port } = await guardedServer(t, { timeoutMs: 1000, minBytesPerSecond: 0 });
  const answer = await probe({ port }, { path: PATH, headers: { 'content-length': '5000' }, body: { trickleMs: 50 } });
  assert.equal(answer.status, 408);
  assert.ok(answer.closedByServer);
});
