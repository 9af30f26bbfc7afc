/**
 * Session versions. Every session cookie (an Auth.js JWT) carries the account's `sessionVersion` from
 * the moment it was issued, and is honoured only while the database still holds that version. Signing
 * out and changing a password add one, which ends every cookie issued before, copies included. The check
 * runs in Auth.js's jwt callback (lib/auth/auth.ts), which every reader of the session goes through:
 * pages, server actions and route handlers (through auth()), and Auth.js's own /api/auth/session.
 */

import type { Db } from '../db/client.ts';
import type { Role } from './roles.ts';
import { isRole } from './roles.ts';

/** The signed-in user as the database knows them now: what the session hands to lib/portal/viewer.ts. */
export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  /** The account still has a password it must replace before it does anything else (users.ts). */
  mustChangePassword: boolean;
}

/** The claims this module reads from the session token: the user id (Auth.js's `sub`) and the version. */
interface VersionedToken {
  sub?: string;
  sv?: unknown;
}

/** Prisma update data that ends every session issued so far (written with the change that ends them). */
export const END_SESSIONS = { sessionVersion: { increment: 1 } } as const;

/** The version a new session starts with (read at sign-in, for every provider). */
export async function currentSessionVersion(db: Db, userId: string): Promise<number> {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { sessionVersion: true } });
  return user.sessionVersion;
}

/**
 * The token's user, or null when the session has ended: the account is gone, or its version moved on
 * since the token was issued (a cookie from before session versions has none, and ends too). A database
 * error is thrown, for the caller to tell apart from a signed-out session.
 */
export async function sessionUser(db: Db, token: VersionedToken): Promise<SessionUser | null> {
  if (!token.sub || typeof token.sv !== 'number') return null;
  const user = await db.user.findUnique({
    where: { id: token.sub },
    select: { id: true, email: true, name: true, role: true, sessionVersion: true, mustChangePassword: true },
  });
  if (!user || user.sessionVersion !== token.sv || !isRole(user.role)) return null;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    mustChangePassword: user.mustChangePassword,
  };
}

/**
 * Ends every session of the token's account (sign-out). Only a current token may: a stale copy of a
 * cookie, signed out already, cannot keep signing its owner out of their new sessions.
 */
export async function endSessionsOf(db: Db, token: VersionedToken): Promise<void> {
  if (!token.sub || typeof token.sv !== 'number') return;
  await db.user.updateMany({ where: { id: token.sub, sessionVersion: token.sv }, data: END_SESSIONS });
}
