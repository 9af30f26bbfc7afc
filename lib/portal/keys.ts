/**
 * A developer's own keys: list, create, inspect, rename, disable, reissue and report as leaked. Every
 * operation takes the key id from the request and reads it as the viewer's own (`ownKey`, or the key
 * store's owner check where the store reads the row itself), so another developer's key (or an id that
 * does not exist) is PortalNotFound, never a hint that it exists.
 */
import type { Actor } from '../audit/write.ts';
import { config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { ApiKey } from '../db/generated/sqlite/client.ts';
import { KeyStoreError } from '../keys/errors.ts';
import { displayKey } from '../keys/format.ts';
import { keyNameProblem } from '../keys/name.ts';
import { type KeyStatus, keyStatus, OWNER_LEAK_REASON } from '../keys/status.ts';
import {
  type DisableRequest,
  disableKey,
  disableRefusal,
  isDisabledAt,
  issueKey,
  parseReissueGrace,
  type ReissueGrace,
  reissueKey,
  renameKey,
} from '../keys/store.ts';
import { quotaDayCalculator } from '../limits/quota-day.ts';
import { type KeyReport, keyReport } from '../usage/key-report.ts';
import { usedOnDayByLineage } from '../usage/queries.ts';
import { DEFAULT_USAGE_RANGE, type UsageRange } from '../usage/range.ts';
import { OWN_KEY_NOT_FOUND, ownKey, PortalInputError, PortalNotFound, type Viewer } from './access.ts';
import { refuseFreeText } from './text-input.ts';

/** Enough for every laptop, CI runner and agent a developer runs; more usually means keys are not being cleaned up. */
export const MAX_ACTIVE_KEYS = 20;
/** Keys listed on /keys, newest first; disabled and replaced keys pile up, so older ones may be cut. */
export const KEYS_SHOWN = 100;
const EXPIRY_DAYS = [30, 90, 365] as const;
type ExpiryDays = (typeof EXPIRY_DAYS)[number] | null;

const DAY_MS = 86_400_000;
const OWNER_DISABLED_REASON = 'disabled by owner';

export interface KeyListRow {
  id: string;
  name: string;
  display: string;
  tier: string;
  status: KeyStatus;
  /** A replaced key in its grace period: when its old secret stops working (ISO), else null. */
  worksUntil: string | null;
  expiresAt: string | null;
  dailyQuota: number;
  usedToday: number;
  lastUsedAt: string | null;
  createdAt: string;
}

/** A row of the keys table: a key, with the keys it replaced (its reissue chain) folded under it, newest first. */
export interface KeyListEntry extends KeyListRow {
  replaces: KeyListRow[];
}

interface KeyList {
  /** The newest KEYS_SHOWN of the viewer's keys, each replaced key under the key that replaced it. */
  keys: KeyListEntry[];
  /** How many keys that is, the folded ones included. */
  shown: number;
  /** How many keys the viewer has in all. */
  total: number;
  /** When today's quota counts start again (ISO). */
  quotaResetsAt: string;
}

function checkedName(name: unknown): string {
  const problem = keyNameProblem(name);
  if (problem) throw new PortalInputError(problem, 'name');
  const trimmed = (name as string).trim();
  refuseFreeText(trimmed, 'key name', false, 'name');
  return trimmed;
}

function checkedExpiry(expiryDays: number | null): ExpiryDays {
  if (expiryDays === null || EXPIRY_DAYS.includes(expiryDays as (typeof EXPIRY_DAYS)[number]))
    return expiryDays as ExpiryDays;
  throw new PortalInputError('Choose when the key expires: in 30, 90 or 365 days, or never.', 'expiry');
}

function refuseWith(refusal: string | null): void {
  if (refusal) throw new PortalInputError(refusal);
}

/** A replaced key whose old secret still works (its reissue's grace period): when it stops, else null. */
function graceEnd(key: ApiKey, now: number): Date | null {
  return key.replacedById && key.disabledAt && !isDisabledAt(key.disabledAt, now) ? key.disabledAt : null;
}

/**
 * Why the owner cannot reissue a key, or null when they can. They may reissue an active key or a disabled
 * one, whoever disabled it (themselves, support, a leak report): the old secret stays off and the new one
 * keeps the tier and limits, so nobody has to hand a secret over. An expired key would pass its expiry on.
 */
function reissueRefusal(key: ApiKey, now: number): string | null {
  if (key.replacedById) return 'This key was already reissued; reissue the key that replaced it instead.';
  if (key.expiresAt && key.expiresAt.getTime() <= now) {
    return 'This key has expired, and a reissued key would keep the same expiry. Create a new key instead.';
  }
  return null;
}

/**
 * My keys, newest first, each with today's quota use (one grouped query for all of them): a key's
 * allowance's use, so a reissued key and the keys it replaced show the same count, the one /mcp admits against.
 */
export async function listMyKeys(db: Db, viewer: Viewer, now = Date.now()): Promise<KeyList> {
  const { day, resetsAt } = quotaDayCalculator(config().quotaTimeZone)(now);
  const [keys, total] = await Promise.all([
    db.apiKey.findMany({
      where: { ownerId: viewer.id },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: KEYS_SHOWN,
      include: { tier: { select: { dailyQuota: true } } },
    }),
    db.apiKey.count({ where: { ownerId: viewer.id } }),
  ]);
  const usedByLineage = await usedOnDayByLineage(db, [...new Set(keys.map((k) => k.lineageId))], day);
  const rows = keys.map((key) => ({
    id: key.id,
    name: key.name,
    display: displayKey(key),
    tier: key.tierId,
    status: keyStatus(key, now),
    worksUntil: graceEnd(key, now)?.toISOString() ?? null,
    expiresAt: key.expiresAt?.toISOString() ?? null,
    dailyQuota: key.dailyQuota ?? key.tier.dailyQuota,
    usedToday: usedByLineage.get(key.lineageId) ?? 0,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    createdAt: key.createdAt.toISOString(),
  }));
  return { quotaResetsAt: new Date(resetsAt).toISOString(), total, shown: rows.length, keys: foldReissues(keys, rows) };
}

/**
 * Every key of a reissue chain shares its lineage, and only the newest is not replaced: the older keys go
 * under it (newest first, as listed). A replaced key whose successor is not in the list stays a row of its own.
 */
function foldReissues(keys: ApiKey[], rows: KeyListRow[]): KeyListEntry[] {
  const liveKeyOfLineage = new Map(keys.filter((k) => !k.replacedById).map((k) => [k.lineageId, k.id]));
  const entries = new Map<string, KeyListEntry>();
  const olderKeys: [string, KeyListRow][] = [];
  keys.forEach((key, i) => {
    const successor = key.replacedById ? liveKeyOfLineage.get(key.lineageId) : undefined;
    if (successor) olderKeys.push([successor, rows[i]]);
    else entries.set(key.id, { ...rows[i], replaces: [] });
  });
  for (const [successor, row] of olderKeys) entries.get(successor)?.replaces.push(row);
  return [...entries.values()];
}

/** The viewer's keys that count toward MAX_ACTIVE_KEYS: not disabled, not expired. */
export function activeKeyCount(db: Db, viewer: Viewer, now = Date.now()): Promise<number> {
  return db.apiKey.count({
    where: { ownerId: viewer.id, disabledAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date(now) } }] },
  });
}

/** A new free-tier key for the viewer, expiring after one of EXPIRY_DAYS or never (null); the secret is returned once and never stored. */
export async function createMyKey(
  db: Db,
  viewer: Viewer,
  input: { name: string; expiryDays: number | null },
  actor: Actor,
  now = Date.now(),
): Promise<{ key: ApiKey; secret: string }> {
  const name = checkedName(input.name);
  const expiryDays = checkedExpiry(input.expiryDays);
  const active = await activeKeyCount(db, viewer, now);
  if (active >= MAX_ACTIVE_KEYS) {
    throw new PortalInputError(
      `You already have ${active} active keys, the most one account may hold. Disable a key you no longer use, then create the new one.`,
    );
  }
  return issueKey(
    db,
    {
      ownerId: viewer.id,
      name,
      tierId: 'free',
      expiresAt: expiryDays === null ? null : new Date(now + expiryDays * DAY_MS),
    },
    actor,
    { now },
  );
}

/** "My key and usage": settings, limits, today's calls per tool, the trend over `range` days and the last calls. */
export async function myKeyReport(
  db: Db,
  viewer: Viewer,
  keyId: string,
  range: UsageRange = DEFAULT_USAGE_RANGE,
  now = Date.now(),
): Promise<KeyReport> {
  return keyReport(db, await ownKey(db, viewer, keyId), now, range);
}

/** Which actions the key page offers; the same rules refuse them here when called anyway. */
export interface MyKeyActions {
  disable: boolean;
  reportLeaked: boolean;
  reissue: boolean;
  /** Why the key cannot be reissued, when it cannot (shown in place of the button). */
  reissueRefusal: string | null;
  /** The key is already off: a reissue leaves its secret off, so there is no grace period to choose. */
  reissueOfStoppedKey: boolean;
  /** The key this one replaced, while its old secret still works: disabling this key stops it too. */
  predecessorInGrace: { display: string; worksUntil: string } | null;
  upgrade: boolean;
}

/** The key page: the report plus the actions that make sense for the key's state. */
export async function myKeyDetail(
  db: Db,
  viewer: Viewer,
  keyId: string,
  range: UsageRange = DEFAULT_USAGE_RANGE,
  now = Date.now(),
): Promise<{ report: KeyReport; actions: MyKeyActions }> {
  const key = await ownKey(db, viewer, keyId);
  const report = await keyReport(db, key, now, range);
  const usable = disableRefusal(key, now) === null;
  const refusal = reissueRefusal(key, now);
  return {
    report,
    actions: {
      disable: usable,
      reportLeaked: usable,
      reissue: refusal === null,
      reissueRefusal: refusal,
      reissueOfStoppedKey: refusal === null && Boolean(key.disabledAt && isDisabledAt(key.disabledAt, now)),
      predecessorInGrace: report.predecessor,
      // A replaced key in its grace period is active but on its way out: its successor is the one to upgrade.
      upgrade: report.tier === 'free' && report.status === 'active' && !report.replacedById,
    },
  };
}

export async function renameMyKey(db: Db, viewer: Viewer, keyId: string, name: string, actor: Actor): Promise<ApiKey> {
  const key = await ownKey(db, viewer, keyId);
  return renameKey(db, key.id, checkedName(name), actor);
}

export async function disableMyKey(
  db: Db,
  viewer: Viewer,
  keyId: string,
  reason: string | undefined,
  actor: Actor,
): Promise<ApiKey> {
  const text = typeof reason === 'string' ? reason.trim() : '';
  if (text.length > 500) throw new PortalInputError('Keep the reason under 500 characters.', 'reason');
  refuseFreeText(text, 'reason', true, 'reason');
  return disableOwnKey(db, viewer, { keyId, reason: text || OWNER_DISABLED_REASON, actor, kind: 'owner' });
}

/**
 * The store disables the viewer's key, reading its row once, in its transaction: another's key or a
 * missing one is PortalNotFound; why a key cannot be disabled is the store's refusal (disableRefusal).
 */
async function disableOwnKey(db: Db, viewer: Viewer, request: Omit<DisableRequest, 'ownerId'>): Promise<ApiKey> {
  if (typeof request.keyId !== 'string' || !request.keyId) throw new PortalNotFound(OWN_KEY_NOT_FOUND);
  try {
    return await disableKey(db, { ...request, ownerId: viewer.id });
  } catch (error) {
    if (error instanceof KeyStoreError && error.code === 'not_found') throw new PortalNotFound(OWN_KEY_NOT_FOUND);
    throw error;
  }
}

/**
 * A new secret with the same name, tier, limits and expiry; the old secret stops working at once, or after
 * the chosen grace period (one of REISSUE_GRACE_PERIODS; anything else is refused with the choices).
 */
export async function reissueMyKey(
  db: Db,
  viewer: Viewer,
  keyId: string,
  actor: Actor,
  now = Date.now(),
  grace: unknown = 'none',
) {
  const key = await ownKey(db, viewer, keyId);
  refuseWith(reissueRefusal(key, now));
  return reissueKey(db, key.id, actor, { grace: checkedGrace(grace), now });
}

/** The reissue form's "Old secret stops" choice, checked before anything is written. */
export function checkedGrace(raw: unknown): ReissueGrace {
  try {
    return parseReissueGrace(raw === '' ? undefined : raw);
  } catch {
    throw new PortalInputError('Choose when the old secret stops: now, in 1 hour, in 24 hours or in 7 days.', 'grace');
  }
}

/** The owner found their secret somewhere public: the key is disabled at once and the report audited as a leak. */
export async function reportMyKeyLeaked(db: Db, viewer: Viewer, keyId: string, actor: Actor): Promise<ApiKey> {
  return disableOwnKey(db, viewer, { keyId, reason: OWNER_LEAK_REASON, actor, kind: 'leaked' });
}
