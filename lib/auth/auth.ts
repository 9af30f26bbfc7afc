/**
 * Auth.js: email + password sign-in (Credentials), and GitHub when AUTH_GITHUB_ID and AUTH_GITHUB_SECRET
 * are set. Sessions are signed JWT cookies holding the user id and the account's session version; on
 * every request the jwt callback reads the user from the database, ends a session whose version moved on
 * (lib/auth/session-version.ts), and hands the user (with the role as it is now) to the session, so a
 * role change or a deleted account takes effect at once, with one database read.
 */
import { PrismaAdapter } from '@auth/prisma-adapter';
import NextAuth, { CredentialsSignin, type NextAuthConfig, type Session } from 'next-auth';
import type { JWT } from 'next-auth/jwt';
import Credentials from 'next-auth/providers/credentials';
import GitHub from 'next-auth/providers/github';
import { config } from '../config.ts';
import { getDb } from '../db/client.ts';
import { CLIENT_IP_HEADER } from '../http/transport-security.ts';
import { recordSignInFailure, recordSignInSuccess, signInWait } from '../limits/sign-in-throttle.ts';
import { log } from '../ops/log.ts';
import { AUTH_SECRET_SPEC, loadOrCreateSecret } from '../secrets.ts';
import { authErrorLogEntry } from './auth-log.ts';
import { deviceCookieIn, isDeviceCookieFor, rememberDevice } from './device-cookie.ts';
import { hashPassword, MAX_PASSWORD_LENGTH, verifyPassword } from './password.ts';
import { safeReturnPath } from './return-path.ts';
import { currentSessionVersion, endSessionsOf, type SessionUser, sessionUser } from './session-version.ts';
import { MAX_EMAIL_LENGTH, normaliseEmail } from './users.ts';

/** Thrown from authorize() when the throttle refuses; its code and wait reach the sign-in action. */
class TooManySignInAttempts extends CredentialsSignin {
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

/**
 * What the jwt callback found for a token, for the session callback of the same call: the session then
 * carries the user as the database has them, and no reader needs a second read.
 */
const checkedTokens = new WeakMap<JWT, SessionUser | 'unavailable'>();

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
      ...(config().github ? [GitHub(config().github!)] : []),
    ],
    callbacks: {
      // Every return address Auth.js follows (callbackUrl on /api/auth/*, signIn/signOut's redirectTo) passes the one check.
      redirect({ url, baseUrl }) {
        return baseUrl + safeReturnPath(url.startsWith(`${baseUrl}/`) ? url.slice(baseUrl.length) : url);
      },
      // Runs at sign-in (with `user`, any provider) and whenever a session is read; returning null ends the session.
      async jwt({ token, user }) {
        if (user?.id) return { ...token, sv: await currentSessionVersion(getDb(), user.id) };
        try {
          const found = await sessionUser(getDb(), token);
          if (!found) return null;
          checkedTokens.set(token, found);
        } catch (error) {
          // A database outage is not a sign-out: the session stays, and lib/portal/viewer.ts reports the outage.
          log('error', 'session check failed', { error: `${(error as Error).name}: ${(error as Error).message}` });
          checkedTokens.set(token, 'unavailable');
        }
        return token;
      },
      // Called right after jwt() with the token it returned.
      session({ session, token }) {
        const found = checkedTokens.get(token);
        if (!found || found === 'unavailable')
          return { expires: session.expires, user: null, unavailable: true } as unknown as Session;
        return { ...session, user: found } as unknown as Session;
      },
    },
    events: {
      // Sign-out ends every session of the account, on every device (docs/portal.md "Signing in").
      async signOut(message) {
        if ('token' in message && message.token) await endSessionsOf(getDb(), message.token);
      },
    },
    logger: {
      // A wrong password is not logged, an unreadable session cookie is a warn, the rest an error (auth-log.ts); never credentials.
      error(error) {
        const entry = authErrorLogEntry(error);
        if (entry) log(entry.level, entry.msg, entry.fields);
      },
      warn(code) {
        log('warn', 'auth warning', { code });
      },
    },
  };
}

// A function, so that the database client and secret are resolved at the first request, not at build time.
export const { handlers, auth, signIn, signOut } = NextAuth(() => authConfig());
