'use client';
/**
 * A destructive action behind a confirmation: the trigger button opens a native modal dialog that says
 * what will happen; only its submit button runs the server action. A refusal shows inside the dialog;
 * success closes it.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { FormMessage } from '@/components/FormMessage.tsx';
import { SubmitButton } from '@/components/SubmitButton.tsx';
import type { ActionState } from '@/lib/portal/action-result.ts';

export function ConfirmDialog({ trigger, triggerClass = 'secondary', title, confirm, confirmClass = 'danger', pendingText, keyId, state, formAction, children }: {
  trigger: string;
  triggerClass?: string;
  title: string;
  confirm: string;
  confirmClass?: string;
  pendingText: string;
  keyId: string;
  state: ActionState<object>;
  formAction: (form: FormData) => void;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();

  function open() {
    dialog.current?.showModal();
    // The safe choice has the focus: Enter or Space right after opening does not destroy anything.
    cancel.current?.focus();
  }

  useEffect(() => {
    if (state?.ok) dialog.current?.close();
  }, [state]);

  return (
    <>
      <button type="button" className={triggerClass} onClick={open}>{trigger}</button>
      <dialog ref={dialog} className="confirm-dialog" aria-labelledby={titleId}>
        <form action={formAction} className="stack">
          <h2 id={titleId}>{title}</h2>
          {children}
          <input type="hidden" name="keyId" value={keyId} />
          <FormMessage state={state && !state.ok ? state : null} />
          <div className="actions">
            <SubmitButton className={confirmClass} pendingText={pendingText}>{confirm}</SubmitButton>
            <button type="button" className="secondary" ref={cancel} onClick={() => dialog.current?.close()}>Cancel</button>
          </div>
        </form>
      </dialog>
    </>
  );
}
