/**
 * Which portal account a messaging-app follower speaks for. A signed-in developer (or an operator, with
 * `cli user bind-code`) gets a short-lived one-time code; the follower sends it to the account and is bound
 * to that developer. A follower with no account may have one made for them in the chat instead
 * (createFollowerAccount). Every bind, unbind and account made here is in the audit trail, the channel named.
 */

import { randomInt } from 'node:crypto';
import type { Actor } from '../audit/write.ts';
import { writeAudit } from '../audit/write.ts';
import type { Role } from '../auth/roles.ts';
import type { Db } from '../db/client.ts';
import { hasErrorCode } from '../error-code.ts';
import { hashKey } from '../keys/hash.ts';
import type { Viewer } from '../portal/access.ts';
import { CHANNEL_LABELS, type ChannelName, type Follower } from './types.ts';

/** How long a bind code works: long enough to switch to the phone, short enough that a seen code goes stale. */
export const BIND_CODE_MINUTES = 10;
/** Crockford's base32: no I, L, O or U, so a code read off a screen cannot be mistyped into another one. */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LENGTH = 8;
/** Wrong codes one follower may send in BIND_TRY_WINDOW_MS before being asked to wait (40 bits need ~10^12 guesses anyway). */
const BIND_TRIES = 5;
const BIND_TRY_WINDOW_MS = 15 * 60_000;
/** Accounts made in a chat have no email; this reserved domain (RFC 2606) marks them and can never receive mail. */
const FOLLOWER_EMAIL_DOMAIN = 'followers.invalid';

const codeHash = (code: string) => hashKey(`bind-code:${code}`);

/** "ABCD-2345": the form shown on /account and printed by the CLI. */
function formatBindCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * The code in what a person typed, or null: case, spaces and dashes do not matter, and the letters
 * Crockford's alphabet leaves out are read as the digits they look like (O → 0, I and L → 1).
 */
export function readBindCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (code.length !== CODE_LENGTH) return null;
  return [...code].every((c) => CODE_ALPHABET.includes(c)) ? code : null;
}

/** A new bind code for the user; any earlier code of theirs stops working. */
export async function createBindCode(db: Db, userId: string, now = Date.now()) {
  const code = Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
  const expiresAt = new Date(now + BIND_CODE_MINUTES * 60_000);
  await db.$transaction([
    db.channelBindCode.deleteMany({ where: { userId } }),
    db.channelBindCode.create({ data: { codeHash: codeHash(code), userId, expiresAt } }),
  ]);
  return { code: formatBindCode(code), expiresAt };
}

/** The account a follower is bound to, as a Viewer (its role as the database has it now), or null. */
export async function boundViewer(db: Db, follower: Follower): Promise<Viewer | null> {
  const binding = await db.channelBinding.findUnique({
    where: { channel_externalId: { channel: follower.channel, externalId: follower.id } },
    include: { user: { select: { id: true, email: true, name: true, role: true } } },
  });
  return binding ? { ...binding.user, role: binding.user.role as Role } : null;
}

/** The audit actor for something a follower does in the app: their account, the channel named. */
export function followerActor(viewer: Viewer, follower: Follower): Actor {
  return { userId: viewer.id, label: `${viewer.role}:${viewer.email} via ${CHANNEL_LABELS[follower.channel]}` };
}

type BindOutcome =
  | { kind: 'bound'; viewer: Viewer }
  | { kind: 'already_bound'; viewer: Viewer }
  | { kind: 'bound_elsewhere' }
  | { kind: 'no_such_code' }
  | { kind: 'too_many_tries'; retryAt: Date };

/** Recent wrong codes per follower, on this instance: enough to make guessing pointless next to 32^8 codes. */
const wrongTries = new Map<string, number[]>();

function triesLeft(follower: Follower, now: number): { ok: true } | { ok: false; retryAt: Date } {
  const key = `${follower.channel}:${follower.id}`;
  const recent = (wrongTries.get(key) ?? []).filter((at) => at > now - BIND_TRY_WINDOW_MS);
  if (recent.length) wrongTries.set(key, recent);
  else wrongTries.delete(key);
  return recent.length < BIND_TRIES ? { ok: true } : { ok: false, retryAt: new Date(recent[0] + BIND_TRY_WINDOW_MS) };
}

function noteWrongTry(follower: Follower, now: number): void {
  const key = `${follower.channel}:${follower.id}`;
  wrongTries.set(key, [...(wrongTries.get(key) ?? []), now]);
}

/**
 * Binds the follower to the account whose code they sent. The code is used up in the same transaction
 * as the binding, so two followers racing with one code cannot both win. A follower already bound to
 * another account must unbind first: a code never moves a follower silently.
 */
export async function redeemBindCode(
  db: Db,
  follower: Follower,
  typed: string,
  now = Date.now(),
): Promise<BindOutcome> {
  const allowed = triesLeft(follower, now);
  if (!allowed.ok) return { kind: 'too_many_tries', retryAt: allowed.retryAt };
  const code = readBindCode(typed);
  const row = code ? await db.channelBindCode.findUnique({ where: { codeHash: codeHash(code) } }) : null;
  if (!row || row.expiresAt.getTime() <= now) {
    noteWrongTry(follower, now);
    return { kind: 'no_such_code' };
  }
  const current = await boundViewer(db, follower);
  if (current)
    return current.id === row.userId ? { kind: 'already_bound', viewer: current } : { kind: 'bound_elsewhere' };
  return db.$transaction(async (tx) => {
    const used = await tx.channelBindCode.deleteMany({
      where: { codeHash: row.codeHash, expiresAt: { gt: new Date(now) } },
    });
    if (used.count !== 1) return { kind: 'no_such_code' } as const;
    const user = await tx.user.findUniqueOrThrow({ where: { id: row.userId } });
    const viewer: Viewer = { id: user.id, email: user.email, name: user.name, role: user.role as Role };
    await tx.channelBinding.create({ data: { channel: follower.channel, externalId: follower.id, userId: user.id } });
    await writeAudit(tx, followerActor(viewer, follower), {
      action: 'channel.bind',
      targetUserId: user.id,
      after: { channel: follower.channel, follower: follower.id },
    });
    return { kind: 'bound', viewer } as const;
  });
}

/** The follower unbinds themselves by message; false when they were not bound. */
export async function unbindFollower(db: Db, follower: Follower): Promise<boolean> {
  const viewer = await boundViewer(db, follower);
  if (!viewer) return false;
  return removeBinding(
    db,
    { channel: follower.channel, externalId: follower.id, userId: viewer.id },
    followerActor(viewer, follower),
  );
}

/** The developer unbinds a follower from /account; false when it is not (or no longer) theirs. */
export async function unbindForViewer(db: Db, viewer: Viewer, bindingId: string, actor: Actor): Promise<boolean> {
  const binding =
    typeof bindingId === 'string' && bindingId
      ? await db.channelBinding.findUnique({ where: { id: bindingId } })
      : null;
  if (!binding || binding.userId !== viewer.id) return false;
  return removeBinding(db, binding, actor);
}

async function removeBinding(
  db: Db,
  binding: { channel: string; externalId: string; userId: string },
  actor: Actor,
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const removed = await tx.channelBinding.deleteMany({
      where: { channel: binding.channel, externalId: binding.externalId, userId: binding.userId },
    });
    if (removed.count !== 1) return false;
    await writeAudit(tx, actor, {
      action: 'channel.unbind',
      targetUserId: binding.userId,
      before: { channel: binding.channel, follower: binding.externalId },
    });
    return true;
  });
}

/** The followers bound to a user, for /account and for telling them about an upgrade decision. */
export async function bindingsOf(db: Db, userId: string, channel?: ChannelName) {
  return db.channelBinding.findMany({
    where: { userId, ...(channel ? { channel } : {}) },
    orderBy: { createdAt: 'asc' },
    select: { id: true, channel: true, externalId: true, createdAt: true },
  });
}

/**
 * An account for a follower who has none, bound to them in the same transaction. It has no password and
 * an address under FOLLOWER_EMAIL_DOMAIN that receives no mail; its keys are managed from the chat.
 * Null when the follower is bound already (a double tap must not make two accounts).
 */
export async function createFollowerAccount(db: Db, follower: Follower): Promise<Viewer | null> {
  const email = `${follower.channel}-${hashKey(`follower:${follower.channel}:${follower.id}`).slice(0, 16)}@${FOLLOWER_EMAIL_DOMAIN}`;
  try {
    return await db.$transaction(async (tx) => {
      if (
        await tx.channelBinding.findUnique({
          where: { channel_externalId: { channel: follower.channel, externalId: follower.id } },
        })
      )
        return null;
      const user = await tx.user.create({ data: { email, name: `${CHANNEL_LABELS[follower.channel]} follower` } });
      const viewer: Viewer = { id: user.id, email: user.email, name: user.name, role: user.role as Role };
      await tx.channelBinding.create({ data: { channel: follower.channel, externalId: follower.id, userId: user.id } });
      const actor = followerActor(viewer, follower);
      await writeAudit(tx, actor, { action: 'user.create', targetUserId: user.id, after: { email, role: user.role } });
      await writeAudit(tx, actor, {
        action: 'channel.bind',
        targetUserId: user.id,
        after: { channel: follower.channel, follower: follower.id },
      });
      return viewer;
    });
  } catch (error) {
    // Two taps at once: the loser hits the unique binding (or email) and the winner's account stands.
    if (hasErrorCode(error, 'P2002')) return null;
    throw error;
  }
}

/** True for an account made in a chat (no email, no password): it has no portal sign-in. */
export function isFollowerAccount(email: string): boolean {
  return email.endsWith(`@${FOLLOWER_EMAIL_DOMAIN}`);
}
