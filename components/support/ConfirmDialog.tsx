'use client';
/**
 * A button that opens a native <dialog> holding a form: the confirmation step for destructive staff
 * actions. The dialog closes on success and the outcome is announced next to the button; `success`
 * keeps the dialog open to show something only this response has (a new secret).
 */
import { useActionState, useEffect, useRef, type ReactNode } from 'react';
import { FormMessage } from '@/components/FormMessage.tsx';
import { SubmitButton } from '@/components/SubmitButton.tsx';
import type { ActionState } from '@/lib/portal/action-result.ts';

type Action<T> = (previous: ActionState<T>, form: FormData) => Promise<ActionState<T>>;

export function ConfirmDialog<T extends object = object>(props: {
  trigger: string;
  triggerClass?: string;
  title: string;
  action: Action<T>;
  submitLabel: string;
  submitClass?: string;
  pendingText?: string;
  children: ReactNode;
  success?: (state: { ok: true; message?: string } & Partial<T>, close: () => void) => ReactNode;
  /** Called when the dialog closes (button or Escape) after a success shown inside it. */
  onClosedAfterSuccess?: (state: { ok: true; message?: string } & Partial<T>) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [state, formAction] = useActionState(props.action, null);
  const succeeded = Boolean(state?.ok);
  const close = () => dialog.current?.close();

  useEffect(() => {
    if (succeeded && !props.success) dialog.current?.close();
  }, [state, succeeded, props.success]);

  return (
    <>
      <button type="button" className={props.triggerClass} onClick={() => dialog.current?.showModal()}>{props.trigger}</button>
      {succeeded && !props.success ? <FormMessage state={state} /> : null}
      <dialog ref={dialog} onClose={() => (state?.ok ? props.onClosedAfterSuccess?.(state) : undefined)} aria-labelledby={`${props.title}-title`.replace(/\W+/g, '-')}>
        <h2 id={`${props.title}-title`.replace(/\W+/g, '-')} style={{ marginTop: 0 }}>{props.title}</h2>
        {succeeded && props.success && state?.ok ? (
          props.success(state, close)
        ) : (
          <form action={formAction} className="stack">
            {props.children}
            <FormMessage state={state && !state.ok ? state : null} />
            <div className="actions">
              <SubmitButton className={props.submitClass} pendingText={props.pendingText}>{props.submitLabel}</SubmitButton>
              <button type="button" className="secondary" onClick={close}>Cancel</button>
            </div>
          </form>
        )}
      </dialog>
    </>
  );
}
