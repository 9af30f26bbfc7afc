/**
 * The signed-in user for pages, server actions and route handlers (Next request scope). The session
 * carries the user as the database holds them now: Auth.js's jwt callback reads them once per request
 * and ends a session that was signed out or outlived a password change (lib/auth/session-version.ts).
 */
import { headers } from 'next/headers';
import { notFound, redirect } from 'next/navigation';
import { cache } from 'react';
import { auth } from '../auth/auth.ts';
import { safeReturnPath } from '../auth/return-path.ts';
import { isRole } from '../auth/roles.ts';
import { CLIENT_IP_HEADER } from '../http/transport-security.ts';
import { actorOf, isStaff, NEW_PASSWORD_PATH, PortalNotFound, type Viewer } from './access.ts';

/** Thrown when the session could not be checked (the database is away): the page shows it is unavailable, not signed out. */
class SessionCheckUnavailable extends Error {
  constructor() {
    super('The session could not be checked: the database is unavailable.');
  }
}

export const currentViewer = cache(async (): Promise<Viewer | null> => {
  // What the session callback of lib/auth/auth.ts returns: the user as the database has them, or null.
  const session = (await auth()) as {
    user?: { id?: string; email?: string; name?: string | null; role?: string; mustChangePassword?: boolean } | null;
    unavailable?: boolean;
  } | null;
  if (session?.unavailable) throw new SessionCheckUnavailable();
  const user = session?.user;
  if (!user?.id || !user.email || !user.role || !isRole(user.role)) return null;
  return {
    id: user.id,
    email: user.email,
    name: user.name ?? null,
    role: user.role,
    mustChangePassword: user.mustChangePassword === true,
  };
});

/** The signed-in viewer, whatever their password, or a redirect to sign-in that comes back to `returnTo`. */
export async function requireSignedIn(returnTo: string): Promise<Viewer> {
  const viewer = await currentViewer();
  // safeReturnPath also keeps out what someone pasted into a page's address (a secret typed as /keys/<id>).
  if (!viewer) redirect(`/signin?next=${encodeURIComponent(safeReturnPath(returnTo))}`);
  return viewer;
}

/**
 * The viewer, or a redirect to sign-in that comes back to `returnTo`. An account that must replace its
 * password is sent to do that first, from every page.
 */
export async function requireViewer(returnTo = '/keys'): Promise<Viewer> {
  const viewer = await requireSignedIn(returnTo);
  if (viewer.mustChangePassword) redirect(NEW_PASSWORD_PATH);
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
