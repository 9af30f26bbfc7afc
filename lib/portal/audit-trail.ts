/**
 * The audit trail for staff: every change to a key, a role or a messaging-app binding, newest first, 50 to a
 * page, filtered by key (id, display form or 4 characters), actor (email, whole or part) and a range of UTC days.
 */
import type { Db } from '../db/client.ts';
import type { Prisma } from '../db/generated/sqlite/client.ts';
import { displayKey } from '../keys/format.ts';
import { assertStaff, PortalInputError, type Viewer } from './access.ts';

export const AUDIT_PAGE_SIZE = 50;
/** A key or actor filter that matches more than this is too vague to be what staff meant. */
export const MAX_FILTER_MATCHES = 200;

export interface AuditFilters {
  key?: string;
  actor?: string;
  /** "YYYY-MM-DD", UTC, inclusive. */
  from?: string;
  to?: string;
  page?: number;
}

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DISPLAY_FORM = /^(?:cf_)?([0-9A-Za-z]{4})(?:…|\.\.\.)([0-9A-Za-z]{4})$/;
const FOUR = /^(?:cf_)?([0-9A-Za-z]{4})$/;

/**
 * A "from" or "to" filter as the instant its UTC day begins. Days are written YYYY-MM-DD, as every date
 * the portal shows: "03/04/2026" is not guessed at (the 3rd of April or the 4th of March?).
 */
function utcDay(value: string, field: 'from' | 'to'): Date {
  const shown = JSON.stringify(value.slice(0, 40));
  if (!DAY.test(value)) {
    throw new PortalInputError(
      `The "${field}" day ${shown} is not written YYYY-MM-DD: write the UTC day as year-month-day, e.g. 2026-11-26.`,
      field,
    );
  }
  const date = new Date(`${value}T00:00:00.000Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw new PortalInputError(
      `The "${field}" day ${shown} is not a day of the calendar; check the month and day.`,
      field,
    );
  }
  return date;
}

/** Key ids a person's reference can mean; several when 4 characters match more than one key. */
async function keyIdsFor(db: Db, reference: string): Promise<string[]> {
  const display = DISPLAY_FORM.exec(reference);
  const four = FOUR.exec(reference)?.[1];
  const where: Prisma.ApiKeyWhereInput[] = [{ id: reference }];
  if (display) where.push({ start: display[1], end: display[2] });
  if (four) where.push({ start: four }, { end: four });
  const keys = await db.apiKey.findMany({ where: { OR: where }, select: { id: true }, take: MAX_FILTER_MATCHES });
  // A deleted key's events still carry its id.
  return [...new Set([reference, ...keys.map((k) => k.id)])];
}

/** The changed fields of an event: both sides for updates, the new values for creations. */
export function fieldChanges(before: string | null, after: string | null): FieldChange[] {
  const parse = (json: string | null): Record<string, unknown> => {
    if (!json) return {};
    try {
      const value = JSON.parse(json);
      return value && typeof value === 'object' ? value : {};
    } catch {
      return {};
    }
  };
  const b = parse(before);
  const a = parse(after);
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return fields
    .filter((field) => JSON.stringify(b[field]) !== JSON.stringify(a[field]))
    .map((field) => ({ field, before: field in b ? b[field] : undefined, after: field in a ? a[field] : undefined }));
}

/**
 * The changes without the one that only repeats the event's reason (a disable's "disabled reason"
 * is the reason it was given): the Reason column already shows it. A change from an earlier value stays.
 */
export function withoutReason(changes: FieldChange[], reason: string | null): FieldChange[] {
  if (reason === null) return changes;
  return changes.filter((c) => !(c.after === reason && (c.before === null || c.before === undefined)));
}

export async function auditTrail(db: Db, viewer: Viewer, filters: AuditFilters = {}) {
  assertStaff(viewer);
  const and: Prisma.AuditEventWhereInput[] = [];
  const keyRef = filters.key?.trim();
  if (keyRef) and.push({ keyId: { in: await keyIdsFor(db, keyRef) } });
  const actorRef = filters.actor?.trim().toLowerCase();
  if (actorRef) {
    const actors = await db.user.findMany({
      where: { email: { contains: actorRef } },
      select: { id: true },
      take: MAX_FILTER_MATCHES + 1,
    });
    if (actors.length > MAX_FILTER_MATCHES) {
      throw new PortalInputError(
        `"${actorRef.slice(0, 40)}" is part of more than ${MAX_FILTER_MATCHES} people's emails; type more of the actor's email.`,
      );
    }
    and.push({ OR: [{ actorId: { in: actors.map((a) => a.id) } }, { actorLabel: { contains: actorRef } }] });
  }
  const fromDay = filters.from?.trim();
  const toDay = filters.to?.trim();
  const from = fromDay ? utcDay(fromDay, 'from') : undefined;
  const to = toDay ? utcDay(toDay, 'to') : undefined;
  if (from && to && from > to)
    throw new PortalInputError(`The "from" day ${fromDay} is after the "to" day ${toDay}; swap them.`, 'from');
  if (from) and.push({ createdAt: { gte: from } });
  if (to) and.push({ createdAt: { lt: new Date(to.getTime() + 86_400_000) } });
  const where: Prisma.AuditEventWhereInput = and.length ? { AND: and } : {};

  const total = await db.auditEvent.count({ where });
  const pages = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  const page = Math.min(Math.max(1, Math.trunc(filters.page ?? 1) || 1), pages);
  const events = await db.auditEvent.findMany({
    where,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    skip: (page - 1) * AUDIT_PAGE_SIZE,
    take: AUDIT_PAGE_SIZE,
  });

  const keyIds = [...new Set(events.map((e) => e.keyId).filter((id): id is string => Boolean(id)))];
  const userIds = [...new Set(events.map((e) => e.targetUserId).filter((id): id is string => Boolean(id)))];
  const [keys, users] = await Promise.all([
    keyIds.length
      ? db.apiKey.findMany({ where: { id: { in: keyIds } }, select: { id: true, start: true, end: true } })
      : [],
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true } }) : [],
  ]);
  const keyDisplay = new Map(keys.map((k) => [k.id, displayKey(k)]));
  const userEmail = new Map(users.map((u) => [u.id, u.email]));

  return {
    page,
    pages,
    total,
    events: events.map((e) => ({
      id: e.id,
      createdAt: e.createdAt,
      actor: e.actorLabel,
      action: e.action,
      keyId: e.keyId,
      keyDisplay: e.keyId ? (keyDisplay.get(e.keyId) ?? null) : null,
      targetEmail: e.targetUserId ? (userEmail.get(e.targetUserId) ?? null) : null,
      changes: withoutReason(fieldChanges(e.before, e.after), e.reason),
      reason: e.reason,
      ip: e.ip,
    })),
  };
}

export type AuditPage = Awaited<ReturnType<typeof auditTrail>>;
export type AuditRow = AuditPage['events'][number];
