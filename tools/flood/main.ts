/**
 * `npm run flood -- [--seconds 60] [--connections 32]`: starts the production server on a fresh SQLite
 * database, floods /mcp with keys a limit refuses, and prints what the flood added to the database and
 * to the log, per refused call too.
 */
import { parseArgs } from 'node:util';
import { ensureNextBuild } from '../../scripts/next-build.ts';
import { startTestServer } from '../../test/support/test-server.ts';
import { refusedKeys } from './keys.ts';
import { floodWithRefusedCalls } from './refusal-flood.ts';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '60' }, connections: { type: 'string', default: '32' } },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
if (!(seconds > 0) || !(connections > 0)) throw new Error('--seconds and --connections take positive numbers');

await ensureNextBuild();
const server = await startTestServer();
try {
  const result = await floodWithRefusedCalls(
    {
      mcpUrl: server.mcpUrl,
      databaseUrl: server.env.DATABASE_URL!,
      output: server.output,
      keys: await refusedKeys(server),
    },
    { connections, maxMs: seconds * 1000 },
  );
  const perCall = (bytes: number) => (bytes / Math.max(1, result.refused)).toFixed(3);
  console.log(JSON.stringify(result));
  console.log(
    `${result.requests.toLocaleString('en-US')} requests in ${result.seconds} s over ${connections} keep-alive connections, ` +
      `${result.refused.toLocaleString('en-US')} answered 429; database +${result.dbBytesAdded.toLocaleString('en-US')} bytes ` +
      `(${perCall(result.dbBytesAdded)} per refused call), log +${result.logBytesAdded.toLocaleString('en-US')} bytes (${perCall(result.logBytesAdded)} per refused call)`,
  );
} finally {
  await server.stop();
}
