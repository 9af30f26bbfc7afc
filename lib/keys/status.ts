/**
 * A key's status, one vocabulary for everyone who reads it: the owner's pages, the support console and
 * the CLI (`key show`) all show these words, so an owner and a support agent talking about one key say
 * the same thing.
 */
import type { ApiKey } from '../db/generated/sqlite/client.ts';

export const KEY_STATUSES = ['active', 'replaced', 'expired', 'disabled', 'leaked'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

/** The reason stored when an owner reports their own key as leaked. */
export const OWNER_LEAK_REASON = 'reported leaked by the owner';
/** The start of the reason stored when a leak report (public endpoint, staff's paste) disables a key. */
export const LEAK_REASON_PREFIX = 'leaked: ';

/**
 * A reissued key reads "replaced" whether or not its grace period is over (its page says until when it
 * works); a disabledAt still ahead is that grace period, so the key is not disabled yet. A key off because
 * its secret leaked reads "leaked", however the leak was reported (stopKind, never the reason's wording).
 */
export function keyStatus(
  key: Pick<ApiKey, 'disabledAt' | 'stopKind' | 'expiresAt' | 'replacedById'>,
  now = Date.now(),
): KeyStatus {
  if (key.replacedById) return 'replaced';
  if (key.disabledAt && key.disabledAt.getTime() <= now) return key.stopKind === 'leaked' ? 'leaked' : 'disabled';
  if (key.expiresAt && key.expiresAt.getTime() <= now) return 'expired';
  return 'active';
}

/** Who turned a key off: its owner, support staff, a public leak report, or the operator's CLI. */
export type DisabledBy = 'owner' | 'staff' | 'leak_report' | 'operator';

/**
 * Null unless the key is disabled (a replaced key is off because of its reissue, not anyone's decision).
 * The owner sees it when someone else did it, and may reissue the key themselves (lib/portal/stopped-keys.ts).
 * A leak is whoever reported it: the owner, a staff member, or (no one signed in) the public endpoint.
 */
export function disabledBy(
  key: Pick<ApiKey, 'disabledAt' | 'disabledById' | 'stopKind' | 'ownerId' | 'replacedById'>,
  now = Date.now(),
): DisabledBy | null {
  if (!key.disabledAt || key.disabledAt.getTime() > now || key.replacedById) return null;
  if (key.disabledById === key.ownerId) return 'owner';
  if (key.disabledById) return 'staff';
  return key.stopKind === 'leaked' ? 'leak_report' : 'operator';
}
