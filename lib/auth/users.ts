/** Creating users (audited in the same transaction). */

import { type Actor, writeAudit } from '../audit/write.ts';
import type { Db } from '../db/client.ts';
import { hasErrorCode } from '../error-code.ts';
import { containsSecretFragment } from '../ops/redact.ts';
import { hashPassword, MAX_PASSWORD_LENGTH, passwordProblem, verifyPassword } from './password.ts';
import { isRole, ROLES } from './roles.ts';
import { END_SESSIONS } from './session-version.ts';

export class UserStoreError extends Error {
  constructor(
    readonly code: 'invalid' | 'exists' | 'not_found' | 'wrong_password',
    message: string,
    /** The input property the message is about (a form shows it next to that field). */
    readonly field?: string,
  ) {
    super(message);
  }
}

/** Something@somewhere, without spaces or control characters. */
const EMAIL = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u;
/** The longest address SMTP can deliver to (RFC 5321 §4.5.3.1). */
export const MAX_EMAIL_LENGTH = 254;
const MAX_NAME_LENGTH = 100;

const SECRET_REFUSAL = (field: string) =>
  `The ${field} looks like it holds an API key secret ("cf_" and letters or digits); do not paste secrets here.`;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** `mustChangePassword`: the password was shown to someone else (printed at first start); the account must replace it. */
export async function createUser(
  db: Db,
  input: { email: string; password: string; role?: string; name?: string; mustChangePassword?: boolean },
  actor: Actor,
) {
  const email = normaliseEmail(typeof input.email === 'string' ? input.email : '');
  if (email.length > MAX_EMAIL_LENGTH)
    throw new UserStoreError(
      'invalid',
      `Email addresses have at most ${MAX_EMAIL_LENGTH} characters; this one has ${email.length}.`,
      'email',
    );
  // Addresses are shown to staff and kept in the audit trail: one holding a secret (or most of one) is refused unechoed.
  if (containsSecretFragment(email)) throw new UserStoreError('invalid', SECRET_REFUSAL('email address'), 'email');
  // JSON quoting shows an invisible character instead of printing it.
  if (!EMAIL.test(email))
    throw new UserStoreError('invalid', `${JSON.stringify(input.email)} is not an email address.`, 'email');
  const name = nameProblem(input.name);
  if (name) throw new UserStoreError('invalid', name, 'name');
  const role = input.role ?? 'developer';
  if (!isRole(role)) throw new UserStoreError('invalid', `Unknown role "${role}"; use one of ${ROLES.join(', ')}.`);
  const problem = passwordProblem(input.password);
  if (problem) throw new UserStoreError('invalid', problem, 'password');
  const passwordHash = await hashPassword(input.password);
  const exists = () => new UserStoreError('exists', `A user with email ${email} already exists.`);
  try {
    return await db.$transaction(async (tx) => {
      if (await tx.user.findUnique({ where: { email } })) throw exists();
      const user = await tx.user.create({
        data: {
          email,
          passwordHash,
          role,
          name: input.name?.trim() || null,
          mustChangePassword: input.mustChangePassword ?? false,
        },
      });
      await writeAudit(tx, actor, { action: 'user.create', targetUserId: user.id, after: { email, role } });
      return user;
    });
  } catch (error) {
    // Two sign-ups for one new email at once (PostgreSQL reads before either commits): the loser hits
    // the unique index, which is the same answer as finding the account.
    if (hasErrorCode(error, 'P2002')) throw exists();
    throw error;
  }
}

/** Why an optional display name cannot be stored, or null. */
function nameProblem(name: string | undefined): string | null {
  if (name === undefined) return null;
  if (typeof name !== 'string') return 'The name must be text.';
  if (name.trim().length > MAX_NAME_LENGTH) return `Keep the name under ${MAX_NAME_LENGTH} characters.`;
  if (/[\p{Cc}\u2028\u2029]/u.test(name))
    return 'The name must be one line of plain text, without tabs, line breaks or invisible control characters.';
  if (containsSecretFragment(name)) return SECRET_REFUSAL('name');
  return null;
}

/** Grants a role (audited as "user.role"). The last admin cannot be demoted: someone must be able to grant roles. */
export async function setUserRole(db: Db, userId: string, role: string, actor: Actor) {
  if (!isRole(role)) throw new UserStoreError('invalid', `Unknown role "${role}"; use one of ${ROLES.join(', ')}.`);
  return db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId } });
    if (!user) throw new UserStoreError('not_found', `No user with id ${userId}.`);
    if (user.role === role) throw new UserStoreError('invalid', `${user.email} already has the ${role} role.`);
    if (user.role === 'admin' && (await tx.user.count({ where: { role: 'admin' } })) === 1) {
      throw new UserStoreError(
        'invalid',
        `${user.email} is the only admin; make another user admin first, so someone can still grant roles.`,
      );
    }
    const updated = await tx.user.update({ where: { id: userId }, data: { role } });
    await writeAudit(tx, actor, {
      action: 'user.role',
      targetUserId: userId,
      before: { role: user.role },
      after: { role },
    });
    return updated;
  });
}

/**
 * Replaces a password after checking the current one (audited as "user.password", without either
 * password). OAuth-only accounts have no password to change. Every session of the account ends; the
 * portal signs the browser that made the change in again (app/account/actions.ts).
 */
export async function changePassword(db: Db, userId: string, current: string, next: string, actor: Actor) {
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user) throw new UserStoreError('not_found', `No user with id ${userId}.`);
  if (!user.passwordHash)
    throw new UserStoreError('invalid', 'This account signs in with GitHub and has no password to change.');
  // No stored password is longer than the maximum, so a longer "current" one is wrong without hashing it.
  if (current.length > MAX_PASSWORD_LENGTH || !(await verifyPassword(current, user.passwordHash)))
    throw new UserStoreError(
      'wrong_password',
      'The current password is wrong; type the password you signed in with.',
      'current',
    );
  if (next === current)
    throw new UserStoreError('invalid', 'The new password is the same as the current one; choose another.', 'next');
  await writePassword(db, userId, next, actor, 'next');
}

/**
 * Sets a password without the current one (the operator CLI's `user password`, for someone locked out
 * or whose account was taken over). Audited as "user.password"; every session of the account ends. The
 * operator chose this password, so it is not one the account must replace.
 */
export async function setPassword(db: Db, email: string, password: string, actor: Actor) {
  const user = await db.user.findUnique({ where: { email: normaliseEmail(email) } });
  if (!user) throw new UserStoreError('not_found', `No user with email ${email}; create one with "user create".`);
  await writePassword(db, user.id, password, actor);
  return user;
}

/** `field`: the form field that holds the new password, for a refusal of it. A new password ends any duty to change it. */
async function writePassword(db: Db, userId: string, password: string, actor: Actor, field = 'password') {
  const problem = passwordProblem(password);
  if (problem) throw new UserStoreError('invalid', problem, field);
  const passwordHash = await hashPassword(password);
  await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: userId }, data: { passwordHash, mustChangePassword: false, ...END_SESSIONS } });
    await writeAudit(tx, actor, { action: 'user.password', targetUserId: userId });
  });
}
