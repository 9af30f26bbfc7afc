/**
 * The security headers of every answer, set by server.ts (next to HSTS, which lives in
 * transport-security.ts). Two kinds of answer:
 *
 * - Documents: everything handed to Next (portal pages, their assets, 404s, /api routes). Their CSP
 *   allows scripts only by a nonce made fresh for each request. server.ts writes the policy into the
 *   request's own Content-Security-Policy header as well: Next reads the nonce from there and puts it
 *   on every script it renders (its inline hydration payload and its chunks). This works because every
 *   portal page renders per request (the root layout reads the session), so no page is prerendered
 *   with a nonce from the past.
 * - /mcp answers (JSON or SSE for API clients): a few fixed headers, built once, no nonce.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';

interface DocumentPolicyOptions {
  /** Over HTTPS, also ask the browser to upgrade any http:// subresource (over plain HTTP it would break them). */
  secure: boolean;
  /** GitHub sign-in posts a form that redirects to github.com; form-action must allow that redirect. */
  githubSignIn: boolean;
  /** The OAuth consent page shows the asking app's logo, which lives on the app's own (https) host. */
  appLogos?: boolean;
  /** `npm run dev`: React's development build evaluates code for its debugging aids, which needs 'unsafe-eval'. */
  dev?: boolean;
}

/** Headers both kinds of answer carry. */
const COMMON_HEADERS: readonly (readonly [string, string])[] = [
  // Browsers must not guess a type other than the one we declare (a JSON or text answer sniffed as HTML
  // or script would run in our origin).
  ['x-content-type-options', 'nosniff'],
  // Other sites must not frame us (clickjacking). CSP's frame-ancestors says the same to current
  // browsers; X-Frame-Options is for older ones.
  ['x-frame-options', 'DENY'],
  // Portal URLs carry key ids and support searches (?q=<email>): send them only to this origin, never
  // in the Referer of a link to another site.
  ['referrer-policy', 'same-origin'],
];

/**
 * /mcp answers (JSON or SSE for API clients): nothing may load or run from them (default-src 'none')
 * and nobody may frame them. Built once: /mcp's hot path only copies these.
 */
const API_HEADERS: readonly (readonly [string, string])[] = [
  ...COMMON_HEADERS,
  ['content-security-policy', "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"],
];

export function setApiHeaders(res: ServerResponse): void {
  for (const [name, value] of API_HEADERS) res.setHeader(name, value);
}

/** 128 random bits, base64: unguessable, and in the alphabet Next accepts for a nonce. */
function newNonce(): string {
  return randomBytes(16).toString('base64');
}

function documentPolicy(nonce: string, options: DocumentPolicyOptions): string {
  return [
    // Anything not listed below: this origin only.
    "default-src 'self'",
    // Scripts run only with this request's nonce; 'strict-dynamic' lets those scripts load Next's
    // further chunks. An injected <script> has no nonce and does not run ('self' is ignored by
    // browsers that know 'strict-dynamic', and kept for those that do not).
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ''}`,
    // React sets style attributes (recharts' charts, progress bars); those cannot carry a nonce, so
    // inline styles are allowed. Styles cannot run code; scripts stay strict.
    "style-src 'self' 'unsafe-inline'",
    // Charts and icons may be data: or blob: images; nothing else is loaded from other hosts, except an
    // OAuth app's own logo (https only) on the consent page.
    `img-src 'self' data: blob:${options.appLogos ? ' https:' : ''}`,
    "font-src 'self'",
    // The live usage panels poll this origin's JSON routes, nothing else.
    "connect-src 'self'",
    // No plugins, no <base> that would redirect relative URLs, no framing by anyone.
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    // Forms submit only here (and to GitHub's sign-in when it is configured).
    `form-action 'self'${options.githubSignIn ? ' https://github.com' : ''}`,
    ...(options.secure ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

/**
 * Sets a document answer's headers and returns the policy, which server.ts also hands to Next as a
 * request header (see above) so Next can read the nonce.
 */
export function setDocumentHeaders(res: ServerResponse, options: DocumentPolicyOptions): string {
  const policy = documentPolicy(newNonce(), options);
  for (const [name, value] of COMMON_HEADERS) res.setHeader(name, value);
  res.setHeader('content-security-policy', policy);
  return policy;
}
