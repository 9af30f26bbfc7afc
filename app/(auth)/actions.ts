'use server';
/** Sign up, sign in and sign out (Auth.js credentials). */
import { AuthError } from 'next-auth';
import { signIn, signOut } from '@/lib/auth/auth.ts';
import { getDb } from '@/lib/db/client.ts';
import { field, type ActionState } from '@/lib/portal/action-result.ts';
import { clientIp } from '@/lib/portal/viewer.ts';
import { createUser, UserStoreError } from '@/lib/users/store.ts';

/** Only same-site paths: `next` must not send a signed-in user to another site. */
function safeReturnPath(raw: string): string {
  return raw.startsWith('/') && !raw.startsWith('//') && !raw.startsWith('/\\') ? raw : '/keys';
}

export async function signInAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const email = field(form, 'email');
  const password = typeof form.get('password') === 'string' ? (form.get('password') as string) : '';
  if (!email || !password) return { ok: false, error: 'Enter your email and password.' };
  try {
    await signIn('credentials', { email, password, redirectTo: safeReturnPath(field(form, 'next')) });
  } catch (error) {
    if (error instanceof AuthError) {
      const code = (error as AuthError & { code?: string }).code;
      return {
        ok: false,
        error: code === 'too_many_attempts'
          ? 'Too many failed sign-ins. Wait 15 minutes and try again, or ask support to help you in.'
          : 'Wrong email or password.',
      };
    }
    throw error; // the redirect after a successful sign-in
  }
  return null;
}

export async function signUpAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const email = field(form, 'email');
  const password = typeof form.get('password') === 'string' ? (form.get('password') as string) : '';
  if (password !== form.get('confirm')) return { ok: false, error: 'The two passwords differ; type the same password twice.' };
  try {
    await createUser(getDb(), { email, password, name: field(form, 'name') || undefined }, { label: 'self-signup', ip: await clientIp() });
  } catch (error) {
    if (error instanceof UserStoreError) {
      return { ok: false, error: error.code === 'exists' ? 'An account with this email already exists. Sign in instead.' : error.message };
    }
    throw error;
  }
  await signIn('credentials', { email, password, redirectTo: '/keys' });
  return null;
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: '/' });
}
