'use client';
/**
 * Allow or Deny, one click each, and the key the app's calls count against. After the server's answer the
 * browser goes to the app's redirect URI, which may be another site or an app's own scheme.
 */
import { useActionState, useEffect } from 'react';
import { ActionForm } from '@/components/forms/ActionForm.tsx';
import { SubmitButton } from '@/components/SubmitButton.tsx';
import { decideConsentAction } from './actions.ts';

export interface ConsentFormProps {
  signed: string;
  csrf: string;
  newKey: string;
  newKeyName: string;
  canCreateKey: boolean;
  keys: { id: string; name: string; display: string; tier: string }[];
}

export function ConsentForm({ signed, csrf, newKey, newKeyName, canCreateKey, keys }: ConsentFormProps) {
  const [state, formAction] = useActionState(decideConsentAction, null);
  const redirectTo = state?.ok ? state.redirectTo : undefined;
  useEffect(() => {
    if (redirectTo) window.location.assign(redirectTo);
  }, [redirectTo]);
  const firstChoice = canCreateKey ? newKey : keys[0]?.id;
  return (
    <ActionForm action={formAction} state={state} className="stack" label="Allow or deny the app">
      <input type="hidden" name="request" value={signed} />
      <input type="hidden" name="csrf" value={csrf} />
      <fieldset className="key-choice">
        <legend>Key its calls count against</legend>
        <label>
          <input
            type="radio"
            name="key"
            value={newKey}
            defaultChecked={firstChoice === newKey}
            disabled={!canCreateKey}
          />
          A new free key, “{newKeyName}”
          {canCreateKey ? null : <span className="hint"> (you hold as many active keys as you may)</span>}
        </label>
        {keys.map((k) => (
          <label key={k.id}>
            <input type="radio" name="key" value={k.id} defaultChecked={firstChoice === k.id} />
            {k.name}{' '}
            <span className="hint">
              ({k.display}, {k.tier})
            </span>
          </label>
        ))}
      </fieldset>
      {redirectTo ? (
        <p role="status">Returning to the app…</p>
      ) : (
        <div className="actions">
          <SubmitButton name="decision" value="allow" className="primary" pendingText="Working…">
            Allow
          </SubmitButton>
          <SubmitButton name="decision" value="deny" pendingText="Working…">
            Deny
          </SubmitButton>
        </div>
      )}
    </ActionForm>
  );
}
