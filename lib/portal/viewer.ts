/**
 * The signed-in user for pages and server actions (Next request scope). The session cookie carries only
 * the user id; role and email are read from the database here, once per request.
 */
import { headers } from 'next/headers';
import { notFound, redirect } from 'next/navigation';
import { cache } from 'react';
import { auth } from '../auth/auth.ts';
import { safeReturnPath } from '../auth/return-path.ts';
import { isRole } from '../auth/roles.ts';
import { getDb } from '../db/client.ts';
import { CLIENT_IP_HEADER } from '../http/transport-security.ts';
import { actorOf, isStaff, PortalNotFound, type Viewer } from './access.ts';

export const currentViewer = cache(async (): Promise<Viewer | null> => {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) return null;
  const user = await getDb().user.findUnique({ where: { id }, select: { id: true, email: true, name: true, role: true } });
  if (!user || !isRole(user.role)) return null;
  return { ...user, role: user.role };
});

/** The viewer, or a redirect to sign-in that comes back to `returnTo`. */
export async function requireViewer(returnTo = '/keys'): Promise<Viewer> {
  const viewer = await currentViewer();
  // safeReturnPath also keeps out what someone pasted into a page's address (a secret typed as /keys/<id>).
  if (!viewer) redirect(`/signin?next=${encodeURIComponent(safeReturnPath(returnTo))}`);
  return viewer;
}

/** Staff pages: signed-out users sign in first; signed-in non-staff get 404. */
export async function requireStaffViewer(returnTo: string): Promise<Viewer> {
  const viewer = await requireViewer(returnTo);
  if (!isStaff(viewer)) notFound();
  return viewer;
}

export async function clientIp(): Promise<string | undefined> {
  return (await headers()).get(CLIENT_IP_HEADER) ?? undefined;
}

export async function currentActor(viewer: Viewer) {
  return actorOf(viewer, await clientIp());
}

/** Runs a page's data loader, turning PortalNotFound into Next's 404. */
export async function orNotFound<T>(load: Promise<T>): Promise<T> {
  try {
    return await load;
  } catch (error) {
    if (error instanceof PortalNotFound) notFound();
    throw error;
  }
}
