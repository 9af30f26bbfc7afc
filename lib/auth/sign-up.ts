/**
 * Self sign-up from the portal, which must tell a stranger nothing about who has an account, nor let one
 * address mint accounts by the thousand:
 * - each client address may try SIGN_UPS_PER_HOUR sign-ups per hour (shared through Redis in the shared
 *   mode); past that, nothing is checked or written and the answer says when to try again;
 * - a new email gets its account; an existing one is left exactly as it was (its password unchanged),
 *   with an audit event and a log line for its owner's staff, never the password. Both cases hash the
 *   password and end the same way for the caller (sign-up never signs anyone in), so neither the answer
 *   nor its timing tells which happened.
 */
import type { Actor } from '../audit/write.ts';
import { writeAudit } from '../audit/write.ts';
import { config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { attemptCounter } from '../limits/attempt-counter.ts';
import { log } from '../ops/log.ts';
import { createUser, normaliseEmail, UserStoreError } from './users.ts';

const HOUR_MS = 3600_000;

/** Counts this sign-up attempt from `address`: 0 when it may go ahead, else the ms until one may. */
export async function takeSignUpAttempt(address: string): Promise<number> {
  const attempt = await attemptCounter('sign-up-address', config().signUpsPerHour, HOUR_MS).take(address);
  return attempt.taken ? 0 : attempt.retryAfterMs;
}

/**
 * Creates the account, or leaves an existing one alone; answers the same (nothing) either way. Bad
 * input still throws UserStoreError('invalid'): that depends only on what was typed.
 */
export async function signUp(
  db: Db,
  input: { email: string; password: string; name?: string },
  actor: Actor,
): Promise<void> {
  try {
    await createUser(db, input, actor);
  } catch (error) {
    if (!(error instanceof UserStoreError && error.code === 'exists')) throw error;
    const existing = await db.user.findUnique({ where: { email: normaliseEmail(input.email) }, select: { id: true } });
    if (!existing) return; // deleted meanwhile: nothing to record
    await writeAudit(db, actor, { action: 'user.signup-existing', targetUserId: existing.id });
    log('info', 'sign-up with the email of an existing account: account left unchanged', {
      userId: existing.id,
      ip: actor.ip,
    });
  }
}
