/**
 * Every audit event's action, in one list: writeAudit takes only these, so a misspelt name fails the
 * typecheck instead of starting a new kind of event that no filter or test looks for. Stored as the
 * string itself (AuditEvent.action); renaming one would orphan the events already written.
 */
export const AUDIT_ACTIONS = [
  'key.issue',
  'key.rename',
  'key.disable',
  /** A leak report (the public endpoint, a support paste, the owner) disabled the key. */
  'key.leak_disable',
  /** A leak report matched a key that was already disabled: the sighting is still on record. */
  'key.leak_report',
  'key.enable',
  'key.reissue',
  /** A replaced key's grace period ended early: the key that replaced it was stopped (disabled, leaked, given an expiry). */
  'key.grace_end',
  /** Tier, quota, rate or expiry changed (support settings, an approved upgrade). */
  'key.update',
  'user.create',
  'user.role',
  'user.password',
  /** Someone signed up with the email of an existing account, which was left unchanged. */
  'user.signup-existing',
  /** A messaging-app follower was bound to the account (a bind code, or an account made in the chat). */
  'channel.bind',
  /** A follower was unbound, by message or from /account. */
  'channel.unbind',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];
