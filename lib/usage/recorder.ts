/**
 * Durable usage records with group commit: every call's row is committed before its answer goes out,
 * and all calls that finish while a write is being prepared share one transaction. Callers await
 * `record()`; it resolves once the row is committed, or rejects if the write failed (the caller then
 * answers with an error instead of an unrecorded result).
 * The tool name is the one free text of a row; the call log and daily totals are shown to owners and
 * staff, so a name holding a secret fragment is stored with it cut out, whatever the caller checked.
 */
import type { CallRow, HotPathStore } from '../db/hot-path.ts';
import { containsSecretFragment, redactSecretFragments } from '../keys/format.ts';
import { countUsageWriteFailure, observeUsageBatch } from '../ops/metrics.ts';

export interface UsageRecorder {
  record(row: CallRow): Promise<void>;
  /** Resolves when everything recorded so far is committed (for graceful shutdown). */
  flush(): Promise<void>;
}

interface Pending {
  row: CallRow;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export function createUsageRecorder(store: Pick<HotPathStore, 'writeCalls'>): UsageRecorder {
  let queue: Pending[] = [];
  let writing: Promise<void> | undefined;

  async function writeQueued(): Promise<void> {
    // One batch at a time; calls that arrive meanwhile form the next batch.
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        await store.writeCalls(batch.map((p) => p.row));
        observeUsageBatch(batch.length);
        for (const p of batch) p.resolve();
      } catch (error) {
        countUsageWriteFailure();
        for (const p of batch) p.reject(error);
      }
    }
    writing = undefined;
  }

  function schedule(): void {
    // setImmediate lets every call that completes in this turn of the event loop join the batch.
    writing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(writeQueued);
  }

  return {
    record(row) {
      if (containsSecretFragment(row.tool)) row = { ...row, tool: redactSecretFragments(row.tool) };
      return new Promise<void>((resolve, reject) => {
        queue.push({ row, resolve, reject });
        schedule();
      });
    },
    async flush() {
      while (writing) await writing;
    },
  };
}
