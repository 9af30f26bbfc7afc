'use server';
import { redirect } from 'next/navigation';
/** The account page's action: the service in lib/portal/account.ts checks and changes the password. */
import { AuthError } from 'next-auth';
import { z } from 'zod';
import { signIn } from '@/lib/auth/auth.ts';
import { getDb } from '@/lib/db/client.ts';
import { changeMyPassword } from '@/lib/portal/account.ts';
import { portalAction } from '@/lib/portal/form-action.ts';
import { verbatimText } from '@/lib/portal/form-input.ts';

export const changePasswordAction = portalAction(
  // Passwords are taken as typed (no trimming: spaces may be part of them).
  {
    input: z.object({ current: verbatimText, next: verbatimText, confirm: verbatimText }),
    access: 'signed-in',
    notDone: 'the password was not changed',
  },
  async ({ current, next, confirm }, { viewer, actor }) => {
    await changeMyPassword(getDb(), viewer, { current, next, confirm }, actor);
    // The change ended every session, this one too: signing in with the new password gives this browser a current cookie.
    try {
      await signIn('credentials', { email: viewer.email, password: next, redirect: false });
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      redirect('/signin?next=%2Faccount');
    }
    // A new page request, which carries the new cookie (this request's re-render would still see the old one).
    redirect('/account?changed=1');
  },
);
