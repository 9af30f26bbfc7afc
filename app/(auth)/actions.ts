'use server';
/** Sign up, sign in and sign out (Auth.js credentials). */
import { AuthError } from 'next-auth';
import { redirect } from 'next/navigation';
import { signIn, signOut } from '@/lib/auth/auth.ts';
import { safeReturnPath } from '@/lib/auth/return-path.ts';
import { getDb } from '@/lib/db/client.ts';
import { field, type ActionState } from '@/lib/portal/action-result.ts';
import { clientIp } from '@/lib/portal/viewer.ts';
import { SIGNED_UP_NOTICE } from '@/lib/auth/sign-up-notice.ts';
import { signUp, takeSignUpAttempt } from '@/lib/auth/sign-up.ts';
import { UserStoreError } from '@/lib/auth/users.ts';

/** "5 minutes", "1 minute": how long a throttled person waits, rounded up. */
function minutes(ms: number): string {
  const count = Math.max(1, Math.ceil(ms / 60_000));
  return `${count} minute${count === 1 ? '' : 's'}`;
}

export async function signInAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const email = field(form, 'email');
  const password = typeof form.get('password') === 'string' ? (form.get('password') as string) : '';
  if (!email || !password) return { ok: false, error: 'Enter your email and password.' };
  try {
    await signIn('credentials', { email, password, redirectTo: safeReturnPath(field(form, 'next')) });
  } catch (error) {
    if (error instanceof AuthError) {
      const { code, retryAfterMs } = error as AuthError & { code?: string; retryAfterMs?: number };
      return {
        ok: false,
        error: code === 'too_many_attempts'
          ? `Too many failed sign-ins. Try again in ${minutes(retryAfterMs ?? 15 * 60_000)}, or ask support to help you in.`
          : 'Wrong email or password.',
      };
    }
    throw error; // the redirect after a successful sign-in
  }
  return null;
}

/**
 * Sign-up answers the same whether or not the email already has an account (lib/auth/sign-up.ts): the
 * sign-in page with one notice, and no session. The email never goes into the address.
 */
export async function signUpAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const email = field(form, 'email');
  const password = typeof form.get('password') === 'string' ? (form.get('password') as string) : '';
  if (password !== form.get('confirm')) return { ok: false, error: 'The two passwords differ; type the same password twice.' };
  const ip = await clientIp();
  const wait = await takeSignUpAttempt(ip ?? 'unknown');
  if (wait > 0) return { ok: false, error: `Too many sign-ups from your network address. Try again in ${minutes(wait)}.` };
  try {
    await signUp(getDb(), { email, password, name: field(form, 'name') || undefined }, { label: 'self-signup', ip });
  } catch (error) {
    if (error instanceof UserStoreError) return { ok: false, error: error.message };
    throw error;
  }
  redirect(`/signin?notice=${SIGNED_UP_NOTICE}`);
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: '/' });
}
