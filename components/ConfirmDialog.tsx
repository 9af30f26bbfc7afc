'use client';
/**
 * A destructive action behind a confirmation: the trigger button opens a native modal dialog that says
 * what will happen; only its submit button runs the server action. A refusal shows inside the dialog;
 * success closes it, unless `success` renders something only this response has (a new secret) in its place.
 * A dialog with `reopenAs` opens by itself on a page loaded with ?dialog=<reopenAs> (sign-in's way back to it).
 *
 * The caller owns the action state (useActionState): a successful action often re-renders the page
 * without this dialog (a disabled key offers no "Disable"), and the outcome must survive that.
 *
 * Closing (Escape, Cancel, success) puts the focus back on the trigger, so a keyboard user goes on from
 * where they were.
 */
import { type ReactNode, useEffect, useEffectEvent, useId, useRef } from 'react';
import { ActionForm } from '@/components/forms/ActionForm.tsx';
import { useReopenAfterSignIn } from '@/components/forms/reopen-dialog.ts';
import { SubmitButton } from '@/components/SubmitButton.tsx';
import type { ActionState } from '@/lib/portal/action-result.ts';
import './confirm-dialog.css';

type Success<T> = Extract<ActionState<T>, { ok: true }>;

export function ConfirmDialog<T extends object = object>({
  trigger,
  triggerClass = 'secondary',
  title,
  confirm,
  confirmClass = 'danger',
  pendingText,
  state,
  formAction,
  children,
  success,
  onClosedAfterSuccess,
  reopenAs,
}: {
  trigger: string;
  triggerClass?: string;
  title: string;
  confirm: string;
  confirmClass?: string;
  pendingText: string;
  state: ActionState<T>;
  formAction: (form: FormData) => void;
  children: ReactNode;
  success?: (state: Success<T>, close: () => void) => ReactNode;
  /** Called when the dialog closes (button or Escape) after a success shown inside it. */
  onClosedAfterSuccess?: (state: Success<T>) => void;
  /** The dialog's name in a return path (?dialog=disable), so signing in again comes back to it. */
  reopenAs?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const triggerButton = useRef<HTMLButtonElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const close = () => dialog.current?.close();
  const showsSuccess = Boolean(success);

  function open() {
    dialog.current?.showModal();
    // The safe choice has the focus: Enter or Space right after opening does not destroy anything.
    cancel.current?.focus();
  }

  useEffect(() => {
    if (state?.ok && !showsSuccess) dialog.current?.close();
  }, [state, showsSuccess]);

  // Mounted in place of a dialog whose action just succeeded (Disable swapped for Re-enable): the focus,
  // lost with that dialog's button, comes to this one's.
  const takeOverFocus = useEffectEvent(() => {
    if (state?.ok && (!document.activeElement || document.activeElement === document.body))
      triggerButton.current?.focus();
  });
  useEffect(() => takeOverFocus(), []);
  useReopenAfterSignIn(reopenAs, open);

  return (
    <>
      <button type="button" className={triggerClass} onClick={open} ref={triggerButton}>
        {trigger}
      </button>
      <dialog
        ref={dialog}
        className="confirm-dialog"
        aria-labelledby={titleId}
        onClose={() => {
          triggerButton.current?.focus();
          if (state?.ok) onClosedAfterSuccess?.(state);
        }}
      >
        <h2 id={titleId}>{title}</h2>
        {state?.ok && success ? (
          success(state, close)
        ) : (
          <ActionForm action={formAction} state={state} dialog={reopenAs} className="stack">
            {children}
            <div className="actions">
              <SubmitButton className={confirmClass} pendingText={pendingText}>
                {confirm}
              </SubmitButton>
              <button type="button" className="secondary" ref={cancel} onClick={close}>
                Cancel
              </button>
            </div>
          </ActionForm>
        )}
      </dialog>
    </>
  );
}
