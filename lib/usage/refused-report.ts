/**
 * What the portal and `key show` say about requests refused for a key that no longer works: counts and the
 * last few, with when, from where and why (recorded by lib/usage/refused-calls.ts). Like usage, it covers
 * the key's whole reissue chain, so the page of a reissued key shows an old secret still being tried.
 */
import type { Db } from '../db/client.ts';
import { displayKey } from '../keys/format.ts';
import type { StoppedReason } from '../keys/verify.ts';
import { REFUSED_CALLS_KEPT, STOPPED_REASONS } from './refused-calls.ts';

interface RefusedReport {
  /** Refused requests on the current quota day. */
  today: number;
  /** Refused requests on record. */
  total: number;
  /** The first quota day with a refused request ("YYYY-MM-DD"), null when there is none. */
  since: string | null;
  /** The latest refused requests, newest first; `key` names another secret of the chain when it was that one. */
  recent: {
    id: number;
    at: string;
    clientAddress: string | null;
    reason: StoppedReason;
    key: { id: string; display: string } | null;
  }[];
}

export async function refusedReport(db: Db, keyId: string, lineageId: string, day: string): Promise<RefusedReport> {
  // Calls a limit refused are counted in the same tables; they belong to the usage figures, not here.
  const ofChain = { key: { lineageId }, reason: { in: [...STOPPED_REASONS] } };
  const [all, today, recent] = await Promise.all([
    db.refusedDaily.aggregate({ where: ofChain, _sum: { count: true }, _min: { day: true } }),
    db.refusedDaily.aggregate({ where: { ...ofChain, day }, _sum: { count: true } }),
    db.refusedCall.findMany({
      where: ofChain,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: REFUSED_CALLS_KEPT,
      include: { key: { select: { id: true, start: true, end: true } } },
    }),
  ]);
  return {
    today: today._sum.count ?? 0,
    total: all._sum.count ?? 0,
    since: all._min.day ?? null,
    recent: recent.map((r) => ({
      id: r.id,
      at: r.createdAt.toISOString(),
      clientAddress: r.clientAddress,
      reason: r.reason as StoppedReason,
      key: r.key.id === keyId ? null : { id: r.key.id, display: displayKey(r.key) },
    })),
  };
}
