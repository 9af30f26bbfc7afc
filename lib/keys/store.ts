/**
 * Issuing and changing keys. Every change writes its audit event in the same transaction and, on
 * PostgreSQL, announces itself on the key-changes channel so every instance's /mcp drops its cached
 * copy (on SQLite the hot path notices other connections' commits by itself; see hot-path-sqlite.ts).
 */
import { type Actor, writeAudit } from '../audit/write.ts';
import { config } from '../config.ts';
import { type Db, providerOf } from '../db/client.ts';
import type { ApiKey, Prisma } from '../db/generated/sqlite/client.ts';
import { KEY_CHANGES_CHANNEL } from '../db/hot-path-postgres.ts';
import { redactSecretFragments } from '../ops/redact.ts';
import { publishKeyChange } from '../redis/clients.ts';
import { KeyStoreError } from './errors.ts';
import { generateKey, keyDisplayParts } from './format.ts';
import { parseReissueGrace, REISSUE_GRACE_PERIODS, type ReissueGrace } from './grace.ts';
import { hashKey } from './hash.ts';
import { keyNameProblem } from './name.ts';
import type { DisableKind, StopKind } from './stop.ts';

export { parseReissueGrace, REISSUE_GRACE_CHOICES, REISSUE_GRACE_PERIODS, type ReissueGrace } from './grace.ts';

const DAY_MS = 86_400_000;

/** A whole minute, as "2026-11-29 14:03 UTC". */
function minuteUtc(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** An account created config().keysCreatedPerDay keys (reissues included) in the last 24 hours. */
export class DailyKeyCapError extends KeyStoreError {
  constructor(
    readonly cap: number,
    /** When the oldest of those creations turns 24 hours old, rounded up to the minute (never early). */
    readonly nextAt: Date,
  ) {
    super(
      'daily_cap',
      `This account has created ${cap} keys in the last 24 hours (reissues count too), the most one account may create in a day. The next can be created from ${minuteUtc(nextAt)}.`,
    );
  }
}

/**
 * Whether a creation counts toward the owner's daily cap. The owner's own paths (portal, messaging apps)
 * are capped, so a create-and-disable loop is bounded; support staff and the operator's CLI are not: they
 * act deliberately, every issue is audited, and they are the way out for an owner at the cap whose key leaked.
 */
type CreationCap = 'enforce' | 'bypass';
interface IssueKeyInput {
  ownerId: string;
  name: string;
  tierId?: string;
  dailyQuota?: number | null;
  ratePerSecond?: number | null;
  expiresAt?: Date | null;
}

/** The fields an audit event shows before/after a change (never the hash). */
function auditView(key: ApiKey) {
  return {
    name: key.name,
    tierId: key.tierId,
    dailyQuota: key.dailyQuota,
    ratePerSecond: key.ratePerSecond,
    expiresAt: key.expiresAt?.toISOString() ?? null,
    disabledAt: key.disabledAt?.toISOString() ?? null,
    disabledReason: key.disabledReason,
    stopKind: key.stopKind,
  };
}

/** Tells every server's key cache that `keyId` changed, once `tx` commits (PostgreSQL; SQLite's hot path notices by itself). */
export async function announceChange(db: Db, tx: Prisma.TransactionClient, keyId: string): Promise<void> {
  // pg_notify inside the transaction is delivered only if it commits.
  if (providerOf(db) === 'postgresql') {
    await tx.$executeRawUnsafe(`SELECT pg_notify('${KEY_CHANGES_CHANNEL}', $1)`, keyId);
  }
}

/**
 * Shared mode: publishes the change on Redis too, once committed (a message sent inside the transaction
 * could make another instance re-read and cache the old row). Callers that run applyKeySettings in their
 * own transaction call this after it commits.
 */
export async function announceCommitted<T>(keyId: string, result: T): Promise<T> {
  await publishKeyChange(keyId);
  return result;
}

/**
 * The largest daily quota or per-second limit a key may have: a billion is beyond any real need and well
 * inside the 32-bit integer columns both databases store limits in (a larger number would fail the write).
 */
export const MAX_LIMIT = 1_000_000_000;

function validateLimits(input: Pick<IssueKeyInput, 'dailyQuota' | 'ratePerSecond' | 'expiresAt' | 'name'>): void {
  const nameProblem = input.name === undefined ? null : keyNameProblem(input.name);
  if (nameProblem) throw new KeyStoreError('invalid', nameProblem);
  for (const [field, value] of [
    ['daily quota', input.dailyQuota],
    ['per-second limit', input.ratePerSecond],
  ] as const) {
    if (value !== undefined && value !== null && (!Number.isInteger(value) || value < 1 || value > MAX_LIMIT)) {
      throw new KeyStoreError('invalid', `The ${field} must be a whole number of at least 1 and at most ${MAX_LIMIT}.`);
    }
  }
  if (input.expiresAt && Number.isNaN(input.expiresAt.getTime()))
    throw new KeyStoreError('invalid', 'The expiry is not a valid date.');
}

/**
 * A key's name or disable reason as stored: trimmed, secret fragments cut out, since owners and staff
 * see it (the portal refuses a secret there with a message first; this covers the CLI and any caller).
 */
function storedText(text: string): string {
  return redactSecretFragments(text.trim());
}

/**
 * Refuses a creation past the owner's daily cap: the keys created for them (new and reissued, whoever
 * created them) in the 24 hours before `now`. On PostgreSQL the owner's creations are serialised by an
 * advisory lock held to the end of the transaction, so two at once cannot both pass at the last place.
 */
async function checkDailyCap(db: Db, tx: Prisma.TransactionClient, ownerId: string, now: number): Promise<void> {
  const cap = config().keysCreatedPerDay;
  if (providerOf(db) === 'postgresql')
    await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext('key-creation:' || $1))`, ownerId);
  const recent = await tx.apiKey.findMany({
    where: { ownerId, createdAt: { gt: new Date(now - DAY_MS) } },
    orderBy: { createdAt: 'desc' },
    take: cap,
    select: { createdAt: true },
  });
  if (recent.length >= cap) {
    const freed = recent[cap - 1].createdAt.getTime() + DAY_MS;
    throw new DailyKeyCapError(cap, new Date(Math.ceil(freed / 60_000) * 60_000));
  }
}

/** `lineageId` joins the new key to an existing allowance (a reissue); without it the key starts its own. */
async function createKeyRow(tx: Prisma.TransactionClient, input: IssueKeyInput, lineageId?: string) {
  const secret = generateKey();
  const key = await tx.apiKey.create({
    data: {
      ownerId: input.ownerId,
      name: storedText(input.name),
      keyHash: hashKey(secret),
      ...keyDisplayParts(secret),
      tierId: input.tierId ?? 'free',
      dailyQuota: input.dailyQuota ?? null,
      ratePerSecond: input.ratePerSecond ?? null,
      expiresAt: input.expiresAt ?? null,
      lineageId,
    },
  });
  return { key, secret };
}

/** A new key; the secret is returned once and never stored. */
export async function issueKey(
  db: Db,
  input: IssueKeyInput,
  actor: Actor,
  options: { cap?: CreationCap; now?: number } = {},
): Promise<{ key: ApiKey; secret: string }> {
  validateLimits(input);
  return db.$transaction(async (tx) => {
    const tier = await tx.tier.findUnique({ where: { id: input.tierId ?? 'free' } });
    if (!tier) throw new KeyStoreError('invalid', `Unknown tier "${input.tierId}".`);
    if (options.cap !== 'bypass') await checkDailyCap(db, tx, input.ownerId, options.now ?? Date.now());
    const issued = await createKeyRow(tx, input);
    await writeAudit(tx, actor, {
      action: 'key.issue',
      keyId: issued.key.id,
      targetUserId: input.ownerId,
      after: auditView(issued.key),
    });
    return issued;
  });
}

/**
 * A new name for a key. The name is only a label for its owner: /mcp never reads it, so no cached copy
 * needs dropping (no announceChange). An unchanged name changes nothing and writes no event.
 */
export async function renameKey(db: Db, keyId: string, name: string, actor: Actor): Promise<ApiKey> {
  validateLimits({ name });
  return db.$transaction(async (tx) => {
    const before = await tx.apiKey.findUnique({ where: { id: keyId } });
    if (!before) throw new KeyStoreError('not_found', `No key with id ${keyId}.`);
    if (before.name === storedText(name)) return before;
    const after = await tx.apiKey.update({ where: { id: keyId }, data: { name: storedText(name) } });
    await writeAudit(tx, actor, {
      action: 'key.rename',
      keyId,
      targetUserId: before.ownerId,
      before: auditView(before),
      after: auditView(after),
    });
    return after;
  });
}

/** A grace choice for reissueKey; anything but REISSUE_GRACE_PERIODS' keys is refused ('invalid', with the list). */
function parseGrace(raw: unknown): ReissueGrace {
  try {
    return parseReissueGrace(raw);
  } catch (error) {
    throw new KeyStoreError('invalid', (error as Error).message);
  }
}

/** Whether a key with this `disabledAt` is off at `now`: a future moment (a reissue's grace) is still on. */
export function isDisabledAt(disabledAt: Date | number | null | undefined, now = Date.now()): boolean {
  if (disabledAt === null || disabledAt === undefined) return false;
  return (typeof disabledAt === 'number' ? disabledAt : disabledAt.getTime()) <= now;
}

/**
 * Ends the grace period of every key this one replaced whose old secret still works (the reissue chain,
 * followed back through replacedById): whatever stops a key stops the secrets it replaced, or an old
 * secret would outlive the decision by up to REISSUE_GRACE_PERIODS' longest. In the caller's transaction,
 * each one audited and announced; returns their ids, for announceCommitted once the transaction commits.
 * `kind` becomes their stopKind, so their refusal says what stopped the chain.
 */
async function endPredecessorsGrace(
  db: Db,
  tx: Prisma.TransactionClient,
  key: ApiKey,
  kind: StopKind,
  at: Date,
  actor: Actor,
  why: string,
): Promise<string[]> {
  const lineage = await tx.apiKey.findMany({ where: { lineageId: key.lineageId, replacedById: { not: null } } });
  const replacing = new Map(lineage.map((k) => [k.replacedById, k]));
  const ended: string[] = [];
  // Each key is visited once, so even a replacedById cycle (never written by the application) ends the walk.
  for (let previous = replacing.get(key.id); previous && !ended.includes(previous.id); ) {
    if (!previous.disabledAt || previous.disabledAt.getTime() > at.getTime()) {
      const after = await tx.apiKey.update({ where: { id: previous.id }, data: { disabledAt: at, stopKind: kind } });
      await writeAudit(tx, actor, {
        action: 'key.grace_end',
        keyId: previous.id,
        targetUserId: previous.ownerId,
        before: auditView(previous),
        after: auditView(after),
        reason: why,
      });
      await announceChange(db, tx, previous.id);
    }
    ended.push(previous.id);
    previous = replacing.get(previous.id);
  }
  return ended;
}

/** Publishes every changed key once the transaction has committed (see announceCommitted). */
async function announceAllCommitted<T>(keyIds: string[], result: T): Promise<T> {
  for (const keyId of keyIds) await publishKeyChange(keyId);
  return result;
}

/**
 * Why a key cannot be disabled (or reported leaked) any more, or null when it can: the one rule, which
 * disableKey enforces and the portal reads to offer the actions. A replaced key still in its grace period
 * can be disabled: a leaked old secret must stop at once, not at the end of the grace.
 */
export function disableRefusal(
  key: Pick<ApiKey, 'replacedById' | 'disabledAt'>,
  now = Date.now(),
): { code: 'replaced' | 'already_disabled'; message: string } | null {
  const stopped = key.disabledAt !== null && isDisabledAt(key.disabledAt, now);
  if (key.replacedById && stopped)
    return {
      code: 'replaced',
      message: 'This key was replaced by a reissued key, so it no longer works; open the new key instead.',
    };
  if (stopped)
    return {
      code: 'already_disabled',
      message: `This key is already disabled (since ${minuteUtc(key.disabledAt!)}) and no longer works.`,
    };
  return null;
}

export interface DisableRequest {
  keyId: string;
  /** Kept in the audit trail; required. */
  reason: string;
  actor: Actor;
  /** How it stops (lib/keys/stop.ts): the owner, support, a leak (any report of one), or the operator. */
  kind: DisableKind;
  /** Only this owner's key: another's, like a missing one, is refused as not found. */
  ownerId?: string;
}

/**
 * Turns a key off now, and with it every secret it replaced that is still in its grace period. The key's
 * row is read once, in the transaction that changes it. A leak is audited as "key.leak_disable", anything
 * else as "key.disable".
 */
export async function disableKey(db: Db, { keyId, reason, actor, kind, ownerId }: DisableRequest): Promise<ApiKey> {
  if (!reason.trim())
    throw new KeyStoreError('invalid', 'Give a reason for disabling the key (it is kept in the audit trail).');
  const { disabled, changed } = await db.$transaction(async (tx) => {
    const before = await tx.apiKey.findUnique({ where: { id: keyId } });
    if (!before || (ownerId !== undefined && before.ownerId !== ownerId))
      throw new KeyStoreError('not_found', `No key with id ${keyId}.`);
    const refusal = disableRefusal(before);
    if (refusal) throw new KeyStoreError(refusal.code, refusal.message);
    const now = new Date();
    const after = await tx.apiKey.update({
      where: { id: keyId },
      data: {
        disabledAt: now,
        disabledById: actor.userId ?? null,
        disabledReason: storedText(reason),
        stopKind: kind,
      },
    });
    await writeAudit(tx, actor, {
      action: kind === 'leaked' ? 'key.leak_disable' : 'key.disable',
      keyId,
      targetUserId: before.ownerId,
      before: auditView(before),
      after: auditView(after),
      reason: reason.trim(),
    });
    await announceChange(db, tx, keyId);
    const ended = await endPredecessorsGrace(
      db,
      tx,
      after,
      kind,
      now,
      actor,
      `the key it was reissued as (${keyId}) was disabled`,
    );
    return { disabled: after, changed: [keyId, ...ended] };
  });
  return announceAllCommitted(changed, disabled);
}

/**
 * A leak report names a key that is already off: the sighting is audited ("key.leak_report") and, in the
 * same transaction, any secret the key replaced that is still in its grace period stops (a key stopped
 * before every stop reached back along its chain may still have one).
 */
export async function recordLeakOfStoppedKey(db: Db, key: ApiKey, reason: string, actor: Actor): Promise<void> {
  const ended = await db.$transaction(async (tx) => {
    await writeAudit(tx, actor, { action: 'key.leak_report', keyId: key.id, targetUserId: key.ownerId, reason });
    return endPredecessorsGrace(
      db,
      tx,
      key,
      'leaked',
      new Date(),
      actor,
      `the key it was reissued as (${key.id}) was reported leaked`,
    );
  });
  await announceAllCommitted(ended, undefined);
}

/**
 * A new secret with the same settings; the old key points at its successor and stops working at once, or
 * after the grace period (`disabledAt` = now + grace; a key already disabled keeps its disabledAt). The
 * successor joins the old key's lineage: it is the same allowance (today's count, the per-second window,
 * the usage history), not a fresh one.
 */
export async function reissueKey(
  db: Db,
  keyId: string,
  actor: Actor,
  options: { grace?: ReissueGrace; now?: number; cap?: CreationCap } = {},
): Promise<{ key: ApiKey; secret: string; replaced: ApiKey }> {
  const grace = parseGrace(options.grace);
  const reissued = await db.$transaction(async (tx) => {
    const now = options.now ?? Date.now();
    const old = await tx.apiKey.findUnique({ where: { id: keyId } });
    if (!old) throw new KeyStoreError('not_found', `No key with id ${keyId}.`);
    if (old.replacedById)
      throw new KeyStoreError(
        'invalid',
        `The key was already reissued as key ${old.replacedById}; reissue that one instead.`,
      );
    if (options.cap !== 'bypass') await checkDailyCap(db, tx, old.ownerId, now);
    const issued = await createKeyRow(
      tx,
      {
        ownerId: old.ownerId,
        name: old.name,
        tierId: old.tierId,
        dailyQuota: old.dailyQuota,
        ratePerSecond: old.ratePerSecond,
        expiresAt: old.expiresAt,
      },
      old.lineageId,
    );
    // A key already off keeps its disabledAt: a grace period never turns a disabled secret back on.
    const graceSeconds = old.disabledAt ? 0 : REISSUE_GRACE_PERIODS[grace];
    const replaced = await tx.apiKey.update({
      where: { id: keyId },
      data: {
        replacedById: issued.key.id,
        ...(old.disabledAt
          ? {}
          : {
              disabledAt: new Date(now + graceSeconds * 1000),
              disabledById: actor.userId ?? null,
              disabledReason: 'reissued',
              stopKind: 'reissued',
            }),
      },
    });
    await writeAudit(tx, actor, {
      action: 'key.reissue',
      keyId,
      targetUserId: old.ownerId,
      before: auditView(old),
      after: { ...auditView(replaced), replacedById: issued.key.id, graceSeconds },
    });
    await writeAudit(tx, actor, {
      action: 'key.issue',
      keyId: issued.key.id,
      targetUserId: old.ownerId,
      after: { ...auditView(issued.key), replaces: keyId },
    });
    await announceChange(db, tx, keyId);
    return { ...issued, replaced };
  });
  return announceCommitted(keyId, reissued);
}

/** Turns a disabled key back on. A reissued key stays off: its successor is the live secret. */
export async function enableKey(db: Db, keyId: string, reason: string, actor: Actor): Promise<ApiKey> {
  if (!reason.trim())
    throw new KeyStoreError('invalid', 'Give a reason for re-enabling the key (it is kept in the audit trail).');
  const enabled = await db.$transaction(async (tx) => {
    const before = await tx.apiKey.findUnique({ where: { id: keyId } });
    if (!before) throw new KeyStoreError('not_found', `No key with id ${keyId}.`);
    if (!before.disabledAt) throw new KeyStoreError('not_disabled', 'The key is not disabled.');
    if (before.replacedById) {
      throw new KeyStoreError(
        'invalid',
        `The key was reissued as key ${before.replacedById}; re-enabling the old secret would leave two live secrets. Use the new key.`,
      );
    }
    const after = await tx.apiKey.update({
      where: { id: keyId },
      data: { disabledAt: null, disabledById: null, disabledReason: null, stopKind: null },
    });
    await writeAudit(tx, actor, {
      action: 'key.enable',
      keyId,
      targetUserId: before.ownerId,
      before: auditView(before),
      after: auditView(after),
      reason: reason.trim(),
    });
    await announceChange(db, tx, keyId);
    return after;
  });
  return announceCommitted(keyId, enabled);
}

/** Per-key settings staff may change; null means "the tier's default" (limits) or "never" (expiry). */
export interface KeySettingsChange {
  tierId?: string;
  dailyQuota?: number | null;
  ratePerSecond?: number | null;
  expiresAt?: Date | null;
}

const SETTING_FIELDS = ['tierId', 'dailyQuota', 'ratePerSecond', 'expiresAt'] as const;

/**
 * Applies a settings change inside the caller's transaction (so another change, e.g. approving an
 * upgrade request, can commit with it). Only fields that really change are written and audited;
 * `changed` is empty, and nothing is written, when the key already has these settings.
 */
export async function applyKeySettings(
  db: Db,
  tx: Prisma.TransactionClient,
  keyId: string,
  changes: KeySettingsChange,
  actor: Actor,
  reason?: string,
): Promise<{ key: ApiKey; changed: string[]; ended: string[] }> {
  // No name here; validateLimits skips the fields it is not given.
  validateLimits({
    dailyQuota: changes.dailyQuota,
    ratePerSecond: changes.ratePerSecond,
    expiresAt: changes.expiresAt,
  } as Parameters<typeof validateLimits>[0]);
  const before = await tx.apiKey.findUnique({ where: { id: keyId } });
  if (!before) throw new KeyStoreError('not_found', `No key with id ${keyId}.`);
  if (changes.tierId !== undefined && !(await tx.tier.findUnique({ where: { id: changes.tierId } }))) {
    throw new KeyStoreError('invalid', `Unknown tier "${changes.tierId}".`);
  }
  const beforeView = auditView(before) as Record<string, unknown>;
  const proposed = {
    ...changes,
    expiresAt: changes.expiresAt === undefined ? undefined : (changes.expiresAt?.toISOString() ?? null),
  };
  const changed = SETTING_FIELDS.filter(
    (field) => proposed[field] !== undefined && proposed[field] !== beforeView[field],
  );
  if (!changed.length) return { key: before, changed, ended: [] };
  const data = Object.fromEntries(changed.map((field) => [field, changes[field]]));
  const key = await tx.apiKey.update({ where: { id: keyId }, data });
  const afterView = auditView(key) as Record<string, unknown>;
  const pick = (view: Record<string, unknown>) => Object.fromEntries(changed.map((field) => [field, view[field]]));
  await writeAudit(tx, actor, {
    action: 'key.update',
    keyId,
    targetUserId: before.ownerId,
    before: pick(beforeView),
    after: pick(afterView),
    reason: reason?.trim() || undefined,
  });
  await announceChange(db, tx, keyId);
  // An expiry is a decision to bound the key: the secrets it replaced stop now rather than outlive it.
  const ended =
    changed.includes('expiresAt') && key.expiresAt
      ? await endPredecessorsGrace(
          db,
          tx,
          key,
          'reissued',
          new Date(),
          actor,
          `an expiry was set on the key it was reissued as (${keyId})`,
        )
      : [];
  return { key, changed, ended };
}

/**
 * Changes a key's tier, limits or expiry (audited as "key.update" with just the changed fields). Setting an
 * expiry ends the grace period of the secrets the key replaced (`ended`, each audited as "key.grace_end").
 */
export async function changeKeySettings(
  db: Db,
  keyId: string,
  changes: KeySettingsChange,
  actor: Actor,
  reason?: string,
) {
  const applied = await db.$transaction((tx) => applyKeySettings(db, tx, keyId, changes, actor, reason));
  return applied.changed.length ? announceAllCommitted([keyId, ...applied.ended], applied) : applied;
}
