/**
 * `npm run bench`: the /mcp benchmark. Starts the production server on fresh databases and
 * measures, in one run on this machine, six rows of calls plus a reference-equation-of-state call (row 7; see docs/performance.md’s
 * Benchmark section), prints the table with the ratios and targets, and writes tools/bench/results/latest.json.
 * Before the load, one request per row measures its answer's size (answer.ts): the table's answer column,
 * and for row 3 the tool catalogue's bytes, bytes per tool and estimated tokens.
 *
 * The rows take turns: every server is started first, each row is warmed up, and then the rows run one
 * after another for duration/rounds seconds, `rounds` times over. This machine's speed drifts by a factor
 * of several within minutes (other tenants); taking turns spreads that drift over every row alike, so
 * the ratios compare rows measured under the same conditions.
 *
 * Options: --duration S (measured seconds per row, default 10), --rounds N (default 5), --warmup S (default 2), --keys N (pro
 * keys the tools/call rows spread over, default 8), --connections N (default 32), --cpu-prof (profile
 * our embedded server; .cpuprofile files go to tools/bench/results/profiles.tmp), --server-node-options
 * "…" (NODE_OPTIONS for our servers, e.g. "--max-semi-space-size=32"; recorded in the result; flags
 * of package.json's start command, such as its heap cap, win over NODE_OPTIONS), --exports-only (row 8
 * alone: /mcp during four call-log exports, export-load.ts), --output FILE.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createScratchDatabase, postgresProblem } from '../../scripts/scratch-postgres.ts';
import { ROOT } from '../../test/support/test-server.ts';
import { type AnswerSize, measureAnswer } from './answer.ts';
import { exportRow, formatExportLoad, measureExportsUnderLoad } from './export-load.ts';
import { combineRounds, type LoadOptions, type LoadSpec, measureRound, type RoundMeasurement, warmUp } from './load.ts';
import { type BenchProcess, startBareSdkServer, startProductionServer } from './processes.ts';
import { formatSummary, type RowId, type RowResult, summarise } from './summary.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    keys: { type: 'string', default: '8' },
    connections: { type: 'string', default: '32' },
    'cpu-prof': { type: 'boolean', default: false },
    'exports-only': { type: 'boolean', default: false },
    'server-node-options': { type: 'string', default: '' },
    output: { type: 'string' },
  },
});

function positive(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number, got "${raw}"`);
  return value;
}

const load: LoadOptions = {
  durationSeconds: positive('duration', values.duration!),
  warmupSeconds: Number(values.warmup),
  connections: positive('connections', values.connections!),
  rounds: Math.round(positive('rounds', values.rounds!)),
};
const keyCount = positive('keys', values.keys!);
/**
 * Our servers' environment: NODE_OPTIONS unset by default, so the rows measure `npm start` as shipped;
 * the per-address caps raised to the load's connections, all of which come from this one address.
 */
const serverEnv = {
  ...(values['server-node-options'] ? { NODE_OPTIONS: values['server-node-options'] } : {}),
  MAX_CONNECTIONS_PER_ADDRESS: String(2 * load.connections),
  MAX_REQUESTS_PER_ADDRESS: String(2 * load.connections),
};
const REDIS_URL = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';

const LIST_TOOLS = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
const QUERY_WATER = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'service_query_compound', arguments: { compound_name: 'water' } },
};

// A reference equation of state on every call: liquid water at 300 K, 1 atm (saturation line, then the density).
const WATER_REFERENCE_STATE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'service_eos_state',
    arguments: { compound_name: 'water', temperature: 300, pressure: 101325, eos: 'reference' },
  },
};

interface PlannedRow {
  number: number;
  id: RowId;
  label: string;
  note?: string;
  pid: number;
  spec: LoadSpec;
}

/**
 * Each row's answer, from one real request to its started server: the bytes clients receive (row 3's is
 * the tool catalogue). Printed as measured; a row whose answer could not be read gets null.
 */
async function measureAnswers(planned: PlannedRow[]): Promise<Map<number, AnswerSize | null>> {
  const answers = new Map<number, AnswerSize | null>();
  for (const row of planned) {
    try {
      const answer = await measureAnswer(row.spec);
      answers.set(row.number, answer);
      const parts = [`${answer.bytes.toLocaleString('en-US')} bytes`];
      if (answer.resultBytes !== null) parts.push(`result ${answer.resultBytes.toLocaleString('en-US')} bytes`);
      if (answer.tools) parts.push(`${answer.tools} tools`);
      if (answer.status < 200 || answer.status > 299) parts.push(`status ${answer.status}`);
      if (answer.error) parts.push(`error: ${answer.error}`);
      console.log(`${row.number}. answer: ${parts.join(', ')}`);
    } catch (error) {
      answers.set(row.number, null);
      console.log(`${row.number}. answer not measured: ${(error as Error).message}`);
    }
  }
  return answers;
}

/** Measures every row's answer size, warms every row up, then measures them in turns (see the top of this file). */
async function measureRows(planned: PlannedRow[]): Promise<RowResult[]> {
  const answers = await measureAnswers(planned);
  for (const row of planned) await warmUp(row.spec, load);
  const rounds = new Map<number, RoundMeasurement[]>(planned.map((row) => [row.number, []]));
  for (let round = 1; round <= load.rounds; round++) {
    const line: string[] = [];
    for (const row of planned) {
      const m = await measureRound(row.spec, row.pid, load);
      rounds.get(row.number)!.push(m);
      line.push(`${row.number}: ${Math.round(m.requests / m.seconds)} req/s p99 ${m.p99Ms} ms`);
    }
    console.log(`round ${round}/${load.rounds}  ${line.join(' · ')}`);
  }
  return planned.map((row) => {
    const { statusCodes, ...measured } = combineRounds(rounds.get(row.number)!);
    if (measured.non2xx || measured.errors)
      console.log(
        `${row.number}. answers by status ${JSON.stringify(statusCodes)}, ${measured.errors} socket errors or timeouts`,
      );
    return {
      id: row.id,
      number: row.number,
      label: row.label,
      note: row.note,
      ...measured,
      answer: answers.get(row.number) ?? null,
    };
  });
}

/** Pro keys whose per-key limits cannot bind during the run, issued through the operator CLI. */
function issueProKeys(server: Awaited<ReturnType<typeof startProductionServer>>, count = keyCount): string[] {
  return Array.from({ length: count }, (_, i) => {
    const result = server.cli(
      'key',
      'create',
      '--owner',
      'admin@example.test',
      '--name',
      `bench ${i + 1}`,
      '--tier',
      'pro',
      '--rps',
      '1000000',
      '--daily-quota',
      '1000000000',
      '--json',
    );
    if (result.status !== 0) throw new Error(`key create failed: ${result.stderr}${result.stdout}`);
    return JSON.parse(result.stdout.trim().split('\n').at(-1)!).key as string;
  });
}

function redisReachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/** Rows 1–4, 6 and 7: the servers started, every row measured in turns (measureRows), the servers stopped. */
async function measureHotPathRows(profileArgs: string[]): Promise<RowResult[]> {
  const servers: BenchProcess[] = [];
  const stopAll = () => Promise.all(servers.map((server) => server.stop()));
  let scratchDatabase: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  try {
    const bare = await startBareSdkServer();
    servers.push(bare);
    const ours = await startProductionServer(serverEnv, profileArgs);
    servers.push(ours);
    const planned: PlannedRow[] = [
      {
        number: 1,
        id: 'next_ping',
        label: 'trivial Next.js route handler (GET /api/ping)',
        pid: ours.pid,
        spec: { url: `${ours.baseUrl}/api/ping`, method: 'GET' },
      },
      {
        number: 2,
        id: 'bare_sdk_tools_list',
        label: 'bare MCP SDK in node:http, tools/list of one tool',
        pid: bare.pid,
        spec: { url: `${bare.baseUrl}/mcp`, method: 'POST', body: LIST_TOOLS },
      },
      {
        number: 3,
        id: 'mcp_tools_list',
        label: 'our /mcp tools/list',
        pid: ours.pid,
        spec: { url: `${ours.baseUrl}/mcp`, method: 'POST', body: LIST_TOOLS },
      },
      {
        number: 4,
        id: 'mcp_tools_call',
        label: 'our /mcp tools/call service_query_compound, pro keys',
        pid: ours.pid,
        spec: { url: `${ours.baseUrl}/mcp`, method: 'POST', body: QUERY_WATER, keys: issueProKeys(ours) },
      },
    ];

    if ((await postgresProblem()) === null && (await redisReachable(REDIS_URL))) {
      scratchDatabase = await createScratchDatabase(`chemflow_bench_${randomBytes(2).toString('hex')}`);
      // A key prefix of its own, so the run neither meets nor leaves counters of anything else on that Redis.
      const prefix = `chemflow-bench-${randomBytes(4).toString('hex')}`;
      const shared = await startProductionServer({
        ...serverEnv,
        DATABASE_URL: scratchDatabase.url,
        REDIS_URL,
        REDIS_KEY_PREFIX: prefix,
        AUTH_SECRET: randomBytes(32).toString('hex'),
      });
      servers.push(shared);
      planned.push({
        number: 6,
        id: 'mcp_tools_call_shared',
        label: 'row 4 in shared mode',
        note: 'PostgreSQL + Redis',
        pid: shared.pid,
        spec: { url: `${shared.baseUrl}/mcp`, method: 'POST', body: QUERY_WATER, keys: issueProKeys(shared) },
      });
    } else {
      console.log('6. skipped: PostgreSQL (POSTGRES_ADMIN_URL) or Redis (BENCH_REDIS_URL) is not reachable.');
    }
    planned.push({
      number: 7,
      id: 'mcp_tools_call_reference_eos',
      label: 'our /mcp tools/call service_eos_state, eos "reference" (IAPWS-95), pro keys',
      pid: ours.pid,
      spec: { url: `${ours.baseUrl}/mcp`, method: 'POST', body: WATER_REFERENCE_STATE, keys: issueProKeys(ours) },
    });
    return await measureRows(planned);
  } finally {
    await stopAll();
    await scratchDatabase?.drop();
  }
}

async function main(): Promise<void> {
  console.log(
    `Benchmark: ${load.connections} connections, ${load.durationSeconds} s per row in ${load.rounds} turns after a ${load.warmupSeconds} s warm-up, ${cpus().length} cores${serverEnv.NODE_OPTIONS ? `, server NODE_OPTIONS=${serverEnv.NODE_OPTIONS}` : ''}.\n`,
  );
  const profileDir = join(ROOT, 'tools/bench/results/profiles.tmp');
  const profileArgs = values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];

  const rows = values['exports-only'] ? [] : await measureHotPathRows(profileArgs);
  console.log('8. four exports of a 300,000-row call log, with /mcp and /api/ping calls meanwhile');
  const exportLoad = await measureExportsUnderLoad({
    exports: 4,
    rowsPerExport: 300_000,
    mcpClients: 4,
    serverEnv,
    issueKey: (server) => issueProKeys(server, 1)[0],
  });
  console.log(formatExportLoad(exportLoad));
  rows.push(exportRow(exportLoad));

  const summary = summarise(rows);
  console.log(`\n${formatSummary(summary)}\n`);
  if (!summary.clean) console.log('Some rows had non-2xx answers or errors: their numbers measure refusals, not work.');
  if (values['cpu-prof']) console.log(`CPU profiles of our embedded server: ${profileDir}`);

  const output =
    values.output ?? join(ROOT, 'tools/bench/results', values['exports-only'] ? 'exports-latest.json' : 'latest.json');
  mkdirSync(join(output, '..'), { recursive: true });
  const result = {
    measuredAt: new Date().toISOString(),
    machine: {
      cores: cpus().length,
      cpu: cpus()[0]?.model,
      memoryMb: Math.round(totalmem() / 2 ** 20),
      node: process.version,
    },
    settings: { ...load, keys: keyCount, serverNodeOptions: values['server-node-options'] || null },
    ...summary,
    exportLoad,
  };
  writeFileSync(`${output}.tmp`, `${JSON.stringify(result, null, 2)}\n`);
  renameSync(`${output}.tmp`, output);
  console.log(`Written to ${output}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
