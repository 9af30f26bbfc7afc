/**
 * Keys someone else turned off (support, a public leak report, the operator): the owner is told who, when
 * and why, on the key and in a notice on /keys, and may reissue the key themselves (lib/portal/keys.ts),
 * so no secret has to be handed over by support.
 */
import type { Db } from '../db/client.ts';
import { displayKey } from '../keys/format.ts';
import { type DisabledBy, disabledBy, LEAK_REASON_PREFIX } from '../keys/status.ts';
import type { Viewer } from './access.ts';

/** How long a key disabled by someone else stays in the notice on /keys; the key page always says it. */
const NOTICE_DAYS = 30;
const DAY_MS = 86_400_000;

export interface StoppedKey {
  id: string;
  name: string;
  display: string;
  disabledAt: string;
  by: Exclude<DisabledBy, 'owner'>;
  reason: string | null;
}

/** "ChemFlow support disabled this key", in the owner's words for who did it. */
export function whoDisabled(by: Exclude<DisabledBy, 'owner'>): string {
  switch (by) {
    case 'staff':
      return 'ChemFlow support disabled';
    case 'leak_report':
      return 'A leak report disabled';
    case 'operator':
      return 'ChemFlow disabled';
  }
}

/** The reason as the owner reads it: a leak report's "leaked: <where>" becomes "<where>". */
export function readableReason(reason: string | null): string | null {
  return (reason?.startsWith(LEAK_REASON_PREFIX) ? reason.slice(LEAK_REASON_PREFIX.length) : reason) || null;
}

/** The viewer's keys disabled by someone else in the last NOTICE_DAYS and not reissued since, newest first. */
export async function keysStoppedByOthers(db: Db, viewer: Viewer, now = Date.now()): Promise<StoppedKey[]> {
  const keys = await db.apiKey.findMany({
    where: {
      ownerId: viewer.id,
      replacedById: null,
      disabledAt: { gte: new Date(now - NOTICE_DAYS * DAY_MS), lte: new Date(now) },
      OR: [{ disabledById: null }, { disabledById: { not: viewer.id } }],
    },
    orderBy: { disabledAt: 'desc' },
    take: 20,
  });
  return keys.flatMap((key) => {
    const by = disabledBy(key, now);
    if (!by || by === 'owner') return [];
    return [
      {
        id: key.id,
        name: key.name,
        display: displayKey(key),
        disabledAt: key.disabledAt!.toISOString(),
        by,
        reason: readableReason(key.disabledReason),
      },
    ];
  });
}
