// test-lane: serial (it stops a server under full load within a grace period)
/**
 * Graceful stop by SIGTERM and by SIGINT, under sustained tools/call load: the server stops accepting
 * connections at once, answers every request sent before the signal and then closes its connection
 * (no client sees a reset), commits every call, closes its database connections and exits 0 within
 * its grace period, logging in JSON. A request held open across the signal (headers received, body
 * not yet sent) proves "in flight" without depending on timing. restart.test.ts covers what the next
 * start makes of the committed usage.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { connect } from 'node:net';
import { test } from 'node:test';
import { createDb } from '../../lib/db/client.ts';
import { sqliteFilePath } from '../../lib/db/sqlite-file.ts';
import { bearer, MCP_HEADERS, type McpAnswer, postMcp, toolCall } from '../support/mcp-client.ts';
import { type ServerExit, startTestServer, type TestServer } from '../support/test-server.ts';

const CLIENTS = 8;
/** Answers seen before the signal, so it lands in sustained load. */
const ANSWERS_BEFORE_SIGNAL = 100;
const HELD_CALLS = 2;
/** server.ts's SHUTDOWN_GRACE_MS: past it the server exits 1 with requests cut off. */
const GRACE_MS = 10_000;

const QUERY_WATER = () => toolCall('service_query_compound', { compound_name: 'water' });

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal} under load: in-flight calls are answered and committed, new connections refused, exit 0`, async (t) => {
    const server = await startTestServer();
    t.after(() => server.stop());
    const created = server.cli(
      'key',
      'create',
      '--owner',
      server.adminEmail,
      '--daily-quota',
      '1000000',
      '--rps',
      '100000',
      '--json',
    );
    assert.equal(created.status, 0, created.stderr);
    const { id, key } = JSON.parse(created.stdout) as { id: string; key: string };

    const requestIds: string[] = [];
    const errorsAfterSignal: string[] = [];
    let signalled = false;
    let enoughAnswers!: () => void;
    const loaded = new Promise<void>((resolve) => (enoughAnswers = resolve));
    async function client(): Promise<void> {
      for (;;) {
        let answer: McpAnswer;
        try {
          answer = await postMcp(server.mcpUrl, QUERY_WATER(), bearer(key));
        } catch (error) {
          if (!signalled) throw error;
          errorsAfterSignal.push(causeCode(error) ?? String(error));
          return;
        }
        assert.equal(answer.status, 200, `every call the server takes is answered in full: ${answer.text}`);
        requestIds.push(answer.headers.get('x-request-id')!);
        if (requestIds.length >= ANSWERS_BEFORE_SIGNAL) enoughAnswers();
      }
    }
    const load = Promise.all(Array.from({ length: CLIENTS }, client));
    await loaded;

    const held = await Promise.all(Array.from({ length: HELD_CALLS }, () => holdCall(server.mcpUrl, key)));
    const signalledAt = Date.now();
    signalled = true;
    const exited = server.kill(signal);
    await waitForOutput(server, '"msg":"stopping', exited);

    assert.equal(await connectionOutcome(server.baseUrl), 'ECONNREFUSED', 'a new connection after the stop is refused');
    for (const call of held) {
      const answer = await call.send();
      assert.equal(answer.status, 200, `a call in flight at the signal is answered: ${answer.text}`);
      assert.match(answer.text, /"isError":false/);
      assert.equal(
        answer.headers.connection,
        'close',
        'its answer closes the connection, which would otherwise keep the server open',
      );
      requestIds.push(answer.headers['x-request-id'] as string);
    }
    await load;
    // Each client's connection ended after an answer, and its next connection was refused; a reset
    // (ECONNRESET, UND_ERR_SOCKET) would be a request that was sent and never answered.
    assert.deepEqual(
      errorsAfterSignal,
      Array(CLIENTS).fill('ECONNREFUSED'),
      'clients find the server gone only between requests',
    );

    const exit = await Promise.race([
      exited,
      // unref: the timer must not keep the test process alive once the server has exited.
      new Promise<'hung'>((resolve) => setTimeout(resolve, GRACE_MS + 20_000, 'hung').unref()),
    ]);
    assert.deepEqual(
      exit,
      { code: 0, signal: null } satisfies ServerExit,
      `the stop completes cleanly:\n${server.output().slice(-3000)}`,
    );
    assert.ok(Date.now() - signalledAt < GRACE_MS, 'within the grace period');

    const output = server.output();
    const fromStop = output
      .slice(output.lastIndexOf('\n', output.indexOf('"msg":"stopping')) + 1)
      .trim()
      .split('\n');
    const lines = fromStop.map((line) => JSON.parse(line) as { msg: string; signal?: string });
    assert.deepEqual(
      [lines[0].signal, lines.at(-1)?.msg, lines.at(-1)?.signal],
      [signal, 'stopped', signal],
      'the stop is logged from start to end, in JSON',
    );

    const file = sqliteFilePath(server.env.DATABASE_URL!);
    assert.equal(
      existsSync(`${file}-wal`),
      false,
      'every database connection was closed (the last one to close removes the WAL file)',
    );
    const db = createDb(server.env.DATABASE_URL);
    try {
      const committed = await db.callLog.findMany({ where: { keyId: id }, select: { requestId: true, outcome: true } });
      assert.deepEqual(
        committed.filter((row) => row.outcome !== 'success'),
        [],
      );
      assert.deepEqual(
        committed.map((row) => row.requestId).sort(),
        requestIds.sort(),
        'every answered call is committed, and every committed call was answered: none was cut off in flight',
      );
    } finally {
      await db.$disconnect();
    }
  });
}

/**
 * A tools/call sent with "Expect: 100-continue": the server's "100 Continue" proves it has the
 * request under way (node emits it with the request), while the body waits for send().
 */
async function holdCall(mcpUrl: string, key: string) {
  const body = JSON.stringify(QUERY_WATER());
  const request = http.request(mcpUrl, {
    method: 'POST',
    agent: new http.Agent({ keepAlive: true }),
    headers: { ...MCP_HEADERS, ...bearer(key), 'content-length': Buffer.byteLength(body), expect: '100-continue' },
  });
  const answer = new Promise<{ status?: number; headers: http.IncomingHttpHeaders; text: string }>(
    (resolve, reject) => {
      request.once('error', reject);
      request.once('response', (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk) => (text += chunk));
        response.once('end', () => resolve({ status: response.statusCode, headers: response.headers, text }));
      });
    },
  );
  await new Promise<void>((resolve, reject) => {
    request.once('continue', resolve);
    request.once('error', reject);
    request.flushHeaders();
  });
  return {
    send: () => {
      request.end(body);
      return answer;
    },
  };
}

async function waitForOutput(server: TestServer, text: string, exited: Promise<ServerExit>): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  while (!server.output().includes(text)) {
    if (gone) assert.fail(`the server exited without logging ${text}:\n${server.output().slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Opens a bare TCP connection to the server's port: 'connected', or the error code. */
function connectionOutcome(baseUrl: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** The system error code behind a failed fetch (undici wraps it in `cause`). */
function causeCode(error: unknown): string | undefined {
  return ((error as { cause?: { code?: string } }).cause ?? (error as { code?: string }))?.code;
}
