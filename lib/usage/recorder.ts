/**
 * Durable usage records with group commit: every call's row is committed before its answer goes out,
 * and all calls that finish while a write is being prepared share one transaction. Callers await
 * `record()`; it resolves once the row is committed, or rejects if the write failed or the call's
 * deadline passed first (the caller then answers with an error instead of an unrecorded result).
 *
 * Deadlines (hot-path.ts): while the database is locked, a batch keeps retrying, calls that finish
 * meanwhile join it, and each row leaves it (rejected) once its own call's deadline has passed; the
 * batch is never retried with a row that left. So no call waits past its deadline behind an earlier
 * batch, and a row whose call was answered 503 is never committed afterwards. A deadline refuses a row
 * only after an attempt found the database locked: a call that spent its time elsewhere (a slow tool, a
 * busy CPU) is still recorded by a database that takes the write.
 */
import { CALL_DEADLINE_MS, type CallRow, DATABASE_LOCKED, type HotPathStore } from '../db/hot-path.ts';
import { hasErrorCode } from '../error-code.ts';
import { countUsageWriteFailure, observeUsageBatch } from '../ops/metrics.ts';

export interface UsageRecorder {
  /** Resolves once `row` is committed; rejects if it is not by `deadline` (epoch ms). */
  record(row: CallRow, deadline?: number): Promise<void>;
  /** Resolves when everything recorded so far is committed or refused (for graceful shutdown). */
  flush(): Promise<void>;
}

interface Pending {
  row: CallRow;
  deadline: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export function createUsageRecorder(store: Pick<HotPathStore, 'writeCalls'>): UsageRecorder {
  let queue: Pending[] = [];
  let writing: Promise<void> | undefined;

  /** Rejects the rows whose deadline has passed (with the reason the batch was not written) and keeps the rest. */
  function dropExpired(batch: Pending[], reason: unknown): Pending[] {
    const now = Date.now();
    const expired = batch.filter((p) => p.deadline <= now);
    if (expired.length === 0) return batch;
    countUsageWriteFailure();
    for (const p of expired) p.reject(reason);
    return batch.filter((p) => p.deadline > now);
  }

  async function writeBatch(first: Pending[]): Promise<void> {
    let batch = first;
    for (;;) {
      try {
        // Retried until the earliest deadline in the batch, when that row must leave it.
        await store.writeCalls(
          batch.map((p) => p.row),
          batch.reduce((earliest, p) => Math.min(earliest, p.deadline), Infinity),
        );
        observeUsageBatch(batch.length);
        for (const p of batch) p.resolve();
        return;
      } catch (error) {
        if (!hasErrorCode(error, DATABASE_LOCKED)) {
          countUsageWriteFailure();
          for (const p of batch) p.reject(error);
          return;
        }
        batch = dropExpired(batch, error).concat(queue);
        queue = [];
        if (batch.length === 0) return;
      }
    }
  }

  async function writeQueued(): Promise<void> {
    // One batch at a time; calls that arrive meanwhile form the next batch (or join a retrying one).
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      await writeBatch(batch);
    }
    writing = undefined;
  }

  function schedule(): void {
    // setImmediate lets every call that completes in this turn of the event loop join the batch.
    writing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(writeQueued);
  }

  return {
    record(row, deadline = Date.now() + CALL_DEADLINE_MS) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ row, deadline, resolve, reject });
        schedule();
      });
    },
    async flush() {
      while (writing) await writing;
    },
  };
}
