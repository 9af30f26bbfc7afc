/**
 * How Auth.js's errors go into the JSON log. A session cookie that cannot be read (tampered with,
 * truncated, made under another AUTH_SECRET, long expired) comes from a browser, not from a fault of
 * the server: Auth.js drops the cookie and the visitor is signed out, so it is a `warn` with a code an
 * operator can count, not an `error`. A wrong password is an expected outcome and is not logged.
 * Everything else (a failure inside the session handling itself) stays an `error`.
 */

export const UNREADABLE_SESSION_COOKIE = 'session_cookie_unreadable';

type AuthLogEntry = { level: 'warn' | 'error'; msg: string; fields: Record<string, unknown> } | null;

/** What jose throws for a token it cannot decrypt or accept (ERR_JWE_*, ERR_JWT_*, ERR_JOSE_*). */
const JOSE_CODE = /^ERR_JW[ET]_|^ERR_JOSE_/;
/** Auth.js's own words for a cookie that decoded to nothing, or matched none of the secrets. */
const UNREADABLE_MESSAGES = new Set(['Invalid JWT', 'no matching decryption secret']);

function isUnreadableCookie(error: Error): boolean {
  if ((error as { type?: string }).type !== 'JWTSessionError') return false;
  const cause = (error.cause as { err?: unknown } | undefined)?.err;
  if (!(cause instanceof Error)) return false;
  const code = (cause as { code?: unknown }).code;
  return (typeof code === 'string' && JOSE_CODE.test(code)) || UNREADABLE_MESSAGES.has(cause.message);
}

export function authErrorLogEntry(error: Error): AuthLogEntry {
  if ((error as { type?: string }).type === 'CredentialsSignin') return null;
  const cause = (error.cause as { err?: unknown } | undefined)?.err;
  if (isUnreadableCookie(error)) {
    return {
      level: 'warn',
      msg: 'unreadable session cookie: the visitor is signed out',
      fields: { code: UNREADABLE_SESSION_COOKIE, reason: `${(cause as Error).name}: ${(cause as Error).message}` },
    };
  }
  const detail = cause instanceof Error ? ` (${cause.name}: ${cause.message})` : '';
  return { level: 'error', msg: 'auth error', fields: { error: `${error.name}: ${error.message}${detail}` } };
}
