'use client';
/**
 * Paste text with leaked secrets; every matching active key is disabled, and the outcome says what
 * happened to each secret, by its display form. Once the server has answered, the form is emptied:
 * the secrets do not stay on the screen (or in the page's memory) after their job is done.
 */
import Link from 'next/link';
import { useActionState, useEffect, useRef } from 'react';
import { ActionForm } from '@/components/forms/ActionForm.tsx';
import { FieldError } from '@/components/forms/Field.tsx';
import { ScrollRegion } from '@/components/ScrollRegion.tsx';
import { SubmitButton } from '@/components/SubmitButton.tsx';
import type { LeakSecretOutcome } from '@/lib/portal/support.ts';
import { bulkDisableAction } from './actions.ts';

const OUTCOME_WORDS: Record<LeakSecretOutcome, string> = {
  disabled: 'Disabled now',
  already_disabled: 'Already disabled',
  not_found: 'No such key',
};

export function LeakForm() {
  const [state, formAction] = useActionState(bulkDisableAction, null);
  const outcome = state?.ok ? state.outcome : undefined;
  const text = useRef<HTMLTextAreaElement>(null);
  // The whole form: the next paste is another report, with its own source and its own confirmation.
  useEffect(() => {
    if (outcome) text.current?.form?.reset();
  }, [outcome]);
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
              <textarea {...field('text')} ref={text} rows={10} required spellCheck={false} autoComplete="off" />
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
          ) : (
            <ScrollRegion label="Each secret found">
              <table>
                <caption className="muted">Each secret found in the text, in the order pasted</caption>
                <thead>
                  <tr>
                    <th scope="col">Secret</th>
                    <th scope="col">Outcome</th>
                    <th scope="col">Key</th>
                  </tr>
                </thead>
                <tbody>
                  {outcome.secrets.map((s, i) => (
                    // Two secrets may share a display form; the paste's order is fixed.
                    // biome-ignore lint/suspicious/noArrayIndexKey: the list is rendered once per answer, never reordered
                    <tr key={i}>
                      <td>
                        {s.key ? (
                          <Link href={`/support/keys/${s.key.id}`}>
                            <code>{s.display}</code>
                          </Link>
                        ) : (
                          <code>{s.display}</code>
                        )}
                      </td>
                      <td>{OUTCOME_WORDS[s.outcome]}</td>
                      <td>
                        {s.key ? (
                          `“${s.key.name}” of ${s.key.owner}`
                        ) : (
                          <span className="muted">not a key issued here</span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          )}
        </section>
      ) : null}
    </>
  );
}
