'use client';
/** The request form: which key, what for, how many calls, how to reach you. */
import { useActionState } from 'react';
import { ActionForm } from '@/components/forms/ActionForm.tsx';
import { FieldError } from '@/components/forms/Field.tsx';
import { SubmitButton } from '@/components/SubmitButton.tsx';
import { formatCount } from '@/lib/portal/format.ts';
import { requestUpgradeAction } from './actions.ts';

export interface UpgradeFormProps {
  keys: { id: string; name: string; display: string; pending: boolean }[];
  selected: string;
  contact: string;
  useCaseMax: number;
  contactMax: number;
}

export function UpgradeForm({ keys, selected, contact, useCaseMax, contactMax }: UpgradeFormProps) {
  const [state, formAction] = useActionState(requestUpgradeAction, null);
  const firstOpen = keys.find((k) => !k.pending)?.id ?? '';
  const initial = keys.some((k) => k.id === selected && !k.pending) ? selected : firstOpen;
  return (
    <ActionForm action={formAction} state={state} className="stack">
      {(field) => (
        <>
          <label>
            Key to upgrade
            <select {...field('keyId')} defaultValue={initial} required>
              {keys.map((k) => (
                <option key={k.id} value={k.id} disabled={k.pending}>
                  {k.name} ({k.display}){k.pending ? ': request pending' : ''}
                </option>
              ))}
            </select>
          </label>
          <FieldError name="keyId" />
          <label>
            Use case{' '}
            <span className="hint">
              What does your agent do with the tools? Up to {formatCount(useCaseMax)} characters.
            </span>
            <textarea {...field('useCase')} required maxLength={useCaseMax} rows={5} />
          </label>
          <FieldError name="useCase" />
          <label>
            Expected calls per day <span className="hint">calls/day, a whole number</span>
            <input {...field('expectedDailyCalls')} type="number" inputMode="numeric" min={1} step={1} required />
          </label>
          <FieldError name="expectedDailyCalls" />
          <label>
            Contact <span className="hint">How staff can reach you: email, phone or chat handle</span>
            <input {...field('contact')} required maxLength={contactMax} defaultValue={contact} autoComplete="email" />
          </label>
          <FieldError name="contact" />
          <div className="actions">
            <SubmitButton pendingText="Sending…">Request Pro</SubmitButton>
          </div>
        </>
      )}
    </ActionForm>
  );
}
