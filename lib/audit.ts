/**
 * Audit events: every change to a key or a role is written with the change, inside the same
 * transaction, so the trail can never disagree with the data.
 */
import type { Prisma } from './db/generated/sqlite/client.ts';

/** Who made a change: a signed-in user, or the operator CLI / the system (label only). */
export interface Actor {
  userId?: string;
  label: string;
  ip?: string;
}

export const CLI_ACTOR: Actor = { label: 'cli' };
export const SYSTEM_ACTOR: Actor = { label: 'system' };

export async function writeAudit(
  tx: Prisma.TransactionClient,
  actor: Actor,
  event: { action: string; keyId?: string; targetUserId?: string; before?: object | null; after?: object | null; reason?: string },
): Promise<void> {
  await tx.auditEvent.create({
    data: {
      actorId: actor.userId ?? null,
      actorLabel: actor.label,
      action: event.action,
      keyId: event.keyId ?? null,
      targetUserId: event.targetUserId ?? null,
      before: event.before ? JSON.stringify(event.before) : null,
      after: event.after ? JSON.stringify(event.after) : null,
      reason: event.reason ?? null,
      ip: actor.ip ?? null,
    },
  });
}
