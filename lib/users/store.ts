/** Creating users (audited in the same transaction). */
import { type Actor, writeAudit } from '../audit.ts';
import { hashPassword, passwordProblem } from '../auth/password.ts';
import { isRole, ROLES } from '../auth/roles.ts';
import type { Db } from '../db/client.ts';

export class UserStoreError extends Error {
  constructor(readonly code: 'invalid' | 'exists' | 'not_found', message: string) {
    super(message);
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function createUser(db: Db, input: { email: string; password: string; role?: string; name?: string }, actor: Actor) {
  const email = normaliseEmail(input.email);
  if (!EMAIL.test(email)) throw new UserStoreError('invalid', `"${input.email}" is not an email address.`);
  const role = input.role ?? 'developer';
  if (!isRole(role)) throw new UserStoreError('invalid', `Unknown role "${role}"; use one of ${ROLES.join(', ')}.`);
  const problem = passwordProblem(input.password);
  if (problem) throw new UserStoreError('invalid', problem);
  const passwordHash = await hashPassword(input.password);
  return db.$transaction(async (tx) => {
    if (await tx.user.findUnique({ where: { email } })) throw new UserStoreError('exists', `A user with email ${email} already exists.`);
    const user = await tx.user.create({ data: { email, passwordHash, role, name: input.name ?? null } });
    await writeAudit(tx, actor, { action: 'user.create', targetUserId: user.id, after: { email, role } });
    return user;
  });
}
