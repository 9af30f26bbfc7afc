/** `cli usage prune`: deletes call-log rows past CALL_LOG_RETENTION_DAYS; the daily totals stay. */
import { config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { pruneCallLog } from '../usage/retention.ts';
import { parse } from './args.ts';

export async function usagePrune(db: Db, args: string[]) {
  const { values } = parse(args, { 'dry-run': { type: 'boolean' } });
  const retentionDays = config().callLogRetentionDays;
  const { rows, cutoff } = await pruneCallLog(db, { retentionDays, dryRun: Boolean(values['dry-run']) });
  const what = `call-log rows older than ${cutoff.toISOString()} (CALL_LOG_RETENTION_DAYS=${retentionDays})`;
  console.log(
    values['dry-run'] ? `Would delete ${rows} ${what}.` : `Deleted ${rows} ${what}; daily usage totals are kept.`,
  );
}
