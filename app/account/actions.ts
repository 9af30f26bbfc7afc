'use server';
/** The account page's action: the service in lib/portal/account.ts checks and changes the password. */
import { AuthError } from 'next-auth';
import { redirect } from 'next/navigation';
import { signIn } from '@/lib/auth/auth.ts';
import { getDb } from '@/lib/db/client.ts';
import { changeMyPassword } from '@/lib/portal/account.ts';
import { runAction, type ActionState } from '@/lib/portal/action-result.ts';
import { currentActor, requireViewer } from '@/lib/portal/viewer.ts';

/** Passwords are taken as typed (no trimming: spaces may be part of them). */
const secretField = (form: FormData, name: string) => (typeof form.get(name) === 'string' ? (form.get(name) as string) : '');

export async function changePasswordAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const viewer = await requireViewer('/account');
  const actor = await currentActor(viewer);
  const next = secretField(form, 'next');
  const state = await runAction(async () => {
    await changeMyPassword(getDb(), viewer, { current: secretField(form, 'current'), next, confirm: secretField(form, 'confirm') }, actor);
    return {};
  });
  if (!state?.ok) return state;
  // The change ended every session, this one too: signing in with the new password gives this browser a current cookie.
  try {
    await signIn('credentials', { email: viewer.email, password: next, redirect: false });
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    redirect('/signin?next=%2Faccount');
  }
  // A new page request, which carries the new cookie (this request's re-render would still see the old one).
  redirect('/account?changed=1');
}
