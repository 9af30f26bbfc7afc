/**
 * The email a sign-up was made with, carried to the sign-in page that follows it, so the form there
 * has it filled in. Not in the address (sign-up never puts the email in a URL, where logs and history
 * keep it): a short-lived HttpOnly cookie scoped to /signin, read only with the signed-up notice and
 * dropped by the next sign-in attempt. It tells nothing the browser did not just send: the page says the
 * same for a new and an existing email.
 */
import { cookies, headers } from 'next/headers';
import { MAX_EMAIL_LENGTH } from './users.ts';

const COOKIE = 'chemflow-signed-up-email';
/** Over HTTPS the cookie is Secure, and named so that the browser insists on it (the __Secure- prefix). */
const SECURE_COOKIE = `__Secure-${COOKIE}`;
const PATH = '/signin';
const MAX_AGE_S = 10 * 60;

async function overHttps(): Promise<boolean> {
  // server.ts sets X-Forwarded-Proto from the connection (or a trusted proxy's) before Next sees the request.
  return (await headers()).get('x-forwarded-proto') === 'https';
}

export async function rememberSignedUpEmail(email: string): Promise<void> {
  const secure = await overHttps();
  (await cookies()).set(secure ? SECURE_COOKIE : COOKIE, email, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: PATH,
    maxAge: MAX_AGE_S,
  });
}

/** The email to fill in, or '' (none, or not something a sign-up could have stored). */
export async function signedUpEmail(): Promise<string> {
  const jar = await cookies();
  const value = jar.get(SECURE_COOKIE)?.value ?? jar.get(COOKIE)?.value ?? '';
  return value.length <= MAX_EMAIL_LENGTH && /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u.test(value) ? value : '';
}

export async function forgetSignedUpEmail(): Promise<void> {
  const jar = await cookies();
  for (const name of [COOKIE, SECURE_COOKIE]) if (jar.has(name)) jar.delete({ name, path: PATH });
}
