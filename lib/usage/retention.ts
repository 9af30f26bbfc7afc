/**
 * Call-log retention: CallLog rows older than CALL_LOG_RETENTION_DAYS are deleted in small batches with
 * a pause between them, so the hot path's usage writes are never held up behind one long delete.
 * DailyUsage (the aggregates behind quotas, panels and trends) is never touched.
 */
import type { Db } from '../db/client.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const PRUNE_BATCH_SIZE = 1000;
const PRUNE_PAUSE_MS = 50;

interface PruneOptions {
  retentionDays: number;
  now?: number;
  dryRun?: boolean;
  batchSize?: number;
  pauseMs?: number;
  /** Checked between batches: stops a prune early (server shutdown). */
  stopped?: () => boolean;
}

interface PruneResult {
  cutoff: Date;
  /** Rows deleted, or with dryRun the rows that would be. */
  rows: number;
}

function retentionCutoff(retentionDays: number, now = Date.now()): Date {
  return new Date(now - retentionDays * DAY_MS);
}

export async function pruneCallLog(db: Db, options: PruneOptions): Promise<PruneResult> {
  const { batchSize = PRUNE_BATCH_SIZE, pauseMs = PRUNE_PAUSE_MS, stopped = () => false } = options;
  const cutoff = retentionCutoff(options.retentionDays, options.now);
  const old = { createdAt: { lt: cutoff } };
  if (options.dryRun) return { cutoff, rows: await db.callLog.count({ where: old }) };

  let rows = 0;
  while (!stopped()) {
    // Ids first (the createdAt index), then a delete by primary key: a short statement on both databases.
    const batch = await db.callLog.findMany({ where: old, select: { id: true }, take: batchSize });
    if (batch.length === 0) break;
    const { count } = await db.callLog.deleteMany({ where: { id: { in: batch.map((r) => r.id) } } });
    rows += count;
    if (batch.length < batchSize) break;
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return { cutoff, rows };
}
