/**
 * The one check for every address the portal returns someone to after signing in (the `next` of
 * /signin, the sign-in form, requireViewer's return, Auth.js's callbackUrl): a path on this site or
 * nothing. Browsers and servers disagree about odd URLs (a backslash is a slash to a browser, a tab
 * is dropped, `/.//x` normalises to the protocol-relative `//x`), so the value is resolved the way a
 * browser would and kept only when it stays on the site in every reading; the answer is that resolved
 * path, which is what goes into a Location header.
 */
import { containsSecretFragment } from '../ops/redact.ts';

export const DEFAULT_RETURN_PATH = '/keys';

/**
 * Where sign-in lands when nothing asked for a page: staff (support, admin) at the support console, where
 * their work is; developers at their keys. A return path of the visitor's own always wins over this.
 */
export function landingPath(role: string | null | undefined): string {
  return role === 'support' || role === 'admin' ? '/support' : DEFAULT_RETURN_PATH;
}
/** Longer values are refused: no page of the portal needs one, and it bounds what is echoed. */
export const MAX_RETURN_PATH_LENGTH = 2048;

/** Any origin stands for the site: only "is it the same one" matters. */
const SITE = 'https://site.invalid';

/** Backslashes, control and invisible format characters, line and paragraph separators. */
const FORBIDDEN = /[\\\p{Cc}\p{Cf}\u2028\u2029]/u;

/** The value percent-decoded until it no longer changes (a few rounds), or null when it is malformed. */
function fullyDecoded(value: string): string | null {
  let current = value;
  for (let round = 0; round < 4; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  return null; // still changing: nested encoding no page needs
}

/** The path+query+hash `text` resolves to on this site, or null when it leaves the site. */
function sitePath(text: string): string | null {
  if (!text.startsWith('/') || FORBIDDEN.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text, SITE);
  } catch {
    return null;
  }
  if (url.origin !== SITE) return null;
  const path = url.pathname + url.search + url.hash;
  // "/.//evil" resolves to the path "//evil", which a browser reads as another host.
  return path.startsWith('//') ? null : path;
}

/**
 * `raw` as a same-site path (normalised: path, query and hash as a browser would send them), or
 * DEFAULT_RETURN_PATH when it is not a string, too long, names another origin (also after
 * percent-decoding), holds a backslash or a control character, or holds an API key secret.
 */
export function safeReturnPath(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_RETURN_PATH_LENGTH) return DEFAULT_RETURN_PATH;
  const decoded = fullyDecoded(raw);
  if (decoded === null || sitePath(decoded) === null) return DEFAULT_RETURN_PATH;
  if (containsSecretFragment(raw) || containsSecretFragment(decoded)) return DEFAULT_RETURN_PATH;
  return sitePath(raw) ?? DEFAULT_RETURN_PATH;
}
