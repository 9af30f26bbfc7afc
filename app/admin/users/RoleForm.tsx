'use client';
/** Change one user's role, confirmed in a dialog. */
import { useActionState } from 'react';
import { ConfirmDialog } from '@/components/ConfirmDialog.tsx';
import { FormMessage } from '@/components/FormMessage.tsx';
import { changeRoleAction } from './actions.ts';

const ROLE_TEXT = {
  developer: 'developer: their own keys only',
  support: 'support: the support console (any key, audit trail, upgrade requests)',
  admin: 'admin: support, plus granting roles',
} as const;

export function RoleForm({
  userId,
  email,
  role,
  self,
}: {
  userId: string;
  email: string;
  role: string;
  self: boolean;
}) {
  const [state, formAction] = useActionState(changeRoleAction, null);
  return (
    <>
      <ConfirmDialog
        trigger="Change role…"
        title={`Change the role of ${email}`}
        confirm="Change role"
        confirmClass=""
        pendingText="Changing…"
        state={state}
        formAction={formAction}
      >
        <input type="hidden" name="userId" value={userId} />
        <p>
          Currently <strong>{role}</strong>. The change applies at their next page load and is written to the audit
          trail.
        </p>
        {self ? (
          <p className="alert error">This is your own account: giving up admin takes this page away from you.</p>
        ) : null}
        <label>
          New role
          <select name="role" defaultValue={role}>
            {Object.entries(ROLE_TEXT).map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        </label>
      </ConfirmDialog>
      <FormMessage state={state?.ok ? state : null} />
    </>
  );
}
