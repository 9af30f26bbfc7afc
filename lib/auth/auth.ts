/**
 * Auth.js: email + password sign-in (Credentials), and GitHub when AUTH_GITHUB_ID and AUTH_GITHUB_SECRET
 * are set. Sessions are signed JWT cookies holding only the user id; the role is read from the database
 * on every request (lib/portal/viewer.ts), so a role change or a deleted account takes effect at once.
 */
import { PrismaAdapter } from '@auth/prisma-adapter';
import NextAuth, { CredentialsSignin, type NextAuthConfig } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import GitHub from 'next-auth/providers/github';
import { getDb } from '../db/client.ts';
import { CLIENT_IP_HEADER } from '../http/transport-security.ts';
import { log } from '../ops/log.ts';
import { AUTH_SECRET_SPEC, loadOrCreateSecret } from '../secrets.ts';
import { MAX_EMAIL_LENGTH, normaliseEmail } from '../users/store.ts';
import { deviceCookieIn, isDeviceCookieFor, rememberDevice } from './device-cookie.ts';
import { githubConfigured } from './github.ts';
import { hashPassword, MAX_PASSWORD_LENGTH, verifyPassword } from './password.ts';
import { safeReturnPath } from './return-path.ts';
import { recordSignInFailure, recordSignInSuccess, signInWait } from './sign-in-throttle.ts';

/** Thrown from authorize() when the throttle refuses; its code and wait reach the sign-in action. */
export class TooManySignInAttempts extends CredentialsSignin {
  code = 'too_many_attempts';

  constructor(readonly retryAfterMs: number) {
    super();
  }
}

/** A hash to verify against when the email is unknown, so both cases take the same time. */
let decoyHash: Promise<string> | undefined;

async function authorize(credentials: Partial<Record<string, unknown>>, request: Request) {
  const email = normaliseEmail(String(credentials.email ?? ''));
  const password = String(credentials.password ?? '');
  const address = request.headers.get(CLIENT_IP_HEADER) ?? 'unknown';
  // No account has a longer email or password: refused before the throttle keeps the email or scrypt hashes a megabyte.
  if (!email || !password || email.length > MAX_EMAIL_LENGTH || password.length > MAX_PASSWORD_LENGTH) return null;
  const user = await getDb().user.findUnique({ where: { email } });
  const knownDevice = Boolean(user && isDeviceCookieFor(deviceCookieIn(request.headers.get('cookie')), user.id));
  const wait = await signInWait(email, address, { knownDevice });
  if (wait > 0) throw new TooManySignInAttempts(wait);
  decoyHash ??= hashPassword('decoy password that matches nothing');
  const valid = await verifyPassword(password, user?.passwordHash ?? (await decoyHash));
  if (!user?.passwordHash || !valid) {
    await recordSignInFailure(email, address);
    return null;
  }
  await recordSignInSuccess(email, address);
  // Secure exactly when Auth.js's own cookies are (it decides from this URL's scheme).
  await rememberDevice(user.id, new URL(request.url).protocol === 'https:');
  return { id: user.id, email: user.email, name: user.name };
}

function authConfig(): NextAuthConfig {
  return {
    secret: loadOrCreateSecret(AUTH_SECRET_SPEC),
    trustHost: true,
    // The generated SQLite and PostgreSQL clients have the same models; the adapter only needs them.
    adapter: PrismaAdapter(getDb() as unknown as Parameters<typeof PrismaAdapter>[0]),
    session: { strategy: 'jwt', maxAge: 7 * 24 * 3600 },
    pages: { signIn: '/signin', error: '/signin' },
    providers: [
      Credentials({ credentials: { email: {}, password: {} }, authorize }),
      ...(githubConfigured() ? [GitHub({ clientId: process.env.AUTH_GITHUB_ID, clientSecret: process.env.AUTH_GITHUB_SECRET })] : []),
    ],
    callbacks: {
      // Every return address Auth.js follows (callbackUrl on /api/auth/*, signIn/signOut's redirectTo) passes the one check.
      redirect({ url, baseUrl }) {
        return baseUrl + safeReturnPath(url.startsWith(`${baseUrl}/`) ? url.slice(baseUrl.length) : url);
      },
      session({ session, token }) {
        if (token.sub) session.user.id = token.sub;
        return session;
      },
    },
    logger: {
      // A wrong password is an expected outcome, not a server error; everything else is logged (never credentials).
      error(error) {
        if ((error as { type?: string }).type === 'CredentialsSignin') return;
        log('error', 'auth error', { error: `${error.name}: ${error.message}` });
      },
      warn(code) {
        log('warn', 'auth warning', { code });
      },
    },
  };
}

// A function, so that the database client and secret are resolved at the first request, not at build time.
export const { handlers, auth, signIn, signOut } = NextAuth(() => authConfig());
