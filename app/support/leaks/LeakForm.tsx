'use client';
/** Paste text with leaked secrets; every matching active key is disabled and the outcome counted. */
import Link from 'next/link';
import { useActionState } from 'react';
import { ActionForm } from '@/components/forms/ActionForm.tsx';
import { FieldError } from '@/components/forms/Field.tsx';
import { SubmitButton } from '@/components/SubmitButton.tsx';
import { bulkDisableAction } from './actions.ts';

export function LeakForm() {
  const [state, formAction] = useActionState(bulkDisableAction, null);
  const outcome = state?.ok ? state.outcome : undefined;
  return (
    <>
      <ActionForm action={formAction} state={state} className="stack" style={{ maxWidth: '48rem' }}>
        {(field) => (
          <>
            <label>
              Text with leaked secrets
              <span className="hint">
                Paste anything (a log, a file, a list): every cf_ key with a valid checksum in it is found. The text is
                not stored.
              </span>
              <textarea {...field('text')} rows={10} required spellCheck={false} autoComplete="off" />
            </label>
            <FieldError name="text" />
            <label>
              Where were they found?
              <span className="hint">A URL or ticket number; it is the reason in the audit trail (“leaked: …”).</span>
              <input {...field('source')} required maxLength={300} />
            </label>
            <FieldError name="source" />
            <label className="radio-row" style={{ display: 'flex' }}>
              <input {...field('confirm')} type="checkbox" value="yes" required style={{ width: 'auto' }} />
              Disable every active key whose secret is in this text, at once
            </label>
            <FieldError name="confirm" />
            <div className="actions">
              <SubmitButton className="danger" pendingText="Disabling…">
                Disable leaked keys
              </SubmitButton>
            </div>
          </>
        )}
      </ActionForm>
      {outcome ? (
        <section aria-labelledby="leak-outcome">
          <h2 id="leak-outcome">Outcome</h2>
          <p className="alert success" role="status">
            {outcome.disabled} key{outcome.disabled === 1 ? '' : 's'} disabled now; {outcome.alreadyDisabled} already
            disabled; {outcome.found - outcome.matched} secret{outcome.found - outcome.matched === 1 ? '' : 's'} matched
            no key.
          </p>
          <div className="grid">
            <div className="panel stat">
              <span className="label">Secrets found in the text</span>
              <span className="value">{outcome.found}</span>
            </div>
            <div className="panel stat">
              <span className="label">Matched keys</span>
              <span className="value">{outcome.matched}</span>
            </div>
            <div className="panel stat">
              <span className="label">Disabled now</span>
              <span className="value">{outcome.disabled}</span>
            </div>
            <div className="panel stat">
              <span className="label">Already disabled</span>
              <span className="value">{outcome.alreadyDisabled}</span>
            </div>
          </div>
          {outcome.found === 0 ? (
            <p className="empty">
              No secrets found in the text. Keys look like cf_ followed by 38 letters and digits; a mistyped or
              truncated one is ignored.
            </p>
          ) : outcome.keys.length ? (
            <ul>
              {outcome.keys.map((k) => (
                <li key={k.id}>
                  <Link href={`/support/keys/${k.id}`}>
                    <code>{k.display}</code>
                  </Link>{' '}
                  “{k.name}” of {k.owner}
                </li>
              ))}
            </ul>
          ) : (
            <p className="empty">None of the secrets belongs to a key issued here.</p>
          )}
        </section>
      ) : null}
    </>
  );
}
