'use server';
import { redirect } from 'next/navigation';
/** Sign up, sign in and sign out (Auth.js credentials). */
import { AuthError } from 'next-auth';
import { z } from 'zod';
import { signIn, signOut } from '@/lib/auth/auth.ts';
import { landingPath, safeReturnPath } from '@/lib/auth/return-path.ts';
import { signUp, takeSignUpAttempt } from '@/lib/auth/sign-up.ts';
import { SIGNED_UP_NOTICE } from '@/lib/auth/sign-up-notice.ts';
import { forgetSignedUpEmail, rememberSignedUpEmail } from '@/lib/auth/signed-up-email.ts';
import { normaliseEmail } from '@/lib/auth/users.ts';
import { getDb } from '@/lib/db/client.ts';
import { PortalInputError } from '@/lib/portal/access.ts';
import { publicAction } from '@/lib/portal/form-action.ts';
import { trimmedText, verbatimText } from '@/lib/portal/form-input.ts';
import { clientIp } from '@/lib/portal/viewer.ts';

/** "5 minutes", "1 minute": how long a throttled person waits, rounded up. */
function minutes(ms: number): string {
  const count = Math.max(1, Math.ceil(ms / 60_000));
  return `${count} minute${count === 1 ? '' : 's'}`;
}

export const signInAction = publicAction(
  z.object({ email: trimmedText, password: verbatimText, next: trimmedText }),
  async ({ email, password, next }) => {
    if (!email || !password) throw new PortalInputError('Enter your email and password.', email ? 'password' : 'email');
    // The form has been filled in by now: the email kept from sign-up has done its job.
    await forgetSignedUpEmail();
    try {
      // With a return path, Auth.js redirects there on success (Next's redirect is thrown, and passes on below);
      // without one, the landing depends on who signed in, known only afterwards.
      await signIn(
        'credentials',
        next ? { email, password, redirectTo: safeReturnPath(next) } : { email, password, redirect: false },
      );
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      const { code, retryAfterMs } = error as AuthError & { code?: string; retryAfterMs?: number };
      throw new PortalInputError(
        code === 'too_many_attempts'
          ? `Too many failed sign-ins. Try again in ${minutes(retryAfterMs ?? 15 * 60_000)}, or ask support to help you in.`
          : 'Wrong email or password.',
      );
    }
    // Signed in without a return path: where this account's work is.
    redirect(landingPath(await roleOf(email)));
  },
);

async function roleOf(email: string): Promise<string | undefined> {
  const user = await getDb().user.findUnique({ where: { email: normaliseEmail(email) }, select: { role: true } });
  return user?.role;
}

/**
 * Sign-up answers the same whether or not the email already has an account (lib/auth/sign-up.ts): the
 * sign-in page with one notice, and no session. The email never goes into the address.
 */
export const signUpAction = publicAction(
  z.object({ email: trimmedText, password: verbatimText, confirm: verbatimText, name: trimmedText }),
  async ({ email, password, confirm, name }) => {
    if (password !== confirm)
      throw new PortalInputError('The two passwords differ; type the same password twice.', 'confirm');
    const ip = await clientIp();
    const wait = await takeSignUpAttempt(ip ?? 'unknown');
    if (wait > 0)
      throw new PortalInputError(`Too many sign-ups from your network address. Try again in ${minutes(wait)}.`);
    await signUp(getDb(), { email, password, name: name || undefined }, { label: 'self-signup', ip });
    await rememberSignedUpEmail(normaliseEmail(email));
    redirect(`/signin?notice=${SIGNED_UP_NOTICE}`);
  },
);

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: '/' });
}
