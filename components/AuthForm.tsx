'use client';
/** The sign-in and sign-up forms (the server actions do the work; errors come back as messages). */
import { useActionState } from 'react';
import type { ActionState } from '@/lib/portal/action-result.ts';
import { FormMessage } from './FormMessage.tsx';
import { SubmitButton } from './SubmitButton.tsx';

type Action = (previous: ActionState, form: FormData) => Promise<ActionState>;

export function SignInForm({ action, next }: { action: Action; next: string }) {
  const [state, formAction] = useActionState(action, null);
  return (
    <form action={formAction} className="stack">
      <FormMessage state={state && !state.ok ? state : null} />
      <input type="hidden" name="next" value={next} />
      <label>
        Email
        <input name="email" type="email" autoComplete="email" required />
      </label>
      <label>
        Password
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
      <SubmitButton pendingText="Signing in…">Sign in</SubmitButton>
    </form>
  );
}

export function SignUpForm({ action }: { action: Action }) {
  const [state, formAction] = useActionState(action, null);
  return (
    <form action={formAction} className="stack">
      <FormMessage state={state && !state.ok ? state : null} />
      <label>
        Name <span className="hint">(optional)</span>
        <input name="name" autoComplete="name" maxLength={100} />
      </label>
      <label>
        Email
        <input name="email" type="email" autoComplete="email" required />
      </label>
      <label>
        Password <span className="hint">At least 10 characters. A long phrase is better than a clever word.</span>
        <input name="password" type="password" autoComplete="new-password" minLength={10} maxLength={200} required />
      </label>
      <label>
        Repeat the password
        <input name="confirm" type="password" autoComplete="new-password" required />
      </label>
      <SubmitButton pendingText="Creating your account…">Create account</SubmitButton>
    </form>
  );
}
