'use client';
/** The sign-in and sign-up forms (the server actions do the work; refusals come back at their fields). */
import { useActionState } from 'react';
import type { ActionState } from '@/lib/portal/action-result.ts';
import { ActionForm } from './forms/ActionForm.tsx';
import { FieldError } from './forms/Field.tsx';
import { SubmitButton } from './SubmitButton.tsx';

type Action = (previous: ActionState, form: FormData) => Promise<ActionState>;

/** `email`: the address just signed up with ('' for none): filled in, and the cursor waits in the password. */
export function SignInForm({ action, next, email }: { action: Action; next: string; email: string }) {
  const [state, formAction] = useActionState(action, null);
  return (
    <ActionForm action={formAction} state={state} className="stack">
      {(field) => (
        <>
          <input type="hidden" name="next" value={next} />
          <label>
            Email
            <input {...field('email')} type="email" autoComplete="email" defaultValue={email} required />
          </label>
          <FieldError name="email" />
          <label>
            Password
            <input
              {...field('password')}
              type="password"
              autoComplete="current-password"
              required
              // biome-ignore lint/a11y/noAutofocus: straight after sign-up the email is filled in; the password is what is left to type
              autoFocus={Boolean(email)}
            />
          </label>
          <FieldError name="password" />
          <SubmitButton pendingText="Signing in…">Sign in</SubmitButton>
        </>
      )}
    </ActionForm>
  );
}

export function SignUpForm({ action }: { action: Action }) {
  const [state, formAction] = useActionState(action, null);
  return (
    <ActionForm action={formAction} state={state} className="stack">
      {(field) => (
        <>
          <label>
            Name <span className="hint">(optional)</span>
            <input {...field('name')} autoComplete="name" maxLength={100} />
          </label>
          <FieldError name="name" />
          <label>
            Email
            <input {...field('email')} type="email" autoComplete="email" required />
          </label>
          <FieldError name="email" />
          <label>
            Password <span className="hint">At least 10 characters. A long phrase is better than a clever word.</span>
            <input
              {...field('password')}
              type="password"
              autoComplete="new-password"
              minLength={10}
              maxLength={200}
              required
            />
          </label>
          <FieldError name="password" />
          <label>
            Repeat the password
            <input {...field('confirm')} type="password" autoComplete="new-password" required />
          </label>
          <FieldError name="confirm" />
          <SubmitButton pendingText="Creating your account…">Create account</SubmitButton>
        </>
      )}
    </ActionForm>
  );
}
