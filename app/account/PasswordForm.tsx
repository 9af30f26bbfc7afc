'use client';
/** Change password: current, new, new again. A change sends the browser to /account?changed=1 (app/account/actions.ts). */
import { useActionState } from 'react';
import { ActionForm } from '@/components/forms/ActionForm.tsx';
import { FieldError } from '@/components/forms/Field.tsx';
import { SubmitButton } from '@/components/SubmitButton.tsx';
import type { ActionState } from '@/lib/portal/action-result.ts';

type Action = (previous: ActionState, form: FormData) => Promise<ActionState>;

export function PasswordForm({ action }: { action: Action }) {
  const [state, formAction] = useActionState(action, null);
  return (
    <ActionForm action={formAction} state={state} className="stack">
      {(field) => (
        <>
          <label>
            Current password
            <input {...field('current')} type="password" autoComplete="current-password" required />
          </label>
          <FieldError name="current" />
          <label>
            New password{' '}
            <span className="hint">At least 10 characters. A long phrase is better than a clever word.</span>
            <input
              {...field('next')}
              type="password"
              autoComplete="new-password"
              minLength={10}
              maxLength={200}
              required
            />
          </label>
          <FieldError name="next" />
          <label>
            Repeat the new password
            <input {...field('confirm')} type="password" autoComplete="new-password" required />
          </label>
          <FieldError name="confirm" />
          <SubmitButton pendingText="Changing…">Change password</SubmitButton>
        </>
      )}
    </ActionForm>
  );
}
