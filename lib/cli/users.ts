/** `cli user …`: create an account, change its role or password, and make a messaging-app bind code. */
import { CLI_ACTOR } from '../audit/write.ts';
import { createUser, normaliseEmail, setPassword, setUserRole, UserStoreError } from '../auth/users.ts';
import { BIND_CODE_MINUTES, createBindCode } from '../channels/bindings.ts';
import type { Db } from '../db/client.ts';
import { formatUtc } from '../portal/format.ts';
import { parse, text, UsageError } from './args.ts';

export async function userCreate(db: Db, args: string[]) {
  const { values } = parse(args, { email: { type: 'string' }, password: { type: 'string' }, role: { type: 'string' } });
  if (!values.email || !values.password) throw new UsageError('user create needs --email and --password.');
  const user = await createUser(
    db,
    { email: text(values.email)!, password: text(values.password)!, role: text(values.role) },
    CLI_ACTOR,
  );
  console.log(`Created ${user.role} ${user.email} (id ${user.id}).`);
}

export async function userRole(db: Db, args: string[]) {
  const { values } = parse(args, { email: { type: 'string' }, role: { type: 'string' } });
  if (!values.email || !values.role) throw new UsageError('user role needs --email and --role.');
  const user = await db.user.findUnique({ where: { email: normaliseEmail(text(values.email)!) } });
  if (!user)
    throw new UserStoreError('not_found', `No user with email ${values.email}; create one with "user create".`);
  const previous = user.role;
  await setUserRole(db, user.id, text(values.role)!, CLI_ACTOR);
  console.log(`${user.email} is now ${values.role} (was ${previous}).`);
}

export async function userPassword(db: Db, args: string[]) {
  const { values } = parse(args, { email: { type: 'string' }, password: { type: 'string' } });
  if (!values.email || !values.password) throw new UsageError('user password needs --email and --password.');
  const user = await setPassword(db, text(values.email)!, text(values.password)!, CLI_ACTOR);
  console.log(`Set a new password for ${user.email}; every session of the account has ended.`);
}

export async function userBindCode(db: Db, args: string[]) {
  const { values } = parse(args, { email: { type: 'string' } });
  if (!values.email) throw new UsageError('user bind-code needs --email.');
  const user = await db.user.findUnique({ where: { email: normaliseEmail(text(values.email)!) } });
  if (!user)
    throw new UserStoreError('not_found', `No user with email ${values.email}; create one with "user create".`);
  const { code, expiresAt } = await createBindCode(db, user.id);
  // The code alone on the last line, for scripts (`tail -1`).
  console.log(
    `Bind code for ${user.email}: it works for ${BIND_CODE_MINUTES} minutes, until ${formatUtc(expiresAt)}, once; any earlier code stops working. Send it as a message to the WeChat Official Account, or /bind ${code} to the Telegram bot.`,
  );
  console.log(code);
}
