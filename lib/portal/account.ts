/** The signed-in user's own account: their details and their password. */
import type { Actor } from '../audit/write.ts';
import { changePassword, UserStoreError } from '../auth/users.ts';
import type { Db } from '../db/client.ts';
import { recordSignInFailure, recordSignInSuccess, signInWait } from '../limits/sign-in-throttle.ts';
import { actorOf, PortalInputError, type Viewer } from './access.ts';

export async function myAccount(db: Db, viewer: Viewer) {
  const user = await db.user.findUniqueOrThrow({
    where: { id: viewer.id },
    select: { email: true, name: true, role: true, createdAt: true, passwordHash: true },
  });
  const keys = await db.apiKey.count({ where: { ownerId: viewer.id } });
  return {
    email: user.email,
    name: user.name,
    role: user.role,
    createdAt: user.createdAt,
    hasPassword: Boolean(user.passwordHash),
    keys,
  };
}

/**
 * Changes the viewer's own password; the new one must be typed twice. Guesses of the current password
 * count as failed sign-ins for the account and address (lib/limits/sign-in-throttle.ts): a session left
 * open, or a stolen cookie, gives no more tries at the password than the sign-in form does.
 */
export async function changeMyPassword(
  db: Db,
  viewer: Viewer,
  input: { current: string; next: string; confirm: string },
  actor: Actor = actorOf(viewer),
): Promise<void> {
  if (!input.current) throw new PortalInputError('Type your current password.', 'current');
  if (input.next !== input.confirm)
    throw new PortalInputError('The two new passwords differ; type the same new password twice.', 'confirm');
  const address = actor.ip ?? 'unknown';
  // A signed-in session is at least as much proof as a device cookie: others' guesses at this email
  // elsewhere must not stop its owner from changing the password (the pair and address limits still hold).
  const wait = await signInWait(viewer.email, address, { knownDevice: true });
  if (wait > 0)
    throw new PortalInputError(
      `Too many wrong passwords. Try again ${retryTime(wait)}; until then the password cannot be changed.`,
    );
  try {
    await changePassword(db, viewer.id, input.current, input.next, actor);
  } catch (error) {
    if (error instanceof UserStoreError && error.code === 'wrong_password')
      await recordSignInFailure(viewer.email, address);
    throw error;
  }
  await recordSignInSuccess(viewer.email, address);
}

/** "in 14 minutes (at 13:52 UTC)": when a throttled attempt may be made again. */
function retryTime(waitMs: number, now = Date.now()): string {
  const at = new Date(now + waitMs).toISOString().slice(11, 16);
  const span = waitMs < 60_000 ? `${Math.ceil(waitMs / 1000)} seconds` : `${Math.ceil(waitMs / 60_000)} minutes`;
  return `in ${span} (at ${at} UTC)`;
}
