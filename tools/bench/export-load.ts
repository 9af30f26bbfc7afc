/**
 * Row 8 of the benchmark: four call-log exports of a 300,000-row key running at once on the production
 * server, and what another user's /mcp calls and /api/ping see meanwhile. The database is seeded with
 * seed-scale's generator (one key, every call within the export's 30-day range); four support accounts
 * each download the key's CSV through the staff route, while a few clients call /mcp tools/call and
 * /api/ping back to back, each waiting for its answer before the next. The row's latencies are those
 * calls'; it also reports each export's status, lines and seconds, and /mcp's p99 before the exports
 * started (the same clients, alone), so the two can be compared.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb } from '../../lib/db/client.ts';
import { signInWithForm } from '../../test/support/web-client.ts';
import { MCP_HEADERS } from './load.ts';
import { percentile } from './percentile.ts';
import { startProductionServer } from './processes.ts';
import { prepareScaleDatabase } from './seed-scale.ts';
import type { RowResult } from './summary.ts';

export interface ExportRun {
  status: number;
  /** CSV lines received, the header included. */
  lines: number;
  bytes: number;
  seconds: number;
}

export interface ExportLoadResult {
  rowsPerExport: number;
  exports: ExportRun[];
  /** /mcp tools/call while the exports ran. */
  mcp: Latencies;
  /** /api/ping while the exports ran. */
  ping: Latencies;
  /** The same /mcp clients for a few seconds before the exports, alone. */
  mcpAlone: Latencies;
}

export interface Latencies {
  requests: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  non2xx: number;
}

export interface ExportLoadOptions {
  exports: number;
  rowsPerExport: number;
  /** Clients calling /mcp back to back (each waits for its answer). */
  mcpClients: number;
  serverEnv: Record<string, string | undefined>;
  /** Issues a pro key on the started server (main.ts's issueProKeys). */
  issueKey: (server: Awaited<ReturnType<typeof startProductionServer>>) => string;
}

const PASSWORD = 'a long benchmark password';
const agent = new http.Agent({ keepAlive: true });

/** One request, its body read and dropped; its status and milliseconds. */
function timedRequest(
  url: string,
  options: http.RequestOptions,
  body?: string,
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const request = http.request(url, { agent, ...options }, (response) => {
      response.resume();
      response.on('end', () => done({ status: response.statusCode!, ms: performance.now() - started }));
      response.on('error', fail);
    });
    request.on('error', fail);
    request.end(body);
  });
}

/** Downloads one export, counting lines and bytes without keeping them. */
function download(url: string, cookie: string): Promise<ExportRun> {
  const started = performance.now();
  return new Promise((done, fail) => {
    http
      .get(url, { headers: { cookie } }, (response) => {
        let lines = 0;
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
        });
        response.on('end', () =>
          done({ status: response.statusCode!, lines, bytes, seconds: (performance.now() - started) / 1000 }),
        );
        response.on('error', fail);
      })
      .on('error', fail);
  });
}

/** Calls `send` back to back from `clients` clients until `until` settles; the answers' latencies. */
async function probe(
  clients: number,
  send: () => Promise<{ status: number; ms: number }>,
  until: Promise<unknown>,
): Promise<Latencies> {
  let done = false;
  const stop = () => {
    done = true;
  };
  until.then(stop, stop);
  const started = performance.now();
  const times: number[] = [];
  let non2xx = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (!done) {
        const answer = await send();
        times.push(answer.ms);
        if (answer.status < 200 || answer.status > 299) non2xx++;
      }
    }),
  );
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    requests: times.length,
    seconds: round((performance.now() - started) / 1000),
    p50Ms: round(percentile(times, 50)),
    p99Ms: round(percentile(times, 99)),
    maxMs: round(Math.max(...times)),
    non2xx,
  };
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

export async function measureExportsUnderLoad(options: ExportLoadOptions): Promise<ExportLoadResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'chemflow-bench-export-'));
  const url = `file:${join(dataDir, 'export.db')}`;
  // The generator hashes the keys it makes; the server never checks these (they are only exported).
  process.env.KEY_HASH_SECRET ??= randomBytes(32).toString('hex');
  await prepareScaleDatabase(url, { keys: 1, calls: options.rowsPerExport, days: 30 });
  const db = createDb(url);
  const keyId = (await db.apiKey.findFirstOrThrow({ select: { id: true } })).id;
  await db.$disconnect();

  // All four at once: the row measures four exports running, not three and one waiting its turn.
  const server = await startProductionServer({
    ...options.serverEnv,
    DATABASE_URL: url,
    EXPORTS_PER_SERVER: String(options.exports),
  });
  try {
    // Auth.js wants the portal at localhost (../shared/STACK-NOTES.md).
    const portal = server.baseUrl.replace('127.0.0.1', 'localhost');
    const cookies: string[] = [];
    for (let i = 1; i <= options.exports; i++) {
      const email = `export${i}@example.test`;
      const created = server.cli('user', 'create', '--email', email, '--password', PASSWORD, '--role', 'support');
      if (created.status !== 0) throw new Error(`user create failed: ${created.stderr}${created.stdout}`);
      cookies.push((await signInWithForm(portal, email, PASSWORD)).jar.header());
    }
    const key = options.issueKey(server);
    const callMcp = () =>
      timedRequest(
        `${server.baseUrl}/mcp`,
        { method: 'POST', headers: { ...MCP_HEADERS, authorization: `Bearer ${key}` } },
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'service_query_compound', arguments: { compound_name: 'water' } },
        }),
      );
    const ping = () => timedRequest(`${server.baseUrl}/api/ping`, { method: 'GET' });

    await probe(options.mcpClients, callMcp, sleep(2000)); // warm-up
    const mcpAlone = await probe(options.mcpClients, callMcp, sleep(5000));
    const csv = `${portal}/api/support/keys/${encodeURIComponent(keyId)}/calls.csv?range=30`;
    const exports = Promise.all(cookies.map((cookie) => download(csv, cookie)));
    const [runs, mcp, pinged] = await Promise.all([
      exports,
      probe(options.mcpClients, callMcp, exports),
      probe(1, ping, exports),
    ]);
    return { rowsPerExport: options.rowsPerExport, exports: runs, mcp, ping: pinged, mcpAlone };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Row 8 of the table: /mcp during the exports. An export that was refused or cut short counts as an
 * error, so the row is not clean and its target is missed: it would have measured less work.
 */
export function exportRow(result: ExportLoadResult): RowResult {
  const incomplete = result.exports.filter((e) => e.status !== 200 || e.lines !== result.rowsPerExport + 1).length;
  return {
    id: 'mcp_tools_call_during_exports',
    number: 8,
    label: `our /mcp tools/call service_query_compound while ${result.exports.length} call-log exports of ${result.rowsPerExport.toLocaleString('en-US')} rows run`,
    note: `${result.mcp.requests ? 'closed loop' : 'no calls'}, alone: p99 ${result.mcpAlone.p99Ms} ms`,
    requestsPerSecond: Math.round(result.mcp.requests / result.mcp.seconds),
    p50Ms: result.mcp.p50Ms,
    p99Ms: result.mcp.p99Ms,
    peakRssMb: null,
    cpuPerRequestUs: null,
    non2xx: result.mcp.non2xx + result.ping.non2xx,
    errors: incomplete,
  };
}

/** The row's details: each export, and /mcp and /api/ping during them and /mcp alone. */
export function formatExportLoad(result: ExportLoadResult): string {
  const latencies = (what: string, l: Latencies) =>
    `   ${what}: ${l.requests} calls in ${l.seconds} s, p50 ${l.p50Ms} ms, p99 ${l.p99Ms} ms, max ${l.maxMs} ms, non-2xx ${l.non2xx}`;
  return [
    ...result.exports.map(
      (e, i) =>
        `   export ${i + 1}: status ${e.status}, ${e.lines.toLocaleString('en-US')} lines, ${e.bytes.toLocaleString('en-US')} bytes in ${e.seconds.toFixed(1)} s`,
    ),
    latencies('/mcp alone, before', result.mcpAlone),
    latencies('/mcp during the exports', result.mcp),
    latencies('/api/ping during the exports', result.ping),
  ].join('\n');
}
