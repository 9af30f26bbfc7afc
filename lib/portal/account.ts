/** The signed-in user's own account: their details and their password. */
import type { Actor } from '../audit.ts';
import type { Db } from '../db/client.ts';
import { changePassword } from '../users/store.ts';
import { actorOf, PortalInputError, type Viewer } from './access.ts';

export async function myAccount(db: Db, viewer: Viewer) {
  const user = await db.user.findUniqueOrThrow({ where: { id: viewer.id }, select: { email: true, name: true, role: true, createdAt: true, passwordHash: true } });
  const keys = await db.apiKey.count({ where: { ownerId: viewer.id } });
  return { email: user.email, name: user.name, role: user.role, createdAt: user.createdAt, hasPassword: Boolean(user.passwordHash), keys };
}

/** Changes the viewer's own password; the new one must be typed twice. */
export async function changeMyPassword(
  db: Db, viewer: Viewer, input: { current: string; next: string; confirm: string }, actor: Actor = actorOf(viewer),
): Promise<void> {
  if (!input.current) throw new PortalInputError('Type your current password.');
  if (input.next !== input.confirm) throw new PortalInputError('The two new passwords differ; type the same new password twice.');
  await changePassword(db, viewer.id, input.current, input.next, actor);
}
