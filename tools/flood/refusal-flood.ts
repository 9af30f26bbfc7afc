/**
 * What a flood of refused calls costs the server's storage: keep-alive loops send tools/call with keys a
 * limit refuses (a used-up daily quota, a spent per-second rate), and the SQLite database file (after a
 * WAL checkpoint) and the server's log output are measured before and after. Refusals are written about
 * once a second, off the hot path: the "after" is taken once the database counts every 429 answered.
 */
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { sqliteFilePath } from '../../lib/db/sqlite-file.ts';
import { driveMcp } from '../../test/support/mcp-load.ts';

export interface FloodTarget {
  mcpUrl: string;
  /** The server's SQLite DATABASE_URL. */
  databaseUrl: string;
  /** Everything the server has written to stdout and stderr so far. */
  output: () => string;
  /** Secrets of keys a limit refuses, and their ids. */
  keys: { id: string; secret: string }[];
}

export interface FloodResult {
  requests: number;
  refused: number;
  statuses: Record<string, number>;
  seconds: number;
  dbBytesAdded: number;
  logBytesAdded: number;
}

/** The database's size on disk once the WAL is checkpointed into it: the file and what is left of the WAL. */
function databaseBytes(databaseUrl: string): number {
  const file = sqliteFilePath(databaseUrl);
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  const size = (path: string) => {
    try {
      return statSync(path).size;
    } catch {
      return 0;
    }
  };
  return size(file) + size(`${file}-wal`);
}

/** The 429s the database counts for these keys today and before (DailyUsage.rateLimited). */
function countedRefusals(databaseUrl: string, keyIds: string[]): number {
  const db = new Database(sqliteFilePath(databaseUrl), { readonly: true, fileMustExist: true });
  try {
    const sql = `SELECT COALESCE(SUM("rateLimited"), 0) FROM "DailyUsage" WHERE "keyId" IN (${keyIds.map(() => '?').join(',')})`;
    return Number(
      db
        .prepare(sql)
        .pluck()
        .get(...keyIds),
    );
  } finally {
    db.close();
  }
}

/** Waits (about 10 s at most) until the database counts `count` refusals for the keys; the count then. */
async function refusalsWritten(target: FloodTarget, count: number): Promise<number> {
  const ids = target.keys.map((k) => k.id);
  for (let tries = 0; ; tries++) {
    const counted = countedRefusals(target.databaseUrl, ids);
    if (counted >= count || tries === 40) return counted;
    await new Promise((done) => setTimeout(done, 250));
  }
}

/** Floods until `maxCalls` calls or `maxMs` have gone by, whichever comes first, and measures. */
export async function floodWithRefusedCalls(
  target: FloodTarget,
  { connections = 32, maxMs, maxCalls = 10_000_000 }: { connections?: number; maxMs: number; maxCalls?: number },
): Promise<FloodResult> {
  const ids = target.keys.map((k) => k.id);
  const refusedBefore = countedRefusals(target.databaseUrl, ids);
  const dbBefore = databaseBytes(target.databaseUrl);
  const logBefore = Buffer.byteLength(target.output());

  const load = driveMcp(
    target.mcpUrl,
    target.keys.map((k) => k.secret),
    { connections, maxMs, maxCalls },
  );
  // Resolves at maxCalls, or once the load stopped itself at maxMs.
  await load.answeredAtLeast(maxCalls);
  const report = await load.stop();
  const refused = report.statuses['429'] ?? 0;
  const counted = (await refusalsWritten(target, refusedBefore + refused)) - refusedBefore;
  if (counted !== refused) throw new Error(`${refused} calls were answered 429, but the database counts ${counted}`);

  return {
    requests: report.calls,
    refused,
    statuses: report.statuses,
    seconds: Math.round(report.seconds * 10) / 10,
    dbBytesAdded: databaseBytes(target.databaseUrl) - dbBefore,
    logBytesAdded: Buffer.byteLength(target.output()) - logBefore,
  };
}
