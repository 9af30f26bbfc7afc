'use client';
/**
 * The portal's one kind of form. What was typed stays when the server refuses it: React resets a form's
 * fields after its action, so the form sends itself from onSubmit, in a transition, which React does
 * not reset (useFormStatus still shows the form working; without JavaScript it posts the ordinary way).
 * A refusal about one field is shown next to that field (Field.tsx) and the focus moves there; any other
 * refusal is shown at the top of the form. A refusal because the session ended says what did not
 * happen, links to sign-in that comes back to this page (and reopens `dialog`: ?dialog=…), and the
 * header stops showing the account.
 */
import { type CSSProperties, type ReactNode, startTransition, useEffect, useId, useRef, useState } from 'react';
import type { ActionRefusal, ActionState } from '@/lib/portal/action-result.ts';
import { type FieldProps, fieldProps } from './Field.tsx';
import { ActionFormContext, fieldErrorId } from './form-context.ts';
import { markSessionEnded } from './session-ended.ts';

/** This page (and the dialog to reopen) as sign-in's return path. */
function signInAgainHref(dialog: string | undefined): string {
  const here = new URL(window.location.href);
  here.searchParams.delete('dialog');
  if (dialog) here.searchParams.set('dialog', dialog);
  return `/signin?next=${encodeURIComponent(here.pathname + here.search)}`;
}

export function ActionForm<T extends object>({
  action,
  state,
  dialog,
  className,
  style,
  label,
  children,
}: {
  action: (form: FormData) => void;
  state: ActionState<T>;
  /** The dialog this form is in, by the name ConfirmDialog reopens it under after sign-in. */
  dialog?: string;
  className?: string;
  style?: CSSProperties;
  /** The form's accessible name, when a page has several alike. */
  label?: string;
  /** The fields; as a function, it gets `field(name)`: the name plus the attributes that tie a refusal to it. */
  children: ReactNode | ((field: (name: string) => FieldProps) => ReactNode);
}) {
  const form = useRef<HTMLFormElement>(null);
  const idPrefix = useId();
  const refusal: ActionRefusal | null = state && !state.ok ? state : null;
  // A refusal naming a field this form shows no message for (only a hand-made post does that) goes to the top.
  const [unplaced, setUnplaced] = useState<ActionRefusal | null>(null);

  useEffect(() => {
    if (!refusal) return;
    if (refusal.signedOut) markSessionEnded();
    if (!refusal.field) return;
    if (!document.getElementById(fieldErrorId(idPrefix, refusal.field))) setUnplaced(refusal);
    const named = form.current?.elements.namedItem(refusal.field);
    const target = named instanceof RadioNodeList ? named[0] : named;
    if (target instanceof HTMLElement) target.focus();
  }, [refusal, idPrefix]);

  const formLevel = refusal && (!refusal.field || unplaced === refusal) ? refusal : null;
  const context = { idPrefix, refusal };
  return (
    <ActionFormContext value={context}>
      <form
        ref={form}
        action={action}
        className={className}
        style={style}
        aria-label={label}
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter);
          startTransition(() => action(data));
        }}
      >
        {formLevel ? (
          <p className="alert error form-refusal" role="alert">
            {formLevel.error}
            {formLevel.signedOut ? (
              <>
                {' '}
                <a href={signInAgainHref(dialog)}>Sign in again</a>
              </>
            ) : null}
          </p>
        ) : null}
        {typeof children === 'function' ? children((name) => fieldProps(context, name)) : children}
      </form>
    </ActionFormContext>
  );
}
