/**
 * Runs call-log retention inside the server: once shortly after start, then every hour. The timers are
 * unref'd (they never keep the process alive). The returned stop ends the schedule between two batches
 * and resolves when a pass under way has ended, so the database can be closed after it.
 */
import { config } from '../config.ts';
import { getDb } from '../db/client.ts';
import { errorText, log } from '../ops/log.ts';
import { pruneCallLog } from './retention.ts';

const FIRST_RUN_DELAY_MS = 5_000;
const INTERVAL_MS = 60 * 60 * 1000;

export function startCallLogRetention(): () => Promise<void> {
  let stopped = false;
  let running: Promise<void> | undefined;

  async function prune(): Promise<void> {
    const retentionDays = config().callLogRetentionDays;
    try {
      const { rows, cutoff } = await pruneCallLog(getDb(), { retentionDays, stopped: () => stopped });
      if (rows > 0) log('info', 'call log pruned', { rows, before: cutoff.toISOString(), retentionDays });
    } catch (error) {
      log('error', 'call log pruning failed', { error: errorText(error) });
    }
  }
  const run = () => {
    if (!running && !stopped) running = prune().finally(() => (running = undefined));
  };

  const first = setTimeout(run, FIRST_RUN_DELAY_MS).unref();
  const every = setInterval(run, INTERVAL_MS).unref();
  return async () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(every);
    await running;
  };
}
