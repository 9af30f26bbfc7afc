/**
 * The call-log export on the production server, with a key of 200,000 calls: the file starts with
 * UTF-8's byte-order mark and is otherwise the call log exactly; other requests are answered while an
 * export streams; exports beyond one account's limit answer 429 and beyond the server's 503, each with
 * Retry-After and a message, and a place frees up when an export finishes or its download is dropped.
 * A download held open (its reader paused) keeps its export running: the server waits for the reader.
 */
process.env.KEY_HASH_SECRET ??= 'e'.repeat(64);

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { createDb } from '../../lib/db/client.ts';
import { CALL_LOG_CSV_HEADER, callLogCsvLines } from '../../lib/usage/call-log-export.ts';
import { daysEndingWith } from '../../lib/usage/queries.ts';
import { quotaDayStart } from '../../lib/usage/range.ts';
import { prepareScaleDatabase } from '../../tools/bench/seed-scale.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { signInWithForm } from '../support/web-client.ts';

const CALLS = 200_000;
const PASSWORD = 'a long export test password';
const STAFF = ['ada', 'bob', 'cleo'] as const;
type Staff = (typeof STAFF)[number];

let server: TestServer;
let dataDir: string;
let databaseUrl: string;
let keyId: string;
let lineageId: string;
const cookies = {} as Record<Staff, string>;

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chemflow-export-'));
  databaseUrl = `file:${join(dataDir, 'export.db')}`;
  await prepareScaleDatabase(databaseUrl, { keys: 1, calls: CALLS, days: 30 });
  const db = createDb(databaseUrl);
  ({ id: keyId, lineageId } = await db.apiKey.findFirstOrThrow({ select: { id: true, lineageId: true } }));
  await db.$disconnect();
  server = await startTestServer({
    DATABASE_URL: databaseUrl,
    EXPORTS_PER_ACCOUNT: '1',
    EXPORTS_PER_SERVER: '2',
    EXPORT_WAIT_SECONDS: '3',
  });
  for (const name of STAFF) {
    server.cliOk('user', 'create', '--email', `${name}@example.test`, '--password', PASSWORD, '--role', 'support');
    cookies[name] = (await signInWithForm(server.baseUrl, `${name}@example.test`, PASSWORD)).jar.header();
  }
});
after(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const exportUrl = () => `${server.baseUrl}/api/support/keys/${encodeURIComponent(keyId)}/calls.csv?range=30`;

/** An export's answer: a refusal read whole, or a 200 whose body is read on demand. */
interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** A refusal's text. */
  text: string;
  /** Resolves with the whole body once it has been read to the end (reading resumes if paused). */
  body: () => Promise<Buffer>;
  /** Drops the download, as a browser does when its tab is closed. */
  drop: () => void;
}

/**
 * Starts an export. A 200's body flows until its first chunk, then pauses unless `flowing`: the reader
 * stops taking bytes, so the server's stream fills and the export stays running until body() or drop().
 */
function startExport(who: Staff, { flowing = false } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(exportUrl(), { headers: { cookie: cookies[who] } }, (response) => {
        const chunks: Buffer[] = [];
        const ended = new Promise<Buffer>((done, fail) => {
          response.on('end', () => done(Buffer.concat(chunks)));
          response.on('error', fail);
        });
        const answer = (text: string): Answer => ({
          status: response.statusCode!,
          headers: response.headers,
          text,
          body: () => {
            response.resume();
            return ended;
          },
          drop: () => response.destroy(),
        });
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        if (response.statusCode !== 200) {
          ended.then((body) => resolve(answer(body.toString('utf8'))), reject);
          return;
        }
        response.once('data', () => {
          if (!flowing) response.pause();
          resolve(answer(''));
        });
      })
      .on('error', reject);
  });
}

/** CRLF-ended lines of a CSV body after its byte-order mark. */
const lineCount = (body: Buffer) => body.subarray(3).toString('utf8').split('\r\n').length - 1;

function refusedWith(answer: Answer, status: number, message: RegExp): void {
  assert.equal(answer.status, status, answer.text);
  assert.equal(answer.headers['retry-after'], '30');
  assert.equal(answer.headers['content-type'], 'text/plain; charset=utf-8');
  assert.match(answer.text, message);
}

describe('call-log export on the production server', () => {
  it("starts with UTF-8's byte-order mark, after which the file is the call log exactly, and parses to the same rows", async () => {
    const body = await (await startExport('ada', { flowing: true })).body();
    assert.deepEqual([...body.subarray(0, 3)], [0xef, 0xbb, 0xbf]);

    const db = createDb(databaseUrl);
    const days = daysEndingWith(new Date().toISOString().slice(0, 10), 30);
    let expected = '';
    for await (const chunk of callLogCsvLines(db, lineageId, new Date(quotaDayStart('UTC', days[0])), new Date()))
      expected += chunk;
    await db.$disconnect();
    assert.ok(body.subarray(3).toString('utf8') === expected, 'the bytes after the mark are the call log as written');

    const records: string[][] = parse(body, { bom: true, relax_column_count: false });
    assert.deepEqual(records[0], CALL_LOG_CSV_HEADER, 'a UTF-8 parser drops the mark: the header is unchanged');
    assert.equal(records.length, CALLS + 1);
    assert.match(records[1][5], /^cf_\w{4}…\w{4}$/, 'the key column keeps its "…"');
  });

  it('answers /api/ping and /mcp while an export streams, before the export has finished', async () => {
    const order: string[] = [];
    const download = await startExport('ada', { flowing: true });
    const finished = download.body().then((body) => {
      order.push('export finished');
      return body;
    });
    const ping = fetch(`${server.baseUrl}/api/ping`).then(async (answer) => {
      order.push(`ping ${answer.status} ${await answer.text()}`);
    });
    const mcp = fetch(server.mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${server.demoKey}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'service_query_compound', arguments: { compound_name: 'water' } },
      }),
    }).then(async (answer) => {
      order.push(`mcp ${answer.status} ${/"isError":false/.test(await answer.text())}`);
    });
    const [body] = await Promise.all([finished, ping, mcp]);
    assert.equal(lineCount(body), CALLS + 1, 'the export was whole');
    assert.deepEqual(order.slice(-1), ['export finished'], `answered while the export ran: ${order.join(', ')}`);
    assert.deepEqual(order.slice(0, 2).sort(), ['mcp 200 true', 'ping 200 ok']);
  });

  it('runs one export per account and two per server; beyond that 429 or 503 with Retry-After, until a place frees up', async () => {
    const adas = await startExport('ada');
    assert.equal(adas.status, 200);
    refusedWith(
      await startExport('ada'),
      429,
      /^Your other call-log export is still running: ChemFlow runs one export per account at a time\. Wait for that download to finish, then try again\.\n$/,
    );
    const bobs = await startExport('bob');
    assert.equal(bobs.status, 200, "another account's export runs beside Ada's");
    refusedWith(
      await startExport('cleo'),
      503,
      /^ChemFlow is busy with other call-log exports \(2 at a time\)\. Try again in 30 seconds; your keys and their calls are not affected\.\n$/,
    );

    assert.equal(lineCount(await adas.body()), CALLS + 1, "Ada's held export finishes whole once read");
    const cleos = await startExport('cleo', { flowing: true });
    assert.equal(cleos.status, 200, "Ada's finished export gave its place to Cleo");
    assert.equal(lineCount(await cleos.body()), CALLS + 1);

    bobs.drop();
    // Bob's dropped download frees his place; his next export waits in line for it (EXPORT_WAIT_SECONDS).
    const bobsNext = await startExport('bob', { flowing: true });
    assert.equal(bobsNext.status, 200, bobsNext.text);
    assert.equal(lineCount(await bobsNext.body()), CALLS + 1);
  });
});
