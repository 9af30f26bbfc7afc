/**
 * Requests refused because their key no longer works (disabled, expired, replaced) are kept per key:
 * a count per quota day and the last REFUSED_CALLS_KEPT requests with time, client address and reason, so
 * an owner or support sees that a leaked secret is still being tried.
 *
 * Off the hot path and bounded: a refusal only updates a map in memory, and the map is written in one
 * transaction at most once per FLUSH_INTERVAL_MS, however fast a secret is tried (a flood of refusals
 * costs one small write a second, not one per request). A write that fails is merged back and retried
 * with the next one; a crash loses at most the last interval's refusals, which bill nobody.
 */
import type { Db } from '../db/client.ts';
import type { StoppedReason } from '../keys/verify.ts';
import { errorText, log } from '../ops/log.ts';

/** Refused requests kept per key with their details; older ones are deleted as new ones come. */
export const REFUSED_CALLS_KEPT = 10;
export const FLUSH_INTERVAL_MS = 1000;
/** Keys with pending refusals beyond which a write starts at once rather than at the next interval. */
const PENDING_KEYS_LIMIT = 10_000;

export interface RefusedRequest {
  keyId: string;
  reason: StoppedReason;
  clientAddress: string | null;
  /** Epoch milliseconds. */
  at: number;
  /** Quota day, "YYYY-MM-DD". */
  day: string;
}

interface PendingKey {
  /** day → refusals that day and the latest one's time. */
  days: Map<string, { count: number; lastAt: number }>;
  /** Newest last, at most REFUSED_CALLS_KEPT. */
  recent: RefusedRequest[];
}

/** An IPv4 client on a dual-stack socket reads "::ffff:203.0.113.7"; people know it as 203.0.113.7. */
export function readableAddress(address: string | undefined): string | null {
  return address ? address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '') : null;
}

export interface RefusedCallRecorder {
  note(request: RefusedRequest): void;
  /** Writes what is pending now (graceful shutdown, tests). */
  flush(): Promise<void>;
}

export function createRefusedCallRecorder(db: () => Db, flushIntervalMs = FLUSH_INTERVAL_MS): RefusedCallRecorder {
  let pending = new Map<string, PendingKey>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> | undefined;

  function add(into: Map<string, PendingKey>, keyId: string, from: PendingKey) {
    let entry = into.get(keyId);
    if (!entry) {
      entry = { days: new Map(), recent: [] };
      into.set(keyId, entry);
    }
    for (const [day, { count, lastAt }] of from.days) {
      const sum = entry.days.get(day);
      entry.days.set(day, sum ? { count: sum.count + count, lastAt: Math.max(sum.lastAt, lastAt) } : { count, lastAt });
    }
    entry.recent = [...entry.recent, ...from.recent].sort((a, b) => a.at - b.at).slice(-REFUSED_CALLS_KEPT);
  }

  async function write(batch: Map<string, PendingKey>): Promise<void> {
    try {
      await writeRefusals(db(), batch);
    } catch (error) {
      // Kept for the next write: the counts add up and the details stay bounded per key.
      for (const [keyId, entry] of batch) add(pending, keyId, entry);
      log('warn', 'refused calls not recorded yet; retrying with the next write', { error: errorText(error) });
      schedule();
    }
  }

  function flushNow(): Promise<void> {
    timer = undefined;
    if (writing || pending.size === 0) return writing ?? Promise.resolve();
    const batch = pending;
    pending = new Map();
    writing = write(batch).finally(() => {
      writing = undefined;
    });
    return writing;
  }

  function schedule() {
    if (timer) return;
    timer = setTimeout(() => void flushNow(), pending.size >= PENDING_KEYS_LIMIT ? 0 : flushIntervalMs);
    timer.unref();
  }

  return {
    note(request) {
      add(pending, request.keyId, {
        days: new Map([[request.day, { count: 1, lastAt: request.at }]]),
        recent: [request],
      });
      schedule();
    },
    async flush() {
      clearTimeout(timer);
      if (writing) await writing;
      // One attempt: a database that is down must not hold a shutdown.
      await flushNow();
    },
  };
}

/** One transaction: add the day counts, insert the details, keep each key's newest REFUSED_CALLS_KEPT. */
async function writeRefusals(db: Db, batch: Map<string, PendingKey>): Promise<void> {
  await db.$transaction(async (tx) => {
    // A key deleted since (its owner's account removed) has nowhere to keep its refusals.
    const existing = await tx.apiKey.findMany({ where: { id: { in: [...batch.keys()] } }, select: { id: true } });
    for (const { id: keyId } of existing) {
      const entry = batch.get(keyId)!;
      for (const [day, { count, lastAt }] of entry.days) {
        await tx.refusedDaily.upsert({
          where: { keyId_day: { keyId, day } },
          create: { keyId, day, count, lastAt: new Date(lastAt) },
          update: { count: { increment: count }, lastAt: new Date(lastAt) },
        });
      }
      await tx.refusedCall.createMany({
        data: entry.recent.map((r) => ({
          keyId,
          reason: r.reason,
          clientAddress: r.clientAddress,
          createdAt: new Date(r.at),
        })),
      });
      const kept = await tx.refusedCall.findMany({
        where: { keyId },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: REFUSED_CALLS_KEPT,
        select: { id: true },
      });
      await tx.refusedCall.deleteMany({ where: { keyId, id: { notIn: kept.map((r) => r.id) } } });
    }
  });
}
