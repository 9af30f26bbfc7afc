/** Admin: the user list and role changes (audited; the last admin cannot be demoted). */
import type { Actor } from '../audit/write.ts';
import { setUserRole } from '../auth/users.ts';
import type { Db } from '../db/client.ts';
import { actorOf, assertAdmin, PortalNotFound, type Viewer } from './access.ts';

const USERS_PAGE_LIMIT = 200;

export async function listUsers(db: Db, viewer: Viewer, filter: { email?: string } = {}) {
  assertAdmin(viewer);
  const email = filter.email?.trim().toLowerCase();
  const users = await db.user.findMany({
    where: email ? { email: { contains: email } } : {},
    orderBy: { createdAt: 'asc' },
    take: USERS_PAGE_LIMIT + 1,
    select: { id: true, email: true, name: true, role: true, createdAt: true, _count: { select: { apiKeys: true } } },
  });
  return {
    truncated: users.length > USERS_PAGE_LIMIT,
    users: users.slice(0, USERS_PAGE_LIMIT).map(({ _count, ...user }) => ({ ...user, keys: _count.apiKeys })),
  };
}

export async function changeUserRole(
  db: Db,
  viewer: Viewer,
  userId: string,
  role: string,
  actor: Actor = actorOf(viewer),
) {
  assertAdmin(viewer);
  if (
    typeof userId !== 'string' ||
    !userId ||
    !(await db.user.findUnique({ where: { id: userId }, select: { id: true } }))
  ) {
    throw new PortalNotFound('No such user.');
  }
  const user = await setUserRole(db, userId, role, actor);
  return { email: user.email, role: user.role };
}
