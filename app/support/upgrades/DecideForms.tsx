'use client';
/** Approve (optional note) or decline (note required) one pending upgrade request. */
import { useActionState } from 'react';
import { FormMessage } from '@/components/FormMessage.tsx';
import { ActionForm } from '@/components/forms/ActionForm.tsx';
import { FieldError } from '@/components/forms/Field.tsx';
import { SubmitButton } from '@/components/SubmitButton.tsx';
import { approveAction, declineAction } from './actions.ts';

export function DecideForms({ requestId, label }: { requestId: string; label: string }) {
  const [approved, approve] = useActionState(approveAction, null);
  const [declined, decline] = useActionState(declineAction, null);
  const message = approved?.ok ? approved : declined?.ok ? declined : null;
  if (message) return <FormMessage state={message} />;
  return (
    <div className="decide">
      <ActionForm action={approve} state={approved} label={`Approve ${label}`}>
        {(field) => (
          <>
            <input type="hidden" name="requestId" value={requestId} />
            <label>
              Note to the developer <span className="hint">(optional)</span>
              <textarea {...field('note')} rows={2} maxLength={2000} />
            </label>
            <FieldError name="note" />
            <div className="actions">
              <SubmitButton pendingText="Approving…">Approve: make the key Pro</SubmitButton>
            </div>
          </>
        )}
      </ActionForm>
      <ActionForm action={decline} state={declined} label={`Decline ${label}`}>
        {(field) => (
          <>
            <input type="hidden" name="requestId" value={requestId} />
            <label>
              Why declined <span className="hint">(required; the developer reads it)</span>
              <textarea {...field('note')} rows={2} required maxLength={2000} />
            </label>
            <FieldError name="note" />
            <div className="actions">
              <SubmitButton className="danger" pendingText="Declining…">
                Decline
              </SubmitButton>
            </div>
          </>
        )}
      </ActionForm>
    </div>
  );
}
