'use client';
/** Change password: current, new, new again. A change sends the browser to /account?changed=1 (app/account/actions.ts). */
import { useActionState } from 'react';
import { FormMessage } from '@/components/FormMessage.tsx';
import { SubmitButton } from '@/components/SubmitButton.tsx';
import type { ActionState } from '@/lib/portal/action-result.ts';

type Action = (previous: ActionState, form: FormData) => Promise<ActionState>;

export function PasswordForm({ action }: { action: Action }) {
  const [state, formAction] = useActionState(action, null);
  return (
    <form action={formAction} className="stack">
      <FormMessage state={state && !state.ok ? state : null} />
      <label>
        Current password
        <input name="current" type="password" autoComplete="current-password" required />
      </label>
      <label>
        New password <span className="hint">At least 10 characters. A long phrase is better than a clever word.</span>
        <input name="next" type="password" autoComplete="new-password" minLength={10} maxLength={200} required />
      </label>
      <label>
        Repeat the new password
        <input name="confirm" type="password" autoComplete="new-password" required />
      </label>
      <SubmitButton pendingText="Changing…">Change password</SubmitButton>
    </form>
  );
}
