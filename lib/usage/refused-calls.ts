/**
 * Requests refused for a key are kept per key, off the hot path and bounded: those refused because the key
 * no longer works (disabled, expired, replaced), so an owner or support sees a leaked secret still being
 * tried, and tools/calls a limit refused (the per-second rate or the daily quota, answered 429), so the
 * key's usage shows them. Each is counted per key, quota day and reason (RefusedDaily; a 429 also per tool
 * in DailyUsage.rateLimited), and the last REFUSED_CALLS_KEPT of each key and reason are kept with time,
 * client address and, for a 429, tool and request id (RefusedCall).
 *
 * A refusal only updates a map in memory, and the map is written in one transaction at most once per
 * FLUSH_INTERVAL_MS, however fast a key is tried: a flood of refusals costs one small write a second, not
 * one per request, and the rows it leaves do not grow with the number of requests. A write that fails is
 * merged back and retried with the next one; a crash loses at most the last interval's refusals, which
 * bill nobody.
 */
import type { Db } from '../db/client.ts';
import type { StoppedReason } from '../keys/verify.ts';
import { errorText, log } from '../ops/log.ts';

/** Refused requests kept per key and reason with their details; older ones are deleted as new ones come. */
export const REFUSED_CALLS_KEPT = 10;
export const FLUSH_INTERVAL_MS = 1000;
/** Keys with pending refusals beyond which a write starts at once rather than at the next interval. */
const PENDING_KEYS_LIMIT = 10_000;

/** Which limit refused a tools/call (the `reason` of the 429 answer's body). */
export type LimitReason = 'rate_per_second' | 'daily_quota';
type RefusalReason = StoppedReason | LimitReason;
export const STOPPED_REASONS: readonly StoppedReason[] = ['disabled', 'expired', 'replaced'];
export const LIMIT_REASONS: readonly LimitReason[] = ['rate_per_second', 'daily_quota'];

interface RefusalBase {
  keyId: string;
  clientAddress: string | null;
  /** Epoch milliseconds. */
  at: number;
  /** Quota day, "YYYY-MM-DD". */
  day: string;
}

/** A request refused because its key no longer works, or a tools/call a limit refused. */
export type RefusedRequest =
  | (RefusalBase & { reason: StoppedReason; tool?: undefined; requestId?: undefined })
  | (RefusalBase & {
      reason: LimitReason;
      /** The call's tool label (lib/ops/call-labels.ts), never the caller's text. */
      tool: string;
      /** The X-Request-Id the 429 was answered with. */
      requestId: string;
    });

interface DayCount {
  day: string;
  reason: RefusalReason;
  tool: string | null;
  count: number;
  lastAt: number;
}

interface PendingKey {
  /** "day, reason, tool" → refusals and the latest one's time. */
  counts: Map<string, DayCount>;
  /** reason → its newest refusals, newest last, at most REFUSED_CALLS_KEPT. */
  recent: Map<RefusalReason, RefusedRequest[]>;
}

/** An IPv4 client on a dual-stack socket reads "::ffff:203.0.113.7"; people know it as 203.0.113.7. */
export function readableAddress(address: string | undefined): string | null {
  return address ? address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '') : null;
}

export interface RefusedCallRecorder {
  /** Counts a refusal; never waits for the database. */
  note(request: RefusedRequest): void;
  /** Writes what is pending now (graceful shutdown, tests). */
  flush(): Promise<void>;
}

function entryFor(into: Map<string, PendingKey>, keyId: string): PendingKey {
  let entry = into.get(keyId);
  if (!entry) {
    entry = { counts: new Map(), recent: new Map() };
    into.set(keyId, entry);
  }
  return entry;
}

function addCount(entry: PendingKey, { day, reason, tool, count, lastAt }: DayCount): void {
  const id = `${day}\u0000${reason}\u0000${tool ?? ''}`;
  const sum = entry.counts.get(id);
  if (sum) {
    sum.count += count;
    sum.lastAt = Math.max(sum.lastAt, lastAt);
  } else entry.counts.set(id, { day, reason, tool, count, lastAt });
}

function addRecent(entry: PendingKey, requests: RefusedRequest[]): void {
  for (const request of requests) {
    const kept = entry.recent.get(request.reason);
    if (!kept) entry.recent.set(request.reason, [request]);
    else {
      kept.push(request);
      if (kept.length > REFUSED_CALLS_KEPT) kept.shift();
    }
  }
}

export function createRefusedCallRecorder(db: () => Db, flushIntervalMs = FLUSH_INTERVAL_MS): RefusedCallRecorder {
  let pending = new Map<string, PendingKey>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> | undefined;

  async function write(batch: Map<string, PendingKey>): Promise<void> {
    try {
      await writeRefusals(db(), batch);
    } catch (error) {
      // Kept for the next write: the counts add up and the details stay bounded per key and reason.
      for (const [keyId, failed] of batch) {
        const entry = entryFor(pending, keyId);
        for (const count of failed.counts.values()) addCount(entry, count);
        const newer = [...entry.recent.values()].flat();
        entry.recent = new Map();
        addRecent(
          entry,
          [...[...failed.recent.values()].flat(), ...newer].sort((a, b) => a.at - b.at),
        );
      }
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
      const entry = entryFor(pending, request.keyId);
      addCount(entry, {
        day: request.day,
        reason: request.reason,
        tool: request.tool ?? null,
        count: 1,
        lastAt: request.at,
      });
      addRecent(entry, [request]);
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

/**
 * One transaction: add the counts per day and reason (and a 429's per tool to DailyUsage), insert the
 * details, keep each key's newest REFUSED_CALLS_KEPT per reason.
 */
async function writeRefusals(db: Db, batch: Map<string, PendingKey>): Promise<void> {
  await db.$transaction(async (tx) => {
    // A key deleted since (its owner's account removed) has nowhere to keep its refusals.
    const existing = await tx.apiKey.findMany({ where: { id: { in: [...batch.keys()] } }, select: { id: true } });
    for (const { id: keyId } of existing) {
      const entry = batch.get(keyId)!;
      const perReason = new Map<string, DayCount>();
      for (const count of entry.counts.values()) {
        const id = `${count.day}\u0000${count.reason}`;
        const sum = perReason.get(id);
        if (sum) {
          sum.count += count.count;
          sum.lastAt = Math.max(sum.lastAt, count.lastAt);
        } else perReason.set(id, { ...count });
        // The per-tool "rate limited" column the usage tables and the trend read; the hot path adds
        // successes and failures to the same rows with the same upsert, so both add up in any order.
        if (count.tool !== null) {
          await tx.$executeRaw`
            INSERT INTO "DailyUsage" ("keyId", "day", "tool", "successes", "failures", "rateLimited")
            VALUES (${keyId}, ${count.day}, ${count.tool}, 0, 0, ${count.count})
            ON CONFLICT ("keyId", "day", "tool") DO UPDATE SET
              "rateLimited" = "DailyUsage"."rateLimited" + excluded."rateLimited"`;
        }
      }
      for (const { day, reason, count, lastAt } of perReason.values()) {
        await tx.refusedDaily.upsert({
          where: { keyId_day_reason: { keyId, day, reason } },
          create: { keyId, day, reason, count, lastAt: new Date(lastAt) },
          update: { count: { increment: count }, lastAt: new Date(lastAt) },
        });
      }
      await tx.refusedCall.createMany({
        data: [...entry.recent.values()].flat().map((r) => ({
          keyId,
          reason: r.reason,
          clientAddress: r.clientAddress,
          tool: r.tool ?? null,
          requestId: r.requestId ?? null,
          createdAt: new Date(r.at),
        })),
      });
      for (const reason of entry.recent.keys()) {
        const kept = await tx.refusedCall.findMany({
          where: { keyId, reason },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          take: REFUSED_CALLS_KEPT,
          select: { id: true },
        });
        await tx.refusedCall.deleteMany({ where: { keyId, reason, id: { notIn: kept.map((r) => r.id) } } });
      }
    }
  });
}
