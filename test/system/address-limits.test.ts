/**
 * What one address may hold of the production server, behind the proxy (TRUST_PROXY=1): open connections
 * by socket address (127.0.0.1 against 127.0.0.2, both on the loopback), requests in flight by the
 * forwarded client address, and headers that trickle. The excess is refused while other addresses are
 * still served.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ProbeAnswer, probe } from '../support/body-probes.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const MAX_CONNECTIONS = 6;
const MAX_IN_FLIGHT = 2;
let server: TestServer;
let port: number;

before(async () => {
  server = await startTestServer({
    TRUST_PROXY: '1',
    MAX_CONNECTIONS_PER_ADDRESS: String(MAX_CONNECTIONS),
    MAX_REQUESTS_PER_ADDRESS: String(MAX_IN_FLIGHT),
    HEADERS_TIMEOUT_SECONDS: '2',
    // Held bodies stay held: only the time limit applies, and it is far off.
    BODY_MIN_BYTES_PER_SECOND: '0',
    BODY_TIMEOUT_SECONDS: '60',
  });
  port = Number(new URL(server.baseUrl).port);
});
after(() => server?.stop());

/** A keep-alive connection that was served one GET /api/ping, left open. */
async function servedConnection(localAddress?: string): Promise<net.Socket> {
  const socket = net.connect({ host: '127.0.0.1', port, localAddress });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('data', (chunk) => {
      const status = /^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1];
      if (status === '200') resolve();
      else reject(new Error(`expected 200, got ${chunk.toString('latin1').slice(0, 200)}`));
    });
    socket.write(`GET /api/ping HTTP/1.1\r\nhost: localhost:${port}\r\n\r\n`);
  });
  return socket;
}

const ping = (localAddress?: string, headers: Record<string, string> = {}) =>
  probe({ port, localAddress }, { method: 'GET', path: '/api/ping', headers: { ...headers, connection: 'close' } });

/** Headers a trusted proxy adds for a client at `address` that came over HTTPS. */
const forwarded = (address: string) => ({ 'x-forwarded-for': address, 'x-forwarded-proto': 'https' });

/** Sends until `done` holds for an answer (the server may not have seen the requests before it yet), at most 40 times. */
async function until(send: () => Promise<ProbeAnswer>, done: (answer: ProbeAnswer) => boolean): Promise<ProbeAnswer> {
  let answer = await send();
  for (let tries = 1; !done(answer) && tries < 40; tries++) {
    await sleep(250);
    answer = await send();
  }
  return answer;
}

test('connections over the cap from one socket address get 429 and are closed; another address is served; a closed one frees its place', async () => {
  const held = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, () => servedConnection()));
  try {
    const refused = await ping();
    assert.equal(refused.status, 429);
    assert.equal(refused.json?.error, 'too_many_connections');
    assert.match(refused.json?.message ?? '', new RegExp(`${MAX_CONNECTIONS} connections open`));
    assert.ok(refused.closedByServer);

    assert.equal((await ping('127.0.0.2')).status, 200, 'another address is served meanwhile');

    held.pop()?.destroy();
    assert.equal((await until(ping, (answer) => answer.status === 200)).status, 200, 'a freed place is taken again');
  } finally {
    for (const socket of held) socket.destroy();
  }
});

test('requests in flight over the cap from one forwarded client address get 429; another client address is served', async () => {
  const client = forwarded('203.0.113.10');
  // Requests held in flight: their bodies are never finished.
  const holds = Array.from({ length: MAX_IN_FLIGHT }, () =>
    probe(
      { port },
      {
        path: '/api/keys/report-leak',
        headers: { ...client, 'content-type': 'application/json', 'content-length': '1000' },
        body: { trickleMs: 1000 },
        giveUpMs: 8000,
      },
    ),
  );
  const refused = await until(
    () => ping(undefined, client),
    (answer) => answer.status === 429,
  );
  assert.equal(refused.status, 429);
  assert.equal(refused.json?.error, 'too_many_requests');
  assert.match(refused.json?.message ?? '', new RegExp(`${MAX_IN_FLIGHT} requests in progress`));

  assert.equal((await ping(undefined, forwarded('203.0.113.11'))).status, 200, 'another client is served meanwhile');
  await Promise.all(holds);
});

test('headers that trickle get 408 and the connection is closed', async () => {
  const answer = await probe({ port }, { method: 'GET', path: '/api/ping', trickleHeadersMs: 300, giveUpMs: 30_000 });
  assert.equal(answer.status, 408);
  assert.ok(answer.closedByServer);
  assert.equal((await ping()).status, 200, 'the server serves on');
});
