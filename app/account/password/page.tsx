import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { requireSignedIn } from '@/lib/portal/viewer.ts';
import { changePasswordAction } from '../actions.ts';
import { PasswordForm } from '../PasswordForm.tsx';

export const metadata: Metadata = { title: 'Choose a new password' };

/**
 * Where an account that still has a password others have seen (the first admin's one-time password) is
 * sent from every page, until it chooses its own; the other actions refuse until then (lib/portal/viewer.ts,
 * lib/portal/form-action.ts). Anyone else changes their password on /account.
 */
export default async function NewPasswordPage() {
  const viewer = await requireSignedIn('/account/password');
  if (!viewer.mustChangePassword) redirect('/account');
  return (
    <>
      <h1>Choose a new password</h1>
      <p className="alert" role="status">
        You signed in with the one-time password printed when ChemFlow first started. Anyone who saw that output (a
        console, a log) knows it, so choose a password of your own before doing anything else.
      </p>
      <p className="muted">
        Type the one-time password as the current one. Changing it ends every other session of this account.
      </p>
      <PasswordForm action={changePasswordAction} />
    </>
  );
}
