/**
 * Device cookies (OWASP's defence against lock-out attacks): a browser that signs in to an account
 * with its password gets a cookie signed for that account, and a sign-in that carries it is exempt
 * from the per-email back-off (sign-in-throttle.ts), which guesses from many addresses can trigger.
 * The cookie is an issue time and an HMAC of the user id and that time under the Auth.js secret: it
 * names no account, cannot be forged or moved to another account, and stops counting after 90 days.
 * One browser remembers the account it signed in to last.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { cookies } from 'next/headers';
import { AUTH_SECRET_SPEC, loadOrCreateSecret } from '../secrets.ts';

const DEVICE_COOKIE = 'chemflow-device';
/**
 * Over HTTPS the cookie carries the __Host- prefix, as Auth.js's own do: the browser then accepts it only
 * Secure, for this host alone and path /, so no other site on the domain can plant or overwrite it.
 */
export const SECURE_DEVICE_COOKIE = `__Host-${DEVICE_COOKIE}`;
const DEVICE_COOKIE_MAX_AGE_S = 90 * 24 * 3600;

let key: Buffer | undefined;
/** A key of its own, derived from the Auth.js secret, so a device signature is never valid as anything else. */
function signingKey(): Buffer {
  key ??= createHmac('sha256', loadOrCreateSecret(AUTH_SECRET_SPEC)).update('chemflow device cookie v1').digest();
  return key;
}

function signature(userId: string, issuedAtS: number): Buffer {
  return createHmac('sha256', signingKey()).update(`${userId}\n${issuedAtS}`).digest();
}

/** The cookie's value for this account, issued now. */
function deviceCookieValue(userId: string, now = Date.now()): string {
  const issuedAtS = Math.floor(now / 1000);
  return `${issuedAtS}.${signature(userId, issuedAtS).toString('base64url')}`;
}

/** Whether `value` is a device cookie this server issued for this account within the last 90 days. */
export function isDeviceCookieFor(value: string | undefined, userId: string, now = Date.now()): boolean {
  const match = /^(\d{1,12})\.([\w-]{43})$/.exec(value ?? '');
  if (!match) return false;
  const issuedAtS = Number(match[1]);
  const age = now / 1000 - issuedAtS;
  if (age < -60 || age > DEVICE_COOKIE_MAX_AGE_S) return false;
  return timingSafeEqual(Buffer.from(match[2], 'base64url'), signature(userId, issuedAtS));
}

/** The device cookie's value in a Cookie request header (either name), if any. */
export function deviceCookieIn(cookieHeader: string | null): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const at = part.indexOf('=');
    const name = at > 0 ? part.slice(0, at).trim() : '';
    if (name === SECURE_DEVICE_COOKIE || name === DEVICE_COOKIE) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** Sets the device cookie for this account on the response of the current request (a sign-in). */
export async function rememberDevice(userId: string, secure: boolean): Promise<void> {
  (await cookies()).set(secure ? SECURE_DEVICE_COOKIE : DEVICE_COOKIE, deviceCookieValue(userId), {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: DEVICE_COOKIE_MAX_AGE_S,
  });
}
