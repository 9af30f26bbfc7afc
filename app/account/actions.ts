'use server';
/**
 * The account page's actions: the service in lib/portal/account.ts checks and changes the password;
 * lib/channels/portal-binding.ts makes bind codes and unbinds the viewer's messaging-app followers.
 */
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { AuthError } from 'next-auth';
import { z } from 'zod';
import { signIn } from '@/lib/auth/auth.ts';
import { myBindCode, unbindMine } from '@/lib/channels/portal-binding.ts';
import { getDb } from '@/lib/db/client.ts';
import { changeMyPassword } from '@/lib/portal/account.ts';
import { portalAction } from '@/lib/portal/form-action.ts';
import { trimmedText, verbatimText } from '@/lib/portal/form-input.ts';

export const changePasswordAction = portalAction(
  // Passwords are taken as typed (no trimming: spaces may be part of them).
  {
    input: z.object({ current: verbatimText, next: verbatimText, confirm: verbatimText }),
    access: 'signed-in',
    notDone: 'the password was not changed',
    setsNewPassword: true,
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

/** A bind code for the page to show once: "ABCD-2345", its expiry (ISO) and how many minutes it lasts. */
export interface BindCode {
  code: string;
  expiresAt: string;
  minutes: number;
}

export const bindCodeAction = portalAction(
  { input: z.object({}), access: 'signed-in', notDone: 'no bind code was made' },
  async (_input, { viewer }): Promise<BindCode> => myBindCode(getDb(), viewer),
);

export const unbindAction = portalAction(
  {
    input: z.object({ bindingId: trimmedText }),
    access: 'signed-in',
    notDone: 'the follower was not unbound',
  },
  async ({ bindingId }, { viewer, actor }) => {
    const { app, follower } = await unbindMine(getDb(), viewer, bindingId, actor);
    revalidatePath('/account');
    return { message: `Unbound the ${app} follower ${follower}: it no longer speaks for this account.` };
  },
);
