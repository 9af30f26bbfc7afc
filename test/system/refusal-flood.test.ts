// test-lane: serial (it floods the server as fast as the machine allows)
/**
 * A flood of calls a limit refuses costs a bounded amount of storage: keep-alive connections send
 * tools/call as fast as they can with a key whose daily quota is used up and one past its per-second rate
 * (tools/flood). What the database file (after a WAL checkpoint) and the log gain is small, and a second
 * flood as large as the first adds next to nothing: the bytes do not grow with the number of 429s.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { refusedKeys } from '../../tools/flood/keys.ts';
import { type FloodResult, type FloodTarget, floodWithRefusedCalls } from '../../tools/flood/refusal-flood.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const CALLS_PER_FLOOD = 3000;
/** Bounds for a flood, whatever its size: a few pages of counts and samples, a few sampled lines a key. */
const FIRST_FLOOD_DB_BYTES = 256 * 1024;
const LATER_FLOOD_DB_BYTES = 32 * 1024;
const FLOOD_LOG_BYTES = 8 * 1024;

let server: TestServer;
let target: FloodTarget;
before(async () => {
  server = await startTestServer();
  target = {
    mcpUrl: server.mcpUrl,
    databaseUrl: server.env.DATABASE_URL!,
    output: server.output,
    keys: await refusedKeys(server),
  };
});
after(() => server?.stop());

const flood = () => floodWithRefusedCalls(target, { connections: 32, maxCalls: CALLS_PER_FLOOD, maxMs: 60_000 });

function assertRefusedFlood(result: FloodResult): void {
  assert.deepEqual(
    Object.keys(result.statuses).filter((status) => status !== '200' && status !== '429'),
    [],
    JSON.stringify(result.statuses),
  );
  assert.ok(result.refused >= CALLS_PER_FLOOD * 0.5, `most calls were refused: ${JSON.stringify(result)}`);
}

test('two floods of refused calls: the first adds a bounded amount, the second next to nothing', async () => {
  const first = await flood();
  console.log(`first flood: ${JSON.stringify(first)}`);
  assertRefusedFlood(first);
  assert.ok(first.dbBytesAdded <= FIRST_FLOOD_DB_BYTES, `database +${first.dbBytesAdded} bytes`);
  assert.ok(first.logBytesAdded <= FLOOD_LOG_BYTES, `log +${first.logBytesAdded} bytes`);

  const second = await flood();
  console.log(`second flood: ${JSON.stringify(second)}`);
  assertRefusedFlood(second);
  assert.ok(second.dbBytesAdded <= LATER_FLOOD_DB_BYTES, `database +${second.dbBytesAdded} bytes`);
  assert.ok(second.logBytesAdded <= FLOOD_LOG_BYTES, `log +${second.logBytesAdded} bytes`);

  const lines = server.output().split('\n');
  assert.ok(
    lines.some((line) => line.includes('"outcome":"rate_limited"')),
    'the first refused calls of each key are still logged',
  );
});
