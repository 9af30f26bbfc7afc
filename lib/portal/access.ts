/**
 * Who may see and change what, decided on the server for every page and action. Portal operations take
 * a Viewer (the signed-in user as the database knows them now) and go through these checks; a key the
 * viewer may not see is reported exactly like a key that does not exist (404, never 403), so ids
 * cannot be probed.
 */
import type { Actor } from '../audit/write.ts';
import type { Role } from '../auth/roles.ts';
import type { Db } from '../db/client.ts';

export interface Viewer {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  /** Signed in with a password others have seen (the first admin's one-time password): only a new one may be set. */
  mustChangePassword?: boolean;
}

/** Where an account that must replace its password is sent, and what it is told everywhere else. */
export const NEW_PASSWORD_PATH = '/account/password';
export const NEW_PASSWORD_FIRST =
  'Choose a new password first: this account still has the one-time password printed when ChemFlow first started';

/** Something the viewer asked for is not there, or not theirs: both answer 404. */
export class PortalNotFound extends Error {
  constructor(what = 'That page does not exist, or you do not have access to it.') {
    super(what);
  }
}

/**
 * Input a person can correct; the message says how. `field` names the form field it is about (the
 * service's input property, which the forms use as the field's name), so the form shows it there.
 */
export class PortalInputError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export function isStaff(viewer: Viewer): boolean {
  return viewer.role === 'support' || viewer.role === 'admin';
}

/** Staff-only operations: anyone else gets the same 404 as for a page that does not exist. */
export function assertStaff(viewer: Viewer): void {
  if (!isStaff(viewer)) throw new PortalNotFound();
}

export function assertAdmin(viewer: Viewer): void {
  if (viewer.role !== 'admin') throw new PortalNotFound();
}

/** What a developer is told of a key id that is not among theirs (missing, or another's: the same answer). */
export const OWN_KEY_NOT_FOUND = 'No such key among yours.';

/** The key, if it is the viewer's own; otherwise PortalNotFound (also for staff: they use the support console). */
export async function ownKey(db: Db, viewer: Viewer, keyId: string) {
  const key = typeof keyId === 'string' && keyId ? await db.apiKey.findUnique({ where: { id: keyId } }) : null;
  if (!key || key.ownerId !== viewer.id) throw new PortalNotFound(OWN_KEY_NOT_FOUND);
  return key;
}

/** The key for a staff member (any owner); PortalNotFound for non-staff or an unknown id. */
export async function anyKeyForStaff(db: Db, viewer: Viewer, keyId: string) {
  assertStaff(viewer);
  const key = typeof keyId === 'string' && keyId ? await db.apiKey.findUnique({ where: { id: keyId } }) : null;
  if (!key) throw new PortalNotFound('No such key.');
  return key;
}

/** The audit actor for a change the viewer makes from this address. */
export function actorOf(viewer: Viewer, ip?: string): Actor {
  return { userId: viewer.id, label: `${viewer.role}:${viewer.email}`, ip };
}
