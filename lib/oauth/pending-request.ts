/**
 * An authorization request between /authorize and the consent page. The SDK's authorization handler has
 * checked the client, its redirect URI and PKCE; what it passed is carried to the portal's consent page
 * in the page's address, signed with the server's key-hash secret, so the page (which may first send the
 * user to sign in and back) trusts it without storing anything. It is short-lived, and hex-encoded: the
 * address must survive sign-in's return-path check, which refuses anything that looks like a key.
 */
import { timingSafeEqual } from 'node:crypto';
import { hashKey } from '../keys/hash.ts';

/** How long the user has to sign in and decide. */
export const PENDING_REQUEST_TTL_MS = 10 * 60_000;
/** Longer `state` values are refused: they would not fit the sign-in return path. */
export const MAX_STATE_LENGTH = 500;

export interface PendingRequest {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state?: string;
  scope: string;
  /** The /mcp URL the token will be for (RFC 8707). */
  resource: string;
  /** This authorization server, sent back as `iss` (RFC 9207). */
  issuer: string;
  expiresAt: number;
}

const signature = (purpose: string, payload: string) => hashKey(`oauth-${purpose}:${payload}`);

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function signPendingRequest(request: PendingRequest): string {
  const payload = Buffer.from(JSON.stringify(request)).toString('hex');
  return `${payload}.${signature('request', payload)}`;
}

/** The request, or why it cannot be used, in words for the person at the browser. */
export function readPendingRequest(
  signed: unknown,
  now: number,
): { ok: true; request: PendingRequest } | { ok: false; problem: string } {
  const refused = (problem: string) => ({ ok: false as const, problem });
  if (typeof signed !== 'string') return refused('This page needs the authorization request the app started.');
  const [payload, mac, ...rest] = signed.split('.');
  if (!payload || !mac || rest.length || !sameText(mac, signature('request', payload)))
    return refused('This authorization request is not one this server made. Start the connection from the app again.');
  const request = JSON.parse(Buffer.from(payload, 'hex').toString('utf8')) as PendingRequest;
  if (request.expiresAt <= now)
    return refused(
      'This authorization request has expired (they last 10 minutes). Start the connection from the app again.',
    );
  return { ok: true, request };
}

/**
 * The consent form's anti-forgery token: the request bound to the signed-in user, so a form made for one
 * user's session cannot be replayed from another (server.ts also refuses cross-site posts).
 */
export function consentToken(signedRequest: string, userId: string): string {
  return signature('consent', `${userId}:${signedRequest}`);
}

export function consentTokenMatches(token: unknown, signedRequest: string, userId: string): boolean {
  return typeof token === 'string' && sameText(token, consentToken(signedRequest, userId));
}
