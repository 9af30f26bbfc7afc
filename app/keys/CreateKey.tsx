'use client';
/**
 * Creating a key: a dialog asking for a name and an expiry, then the new secret shown once. The form is
 * remounted after each key, so the secret does not linger in its state once the developer closes it.
 */
import { useActionState, useEffect, useEffectEvent, useId, useRef, useState } from 'react';
import { ActionForm } from '@/components/forms/ActionForm.tsx';
import { FieldError } from '@/components/forms/Field.tsx';
import { useReopenAfterSignIn } from '@/components/forms/reopen-dialog.ts';
import { KeyNameInput } from '@/components/keys/KeyNameInput.tsx';
import { type ExampleCall, NewSecretDialog } from '@/components/keys/NewSecretDialog.tsx';
import { SubmitButton } from '@/components/SubmitButton.tsx';
import { createKeyAction, type IssuedSecret } from './actions.ts';

const EXPIRY_OPTIONS = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '365 days' },
  { value: 'never', label: 'No expiry' },
];

function CreateKeyForm({
  titleId,
  onIssued,
  onCancel,
}: {
  titleId: string;
  onIssued: (issued: IssuedSecret & { name: string }) => void;
  onCancel: () => void;
}) {
  const [state, action] = useActionState(createKeyAction, null);
  // The new secret's dialog is titled with the name as typed when the key was created.
  const [name, setName] = useState('');

  // Only a new answer from the server hands on a secret, with the name typed then (a later edit of the
  // name, or a new onIssued from the parent, does not hand it on again).
  const handOn = useEffectEvent((issued: IssuedSecret) => onIssued({ ...issued, name: name.trim() }));
  useEffect(() => {
    if (state?.ok && state.secret && state.keyId && state.display)
      handOn({ keyId: state.keyId, display: state.display, secret: state.secret });
  }, [state]);

  return (
    <ActionForm action={action} state={state} dialog="create-key" className="stack">
      {(field) => (
        <>
          <h2 id={titleId}>Create a key</h2>
          <label>
            Name <span className="hint">Where you will use it, e.g. &quot;laptop&quot; or &quot;CI&quot;.</span>
            <KeyNameInput field={field('name')} onValue={setName} autoFocus />
          </label>
          <FieldError name="name" />
          <fieldset>
            <legend>Expires after</legend>
            <div className="radio-row">
              {EXPIRY_OPTIONS.map((option) => (
                <label key={option.value}>
                  <input
                    {...field('expiry')}
                    type="radio"
                    value={option.value}
                    defaultChecked={option.value === '90'}
                  />
                  {option.label}
                </label>
              ))}
            </div>
            <p className="hint muted">
              A key that expires limits the damage if it ever leaks. You can reissue or replace it any time.
            </p>
          </fieldset>
          <FieldError name="expiry" />
          <p className="muted">New keys start on the free tier; ask for Pro on the key&apos;s page.</p>
          <div className="actions">
            <SubmitButton pendingText="Creating…">Create key</SubmitButton>
            <button type="button" className="secondary" onClick={onCancel}>
              Cancel
            </button>
          </div>
        </>
      )}
    </ActionForm>
  );
}

/**
 * The "Create key" button, or the empty state with "Create your first key". One component in one place
 * for both, so the page re-rendering with the new key (no longer empty) keeps the dialog showing the secret.
 */
export function CreateKey({ hasKeys, exampleCall }: { hasKeys: boolean; exampleCall: ExampleCall }) {
  const dialog = useRef<HTMLDialogElement>(null);
  // Whichever button is shown: the empty state's becomes "Create key" once the first key exists.
  const opener = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const [issued, setIssued] = useState<(IssuedSecret & { name: string }) | null>(null);
  const [round, setRound] = useState(0);
  useReopenAfterSignIn('create-key', () => dialog.current?.showModal());

  return (
    <>
      {hasKeys ? (
        <div className="actions keys-toolbar">
          <button type="button" ref={opener} onClick={() => dialog.current?.showModal()}>
            Create key
          </button>
        </div>
      ) : (
        <div className="empty">
          <p>
            You have no API keys yet. A key lets your MCP client or script call the chemistry tools at <code>/mcp</code>
            .
          </p>
          <button type="button" ref={opener} onClick={() => dialog.current?.showModal()}>
            Create your first key
          </button>
        </div>
      )}
      <dialog ref={dialog} className="secret-dialog" aria-labelledby={titleId} onClose={() => opener.current?.focus()}>
        <CreateKeyForm
          key={round}
          titleId={titleId}
          onCancel={() => dialog.current?.close()}
          onIssued={(next) => {
            dialog.current?.close();
            setIssued(next);
          }}
        />
      </dialog>
      {issued && (
        <NewSecretDialog
          title={`Key "${issued.name}" created`}
          secret={issued.secret}
          display={issued.display}
          exampleCall={exampleCall}
          onClosed={() => {
            setIssued(null);
            setRound((r) => r + 1);
            opener.current?.focus();
          }}
        />
      )}
    </>
  );
}
