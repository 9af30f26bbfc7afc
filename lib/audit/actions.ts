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
  /** The key's owner allowed an app (an OAuth client) to call with the key: a code was issued for it. */
  'oauth.allow',
  /** The key's owner disconnected an app (an OAuth client) from the key: its tokens stopped, the key works on. */
  'oauth.disconnect',
  /** The operator registered an OAuth client of /mcp (`cli oauth-client add`). */
  'oauth_client.add',
  /** An OAuth client was removed: its connections and their access tokens ended with it. */
  'oauth_client.remove',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];
