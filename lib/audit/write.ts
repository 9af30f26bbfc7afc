/**
 * Audit events: every change to a key or a role is written with the change, inside the same
 * transaction, so the trail can never disagree with the data. The trail is shown to staff, so every
 * text that may come from a person (a reason, a leak report's source, a key name in before/after, an
 * address) has its secret fragments cut out here, whoever wrote the event.
 */
import type { Prisma } from '../db/generated/sqlite/client.ts';
import { redactSecretFragments } from '../ops/redact.ts';
import type { AuditAction } from './actions.ts';

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
  event: {
    action: AuditAction;
    keyId?: string;
    targetUserId?: string;
    before?: object | null;
    after?: object | null;
    reason?: string;
  },
): Promise<void> {
  await tx.auditEvent.create({
    data: {
      actorId: actor.userId ?? null,
      actorLabel: redactSecretFragments(actor.label),
      action: event.action,
      keyId: event.keyId ?? null,
      targetUserId: event.targetUserId ?? null,
      before: event.before ? redactSecretFragments(JSON.stringify(event.before)) : null,
      after: event.after ? redactSecretFragments(JSON.stringify(event.after)) : null,
      reason: orNull(event.reason),
      ip: orNull(actor.ip),
    },
  });
}

// Redaction keeps a fragment's first 7 characters and adds "…[redacted]", so before/after stay valid JSON.
function orNull(text: string | undefined): string | null {
  return text === undefined ? null : redactSecretFragments(text);
}
