/**
 * The support console: staff find any key from what a customer or a leak report gives them, look at
 * it, and change it. Every operation checks the staff role first (anyone else gets PortalNotFound, the
 * same 404 as a page that does not exist); changes go through the key store, which writes the audit
 * event in the same transaction.
 */
import type { Actor } from '../audit/write.ts';
import { config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { ApiKey, Prisma } from '../db/generated/sqlite/client.ts';
import { displayKey, KEY_LENGTH, KEY_PREFIX, keyDisplayParts, keyFormatProblem } from '../keys/format.ts';
import { hashKey } from '../keys/hash.ts';
import { disableLeakedSecrets, secretsInText } from '../keys/leaks.ts';
import { keyStatus } from '../keys/status.ts';
import {
  changeKeySettings,
  disableKey,
  enableKey,
  isDisabledAt,
  type KeySettingsChange,
  MAX_LIMIT,
  reissueKey,
} from '../keys/store.ts';
import { quotaDayCalculator } from '../limits/quota-day.ts';
import { containsSecretFragment } from '../ops/redact.ts';
import { keyReport } from '../usage/key-report.ts';
import { usedOnDayByLineage } from '../usage/queries.ts';
import type { UsageRange } from '../usage/range.ts';
import { actorOf, anyKeyForStaff, assertStaff, PortalInputError, type Viewer } from './access.ts';
import { auditTrail } from './audit-trail.ts';
import { checkedGrace } from './keys.ts';
import { refuseControlCharacters, refuseFreeText } from './text-input.ts';

const SEARCH_LIMIT = 50;
const DISPLAY_FORM = /^cf_([0-9A-Za-z]{4})(?:…|\.\.\.)([0-9A-Za-z]{4})$/;
const FOUR = /^(?:cf_)?([0-9A-Za-z]{4})$/;

/** What a search query was understood as; shown above the results so staff know what matched. */
type SearchKind = 'secret' | 'display' | 'four' | 'email';

/** True when the query holds a secret or most of one: the page must not echo it (no URL, no input value). */
export function looksLikeSecret(query: string): boolean {
  return containsSecretFragment(query);
}

function searchWhere(query: string): { kind: SearchKind; where: Prisma.ApiKeyWhereInput } {
  if (looksLikeSecret(query)) {
    const problem = query.length === KEY_LENGTH ? keyFormatProblem(query) : 'length';
    if (problem) {
      throw new PortalInputError(
        'That looks like a secret, but it is not a whole, valid key: check that all 41 characters were pasted (cf_ and 38 letters or digits).',
      );
    }
    return { kind: 'secret', where: { keyHash: hashKey(query) } };
  }
  const display = DISPLAY_FORM.exec(query);
  if (display) return { kind: 'display', where: { start: display[1], end: display[2] } };
  const four = FOUR.exec(query)?.[1];
  const email = query.toLowerCase();
  if (four) {
    // Four letters may also be part of an owner's email ("acme"), unless typed with the cf_ prefix.
    const owner: Prisma.ApiKeyWhereInput[] = query.startsWith(KEY_PREFIX)
      ? []
      : [{ owner: { email: { contains: email } } }];
    return { kind: 'four', where: { OR: [{ start: four }, { end: four }, { id: query }, ...owner] } };
  }
  return { kind: 'email', where: { OR: [{ owner: { email: { contains: email } } }, { id: query }] } };
}

/** Why a search query cannot be searched, or null; the search action checks it before putting the query in a URL. */
export function searchQueryProblem(query: string): string | null {
  const q = typeof query === 'string' ? query.trim() : '';
  if (!q) return 'Type a key (cf_abcd…wxyz or 4 of its characters), paste a secret, or type an owner’s email.';
  if (q.length > 200)
    return 'That is too long for a key or an email; paste one key or one email at a time (use Leaked keys for lists).';
  return null;
}

export async function searchKeys(db: Db, viewer: Viewer, query: string, now = Date.now()) {
  assertStaff(viewer);
  const problem = searchQueryProblem(query);
  if (problem) throw new PortalInputError(problem);
  const q = query.trim();
  const { kind, where } = searchWhere(q);
  const keys = await db.apiKey.findMany({
    where,
    orderBy: [{ createdAt: 'desc' }],
    take: SEARCH_LIMIT + 1,
    include: { owner: { select: { email: true } }, tier: { select: { dailyQuota: true } } },
  });
  const shown = keys.slice(0, SEARCH_LIMIT);
  // Each key's allowance (its reissue chain), on the quota day the limiter counts.
  const used = await usedOnDayByLineage(
    db,
    [...new Set(shown.map((k) => k.lineageId))],
    quotaDayCalculator(config().quotaTimeZone)(now).day,
  );
  return {
    kind,
    truncated: keys.length > SEARCH_LIMIT,
    results: shown.map((key) => ({
      id: key.id,
      display: displayKey(key),
      name: key.name,
      owner: key.owner.email,
      tier: key.tierId,
      status: keyStatus(key, now),
      /** A replaced key in its reissue grace period: when its secret stops (ISO), as the owner's list says. */
      worksUntil:
        key.replacedById && key.disabledAt && !isDisabledAt(key.disabledAt, now) ? key.disabledAt.toISOString() : null,
      usedToday: used.get(key.lineageId) ?? 0,
      dailyQuota: key.dailyQuota ?? key.tier.dailyQuota,
    })),
  };
}

export type KeySearch = Awaited<ReturnType<typeof searchKeys>>;

/** One key's report for staff (the support key page's live usage panels poll it). */
export async function staffKeyReport(db: Db, viewer: Viewer, keyId: string, range?: UsageRange) {
  return keyReport(db, await anyKeyForStaff(db, viewer, keyId), Date.now(), range);
}

/** Everything the staff key page shows: the report (settings, usage), the raw overrides, and its audit trail. */
export async function staffKeyDetail(db: Db, viewer: Viewer, keyId: string, auditPage = 1, range?: UsageRange) {
  const key = await anyKeyForStaff(db, viewer, keyId);
  const [report, tiers, audit, replaces] = await Promise.all([
    keyReport(db, key, Date.now(), range),
    db.tier.findMany({ orderBy: { dailyQuota: 'asc' } }),
    auditTrail(db, viewer, { key: key.id, page: auditPage }),
    db.apiKey.findUnique({ where: { replacedById: key.id }, select: { id: true, start: true, end: true } }),
  ]);
  return {
    report,
    overrides: {
      tierId: key.tierId,
      dailyQuota: key.dailyQuota,
      ratePerSecond: key.ratePerSecond,
      expiresAt: key.expiresAt,
    },
    ownerId: key.ownerId,
    tiers: tiers.map((t) => ({ id: t.id, name: t.name, dailyQuota: t.dailyQuota, ratePerSecond: t.ratePerSecond })),
    audit,
    replaces: replaces ? { id: replaces.id, display: displayKey(replaces) } : null,
  };
}

function requireReason(reason: string, what: string): string {
  const text = typeof reason === 'string' ? reason.trim() : '';
  if (!text) throw new PortalInputError(`Give a reason for ${what}; it is kept in the audit trail.`, 'reason');
  if (text.length > 500) throw new PortalInputError('Keep the reason under 500 characters.', 'reason');
  refuseFreeText(text, 'reason', true, 'reason');
  return text;
}

/**
 * Staff turn a key off, as leaked when its secret was seen somewhere (the key then reads "leaked"
 * everywhere). Secrets it replaced that were still in their grace period stop too (`endedGrace`).
 */
export async function staffDisableKey(
  db: Db,
  viewer: Viewer,
  keyId: string,
  reason: string,
  actor: Actor = actorOf(viewer),
  leaked = false,
): Promise<ApiKey & { endedGrace: boolean }> {
  const key = await anyKeyForStaff(db, viewer, keyId);
  const predecessorInGrace = await db.apiKey.count({
    where: { replacedById: key.id, OR: [{ disabledAt: null }, { disabledAt: { gt: new Date() } }] },
  });
  const disabled = await disableKey(db, {
    keyId: key.id,
    reason: requireReason(reason, 'disabling the key'),
    actor: actor,
    kind: leaked ? 'leaked' : 'support',
  });
  return { ...disabled, endedGrace: predecessorInGrace > 0 };
}

export async function staffEnableKey(
  db: Db,
  viewer: Viewer,
  keyId: string,
  reason: string,
  actor: Actor = actorOf(viewer),
): Promise<ApiKey> {
  const key = await anyKeyForStaff(db, viewer, keyId);
  return enableKey(db, key.id, requireReason(reason, 're-enabling the key'), actor);
}

/**
 * A new secret for the owner, shown once to the staff member, who passes it on securely. The old secret
 * stops at once or after `grace` (one of REISSUE_GRACE_PERIODS), so the owner can switch their clients over.
 */
export async function staffReissueKey(
  db: Db,
  viewer: Viewer,
  keyId: string,
  actor: Actor = actorOf(viewer),
  grace: unknown = 'none',
) {
  const key = await anyKeyForStaff(db, viewer, keyId);
  const {
    key: issued,
    secret,
    replaced,
  } = await reissueKey(db, key.id, actor, {
    grace: checkedGrace(grace),
    cap: 'bypass',
  });
  return {
    id: issued.id,
    display: displayKey(issued),
    secret,
    oldWorksUntil: isDisabledAt(replaced.disabledAt) ? null : (replaced.disabledAt?.toISOString() ?? null),
  };
}

/**
 * Staff change tier and limits. Form semantics: a blank limit means the tier's default, a blank
 * expiry means never; an expiry is a UTC day and the key works until the end of it.
 */
export interface SettingsForm {
  tierId: string;
  dailyQuota: string;
  ratePerSecond: string;
  /** "YYYY-MM-DD" or "". */
  expiresOn: string;
  reason?: string;
}

/** `field`: the settings form's field the number comes from. */
function optionalWholeNumber(raw: string, label: string, field: keyof SettingsForm): number | null {
  const text = raw.trim();
  if (!text) return null;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > MAX_LIMIT) {
    throw new PortalInputError(
      `The ${label} must be a whole number of at least 1 and at most ${MAX_LIMIT}, or blank for the tier's default.`,
      field,
    );
  }
  return value;
}

/** The end of a UTC day: a key "expiring on 2027-01-31" works through that whole day. */
export function endOfUtcDay(day: string): Date {
  const date = new Date(`${day}T23:59:59.999Z`);
  // The round trip refuses days the calendar lacks, which Date rolls over (2027-02-31 would be March 3).
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day) {
    throw new PortalInputError('The expiry must be a date like 2027-01-31, or blank for never.', 'expiresOn');
  }
  return date;
}

export async function staffChangeSettings(
  db: Db,
  viewer: Viewer,
  keyId: string,
  form: SettingsForm,
  actor: Actor = actorOf(viewer),
  now = Date.now(),
) {
  const key = await anyKeyForStaff(db, viewer, keyId);
  const tierId = (typeof form.tierId === 'string' && form.tierId.trim()) || key.tierId;
  if (!(await db.tier.findUnique({ where: { id: tierId } }))) {
    const tiers = await db.tier.findMany({ orderBy: { dailyQuota: 'asc' }, select: { id: true } });
    throw new PortalInputError(`Choose one of the tiers: ${tiers.map((t) => t.id).join(', ')}.`, 'tierId');
  }
  const changes: KeySettingsChange = {
    tierId,
    dailyQuota: optionalWholeNumber(form.dailyQuota ?? '', 'daily quota', 'dailyQuota'),
    ratePerSecond: optionalWholeNumber(form.ratePerSecond ?? '', 'per-second limit', 'ratePerSecond'),
  };
  const expiresOn = form.expiresOn?.trim() ?? '';
  // An unchanged day keeps the key's exact expiry time (keys created for "30 days" expire mid-day).
  if (expiresOn !== (key.expiresAt?.toISOString().slice(0, 10) ?? '')) {
    const expiresAt = expiresOn ? endOfUtcDay(expiresOn) : null;
    if (expiresAt && expiresAt.getTime() <= now)
      throw new PortalInputError('That expiry is in the past. To stop the key now, disable it instead.', 'expiresOn');
    changes.expiresAt = expiresAt;
  }
  const reason = typeof form.reason === 'string' ? form.reason.trim() : '';
  if (reason.length > 500) throw new PortalInputError('Keep the reason under 500 characters.', 'reason');
  refuseFreeText(reason, 'reason', true, 'reason');
  const { changed } = await changeKeySettings(db, key.id, changes, actor, reason || undefined);
  return { changed };
}

/** What a leak paste did to one secret found in it. */
export type LeakSecretOutcome = 'disabled' | 'already_disabled' | 'not_found';

/**
 * Bulk disable: every valid secret in the pasted text. The outcome counts, and says for each secret (in
 * the order of the paste, by its display form cf_abcd…wxyz, never the secret) whether this paste
 * disabled its key, the key was off already, or no key has it.
 */
export async function bulkDisableLeaked(
  db: Db,
  viewer: Viewer,
  text: string,
  source: string,
  actor: Actor = actorOf(viewer),
) {
  assertStaff(viewer);
  const where = typeof source === 'string' ? source.trim() : '';
  if (!where)
    throw new PortalInputError(
      'Say where the secrets were found (a URL, a ticket number); it becomes the reason in the audit trail.',
      'source',
    );
  if (where.length > 300) throw new PortalInputError('Keep the source under 300 characters.', 'source');
  // A secret in the source is kept, redacted (the key store and writeAudit cut it out): the source names
  // where keys leaked, often by a URL that holds one, so refusing it would lose what staff need.
  refuseControlCharacters(where, 'source', false, 'source');
  if (typeof text !== 'string' || !text.trim())
    throw new PortalInputError('Paste the text that contains the leaked secrets.', 'text');
  if (text.length > 1_000_000)
    throw new PortalInputError('That text is over 1 MB; split it into smaller pastes.', 'text');
  const secrets = secretsInText(text);
  const outcome = await disableLeakedSecrets(db, secrets, actor, where);
  const keys = outcome.keyIds.length
    ? await db.apiKey.findMany({
        where: { id: { in: outcome.keyIds } },
        include: { owner: { select: { email: true } } },
      })
    : [];
  const byHash = new Map(keys.map((k) => [k.keyHash, k]));
  const disabledNow = new Set(outcome.disabledKeyIds);
  return {
    found: secrets.length,
    matched: outcome.matched,
    disabled: outcome.disabled,
    alreadyDisabled: outcome.alreadyDisabled,
    secrets: secrets.map((secret) => {
      const key = byHash.get(hashKey(secret));
      const display = displayKey(keyDisplayParts(secret));
      if (!key) return { display, outcome: 'not_found' as LeakSecretOutcome, key: null };
      return {
        display,
        outcome: (disabledNow.has(key.id) ? 'disabled' : 'already_disabled') as LeakSecretOutcome,
        key: { id: key.id, name: key.name, owner: key.owner.email },
      };
    }),
  };
}

export type LeakBulkOutcome = Awaited<ReturnType<typeof bulkDisableLeaked>>;
