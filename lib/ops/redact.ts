/**
 * Redaction at the sinks (the log, the audit trail, messages that quote caller text): secrets are cut to
 * what a key's display form shows, and credentials in URLs are blanked. The pattern knows only the
 * prefixes, "cf_" for keys and OAuth access tokens (lib/keys/format.ts has the full format) and "cfr_" for
 * OAuth refresh tokens, so every sink can use it without the key store.
 */
/**
 * More of a key's characters in a row than its display form shows (cf_abcd…wxyz, cf_abcd): a secret,
 * or a truncated, mistyped or wrapped one ("Bearer cf_…"), which is still most of a secret.
 */
const SECRET_FRAGMENT = /cfr?_[0-9A-Za-z]{9,}/;

/** True when the text holds a secret or most of one: it must not be echoed into a message, URL or log. */
export function containsSecretFragment(text: string): boolean {
  return SECRET_FRAGMENT.test(text);
}

const SECRET_FRAGMENTS = new RegExp(SECRET_FRAGMENT.source, 'g');

/**
 * The text with every secret fragment cut to what a display form shows ("cf_abcd…[redacted]"), for
 * caller-supplied text that must be kept or shown (a log line, an audit reason, an error message).
 */
export function redactSecretFragments(text: string): string {
  return text.replace(SECRET_FRAGMENTS, (fragment) => `${fragment.slice(0, 7)}…[redacted]`);
}

/** Blanks the user:password part of URLs (postgresql://u:p@host, redis://:p@host) in a message. */
export function redactUrls(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/gi, '$1***@');
}
